// mkt value's words for what the positions reader found: its warnings (columns ignored, lines and
// rows skipped), each with its code, written on stderr before anything is fetched; and, for a file
// it refused, a hint per problem naming the flag that helps (--decimal-comma, --encoding,
// --columns, --currency) and the problems as lines and as the JSON error object's `problems`.
// Worded from the facts the library gives, never from its sentences about its options.
import { PositionsError, type PositionsProblem, type PositionsWarning } from '../../api/index.js';
import { placeOfProblem } from '../../api/internal.js';
import { printable } from '../../shared/text.js';
import type { Warning } from '../../shared/warnings.js';

/** `--columns 'cost=Cost Basis'`, quoted for a POSIX shell, the header in double quotes where it holds , = or ". */
function columnsFlag(field: string, header: string): string {
  const value = /[,="]/.test(header) ? `"${header.replaceAll('"', '""')}"` : header;
  return `--columns '${`${field}=${value}`.replaceAll("'", "'\\''")}'`;
}

/** A warning of the positions reader as mkt value says it (its code kept: a JSON line under a JSON format), with a hint where one helps. */
export function positionsWarning(warning: PositionsWarning): Warning {
  const said: Warning = { code: warning.code, message: printable(warning.message) };
  const costColumns = warning.costColumns ?? [];
  const [first] = costColumns;
  if (warning.code === 'ignored_columns' && first !== undefined) {
    const named = costColumns.map((name) => printable(name, { max: 40, quote: true })).join(', ');
    said.hint = `${named} ${costColumns.length === 1 ? 'may be a cost per unit or the lot\'s total' : 'may be costs per unit or the lots\' totals'}, which mkt never guesses: ${columnsFlag('cost', printable(first))} reads it as the cost per unit, ${columnsFlag('cost_total', printable(first))} as the lot's total cost`;
  }
  return said;
}

/** The hint for one problem, in mkt value's flags where one helps. */
function problemHint(problem: PositionsProblem): string | undefined {
  switch (problem.option) {
    case 'decimalComma':
      return '--decimal-comma reads 1.000,50 as 1000.50; --no-decimal-comma reads 1,000.50 as 1000.50';
    case 'encoding':
      return problem.reason === 'encoding' && problem.value !== undefined
        ? 'an export from Excel on Windows is usually cp1252: read it with --encoding cp1252, or --encoding and the encoding it is in (latin1, iso-8859-15, utf-16le...)'
        : '--encoding utf-16le (or utf-16be) reads UTF-16 without a byte-order mark';
    case 'defaultCurrency':
      return 'add a currency column (--columns currency=HEADER maps one), or give --currency CCY for the positions without one (mkt never guesses a currency)';
    case 'columns':
      if (problem.reason === 'value' && problem.value !== undefined && /\p{Sc}/u.test(problem.value)) {
        return `write the number without its sign (the currency comes from the currency column, or --currency); or leave the column out: --columns ${problem.field}=`;
      }
      if (problem.reason === 'value') return 'leave one of them empty, or read one of the two columns only: --columns cost= or --columns cost_total=';
      if (problem.reason === 'header' && problem.line === undefined) {
        return `the header names the symbol (or ticker) and the quantity (or qty, shares, units); ${columnsFlag('symbol', 'Ticker')},quantity=... maps other names, in any case`;
      }
      return `--columns ${problem.field ?? 'FIELD'}=HEADER says which column holds the ${problem.field ?? 'field'}, HEADER as the file's header line writes it, in any case`;
    default:
      return problem.hint;
  }
}

/** The hint of a PositionsError: each problem's, different ones once, three at most. */
export function positionsErrorHint(error: PositionsError): string | undefined {
  const hints = [...new Set(error.problems.map(problemHint).filter((hint) => hint !== undefined))];
  return hints.length === 0 ? undefined : hints.slice(0, 3).join('; ');
}

/** What main writes of a PositionsError's problems: under the error's line, and in its JSON object. */
export interface ProblemsReport {
  /** One line per problem listed, and one for those left out; empty for a single problem, which the error's message names. */
  lines: string[];
  json: Array<{ line: number | null; position: number | null; field: string | null; value: string | null; message: string; hint: string | null }>;
  count: number;
}

export function positionsProblemsOf(error: unknown): ProblemsReport | undefined {
  if (!(error instanceof PositionsError)) return undefined;
  const place = (problem: PositionsProblem) => {
    const where = placeOfProblem(problem);
    return where === undefined ? '' : `${where}: `;
  };
  const more = error.problemCount - error.problems.length;
  const lines = error.problemCount < 2 ? [] : [
    ...error.problems.map((problem) => `  ${place(problem)}${printable(problem.message)}`),
    ...(more > 0 ? [`  and ${more} more problem${more === 1 ? '' : 's'}`] : []),
  ];
  const json = error.problems.map((problem) => ({
    line: problem.line ?? null, position: problem.item ?? null, field: problem.field ?? null, value: problem.value ?? null,
    message: problem.message, hint: problemHint(problem) ?? null,
  }));
  return { lines, json, count: error.problemCount };
}
