// The query of a data route that takes a list of symbols: `symbols` (required, comma-separated,
// upper-cased, each once, at most maxSymbols) and the optional parameters the route allows, each at
// most once; any other parameter is refused. The route checks its optional ones' values itself.
import { MAX_SYMBOL_LENGTH } from '../shared/patterns.js';
import { quoteName } from './request-body.js';

export { MAX_SYMBOL_LENGTH };

export type SymbolsQuery<O extends string> = { symbols: string[]; params: Partial<Record<O, string>> } | { error: string };

/** A symbol is 1 to 32 visible ASCII characters; the reason it is not, or undefined. */
function symbolProblem(symbol: string, position: number): string | undefined {
  if (symbol.length > MAX_SYMBOL_LENGTH) return `symbol ${position} is longer than ${MAX_SYMBOL_LENGTH} characters`;
  for (let i = 0; i < symbol.length; i++) {
    const c = symbol.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return `symbol ${position} contains a control character`;
    if (c > 0x7e || c === 0x20) return `symbol ${position} contains a character other than visible ASCII`;
  }
  return undefined;
}

/** Trims spaces only: a control character anywhere, tab or newline included, is an error. */
export function trimSpaces(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text.charCodeAt(start) === 0x20) start++;
  while (end > start && text.charCodeAt(end - 1) === 0x20) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

/** `symbols` and the `optional` parameters of `query`, or the first problem, as a 400 says it. */
export function parseSymbolsQuery<O extends string = never>(query: string, maxSymbols: number, optional: readonly O[] = []): SymbolsQuery<O> {
  let symbolsParam: string | undefined;
  const params: Partial<Record<O, string>> = {};
  for (const [name, value] of new URLSearchParams(query)) {
    if (name === 'symbols') {
      if (symbolsParam !== undefined) return { error: 'symbols is given more than once' };
      symbolsParam = value;
    } else if ((optional as readonly string[]).includes(name)) {
      if (params[name as O] !== undefined) return { error: `${name} is given more than once` };
      params[name as O] = value;
    } else {
      return { error: `unknown query parameter ${quoteName(name)}; allowed: ${['symbols', ...optional].join(', ')}` };
    }
  }
  if (symbolsParam === undefined) return { error: 'symbols is required' };
  const symbols: string[] = [];
  const seen = new Set<string>();
  let position = 0;
  for (const part of symbolsParam.split(',')) {
    position++;
    const symbol = trimSpaces(part);
    if (symbol === '') continue;
    const problem = symbolProblem(symbol, position);
    if (problem !== undefined) return { error: problem };
    const upper = symbol.toUpperCase();
    if (seen.has(upper)) continue;
    seen.add(upper);
    if (symbols.push(upper) > maxSymbols) {
      return { error: `too many symbols: at most ${maxSymbols} distinct symbols per request` };
    }
  }
  if (symbols.length === 0) return { error: 'symbols is required: give at least one symbol, e.g. symbols=EURUSD,AAPL' };
  return { symbols, params };
}
