// Symbols from arguments, --symbols and --symbols-file: trimmed, upper-cased, de-duplicated in
// first-seen order, and checked before any request (shared/patterns.ts: SYMBOL_PATTERN, which also
// refuses a symbol a spreadsheet would take for a formula).
import type { Deps } from '../deps.js';
import { UsageError } from '../errors/errors.js';
import { MAX_SYMBOLS_FILE_BYTES } from '../../shared/limits.js';
import { readFileLimited, readLimited } from '../../shared/read-limited.js';
import { FORMULA_RULE, FORMULA_START, SYMBOL_PATTERN, SYMBOL_RULE } from '../../shared/patterns.js';

export interface SymbolSources {
  args: readonly string[];
  symbols?: string;
  symbolsFile?: string;
}

export async function collectSymbols(deps: Deps, sources: SymbolSources): Promise<string[]> {
  const lists = sources.args.map((arg) => arg.split(','));
  if (sources.symbols !== undefined) lists.push(sources.symbols.split(','));
  if (sources.symbolsFile !== undefined) lists.push(parseSymbolsText(await readSymbolsFile(deps, sources.symbolsFile)));
  return normalizeSymbols(lists.flat());
}

/** One per line or comma-separated; `#` starts a comment. */
export function parseSymbolsText(text: string): string[] {
  return text.replace(/#[^\n]*/g, '').split(/\r?\n|,/);
}

export function normalizeSymbols(raw: readonly string[]): string[] {
  const seen = new Set<string>();
  const bad: string[] = [];
  for (const item of raw) {
    const symbol = item.trim();
    if (symbol === '') continue;
    // Checked before upper-casing, which turns some letters outside ASCII into ASCII ("ß" to "SS").
    if (!SYMBOL_PATTERN.test(symbol)) {
      bad.push(symbol);
      continue;
    }
    seen.add(symbol.toUpperCase());
  }
  if (bad.length > 0) {
    const shown = bad.slice(0, 5).map((symbol) => JSON.stringify(symbol.length > 40 ? `${symbol.slice(0, 40)}…` : symbol)).join(', ');
    // A symbol that starts a formula is named for what it is: `=HYPERLINK(...)` is no typing slip.
    const formula = bad.every((symbol) => FORMULA_START.test(symbol)) ? `: ${FORMULA_RULE}` : '';
    throw new UsageError(`invalid symbol${bad.length > 1 ? 's' : ''}: ${shown}${bad.length > 5 ? ` and ${bad.length - 5} more` : ''}${formula}`,
      `a symbol is ${SYMBOL_RULE}`);
  }
  return [...seen];
}

async function readSymbolsFile(deps: Deps, file: string): Promise<string> {
  if (file === '-') {
    if (deps.io.stdinIsTTY) throw new UsageError('--symbols-file - reads standard input, which is a terminal', 'pipe the symbols in: mkt quotes --symbols-file - < symbols.txt');
    return readLimited(deps.io.stdin, { plural: 'the symbols on standard input' }, MAX_SYMBOLS_FILE_BYTES, deps.signal);
  }
  return readFileLimited(file, `--symbols-file ${file}`, MAX_SYMBOLS_FILE_BYTES, deps.signal);
}
