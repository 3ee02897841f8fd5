// What `mkt quotes` writes once the quotes are in: the data in the chosen format on stdout, then the
// warnings (missing, stale, quotes that cannot be right) on stderr, or, with --strict, exit 3; then
// the --check verdict, exit 8 when one failed. When --strict and --check both fail, exit 3 wins, with
// the failed checks reported too: the checks were decided on a result that is incomplete or
// doubtful, and exit 8 is kept for prices that are there, fresh, and out of bounds.
import { aheadOfClock, isFutureProblem, unusableBySymbol, type Quote, type QuotesResult, type UnusableQuote } from '../../api/index.js';
import type { CheckSet } from '../../render/checks/compile-checks.js';
import type { QuoteFieldName, QuotesDocument } from '../../render/quote-fields.js';
import { quoteModel } from '../../render/quote-model.js';
import { formatDuration } from '../../shared/duration.js';
import { pairSpellingNote } from '../../shared/pair-spelling.js';
import { CLOCK_SKEW_MS } from '../../shared/limits.js';
import { formatAge, isStale } from '../../shared/time.js';
import type { Warning } from '../../shared/warnings.js';
import { judgeChecks } from '../options/checks.js';
import type { Format } from '../options/format.js';
import { listSome, reportProblems, warnUnasked } from './problems.js';
import type { Terminal } from './terminal.js';
import { writeResource } from './writer.js';

export interface WriteQuotesOptions {
  format: Format;
  /** --fields, checked against the format; undefined: the format's own. */
  fields?: readonly QuoteFieldName[];
  /** The symbols asked for, upper-cased: a --check on one with no quote fails. */
  symbols: readonly string[];
  maxAgeMs: number | undefined;
  /** As typed, for the warning: `older than 30s`. */
  maxAge?: string;
  strict?: boolean;
  /** --check, compiled before the request (options/checks.ts). */
  checks?: CheckSet<Quote, QuotesDocument>;
}

/** Writes the result and returns the exit code (or throws IncompleteError under --strict). */
export async function writeQuotes(terminal: Terminal, result: QuotesResult, options: WriteQuotesOptions): Promise<number> {
  const { maxAgeMs } = options;
  const asked = options.symbols.length;
  const now = terminal.now();
  const stale = maxAgeMs === undefined ? undefined : staleSymbols(result.data, now, maxAgeMs);
  const model = quoteModel({ maxAgeMs });
  const document = { ...result, stale };
  // JSON writes `missing` (and `stale`) after `data`, as quotes' declaration says (quote-model.ts).
  await writeResource(terminal, model, document, { format: options.format, fields: options.fields, now });
  // Ages are counted from the instant the table shows them at.
  const failedChecks = judgeChecks(model, options.checks, document, options.symbols, now, unusableBySymbol(result.unusable));

  const problems: Warning[] = [];
  if (result.missing.length > 0) {
    // EUR/USD asked for, EURUSD meant: the spelling the service uses, said with it.
    const spelling = pairSpellingNote(result.missing);
    problems.push({ code: 'no_quote', message: `no quote for ${result.missing.length} of ${asked} symbol${asked === 1 ? '' : 's'}: ${listSome(result.missing)}${spelling === undefined ? '' : ` (${spelling})`}` });
  }
  if (stale !== undefined && stale.length > 0) {
    problems.push({ code: 'stale_quotes', message: `${stale.length} stale quote${stale.length === 1 ? '' : 's'} (older than ${options.maxAge}): ${listSome(stale)}` });
  }
  // With or without --max-age: a quote stamped ahead of the clock is not a latest quote, however
  // fresh it reads. One Date.parse per quote, so checked on every run.
  const future = futureQuotes(result.data, now);
  if (future.length > 0) {
    problems.push({
      code: 'future_quotes',
      message: `${future.length} quote${future.length === 1 ? '' : 's'} from the future (timestamp more than ${formatDuration(CLOCK_SKEW_MS)} ahead of this machine's clock): ${listSome(future)}`,
    });
  }
  // The library's verdict (getQuotes' `unusable`): named under --strict; the table marks them either way.
  const wrong = options.strict ? wrongQuotes(result.unusable) : [];
  if (wrong.length > 0) problems.push({ code: 'wrong_quotes', message: `${wrong.length} quote${wrong.length === 1 ? '' : 's'} that cannot be right: ${listSome(wrong)}` });
  // The service answers for the symbols requested: what it sent besides is left out (the library's
  // `unasked`), and said, as the watch says it. Not a problem --strict fails on: nothing is missing.
  warnUnasked(terminal, result.unasked);
  return reportProblems(terminal, problems, options.strict, 'the data above is as the service sent it; without --strict, missing and stale quotes are warnings and exit 0', failedChecks);
}

function staleSymbols(data: readonly Quote[], now: number, maxAgeMs: number): string[] {
  const stale: string[] = [];
  for (const quote of data) if (isStale(quote.timestamp, now, maxAgeMs)) stale.push(quote.symbol);
  return stale;
}

/** `EURUSD (23h ahead)` for each quote whose timestamp is further ahead than the clock-skew allowance. */
function futureQuotes(data: readonly Quote[], now: number): string[] {
  const future: string[] = [];
  for (const quote of data) {
    const ahead = aheadOfClock(quote, now);
    if (ahead !== undefined) future.push(`${quote.symbol} (${formatAge(ahead)} ahead)`);
  }
  return future;
}

/** `EURUSD (bid is negative)` for each quote the library found wrong (a timestamp ahead is futureQuotes' to name). */
function wrongQuotes(unusable: readonly UnusableQuote[]): string[] {
  const wrong: string[] = [];
  for (const { symbol, problems } of unusable) {
    const named = problems.filter((problem) => !isFutureProblem(problem));
    if (named.length > 0) wrong.push(`${symbol} (${named.join(', ')})`);
  }
  return wrong;
}
