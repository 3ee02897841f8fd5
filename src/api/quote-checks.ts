// Quotes that parse but cannot be right: a price out of any market's range, a negative price, a mid
// outside bid..ask, a timestamp that names no real instant, a symbol no market has. parseQuotes refuses what is not a quote
// at all; these are kept (every digit), marked in the table, and fail `mkt quotes --strict`.
import Big from 'big.js';
import { FORMULA_START } from '../shared/patterns.js';
import { formatAge, isFuture } from '../shared/time.js';
import type { Quote } from './types.js';

/** A price's magnitude must lie within 10^-12 ... 10^15 (or be 0): beyond is no market's price. */
const MIN_EXPONENT = -12;
const MAX_EXPONENT = 15;

/** RFC 3339: date, time, at most nine fraction digits (nanoseconds), Z or an offset up to 23:59. */
const RFC_3339 = /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d)(?:\.\d{1,9})?)?(?:Z|[+-](?:[01]\d|2[0-3]):?[0-5]\d)$/i;

/**
 * What is wrong with the quote, in words (`bid is negative`); empty when nothing is. Given `now`
 * (milliseconds since the epoch), also a timestamp more than the clock-skew allowance (10 s) ahead
 * of it (`timestamp is 23h in the future`). Public: `mkt quotes` marks these quotes in its table and
 * fails on them with --strict; a program can hold its quotes to the same test.
 */
export function quoteProblems(quote: Quote, now?: number): string[] {
  const problems: string[] = [];
  const prices: Array<[string, Big | undefined]> = [['bid', toBig(quote.bid)], ['ask', toBig(quote.ask)], ['mid', toBig(quote.mid)]];
  for (const [name, value] of prices) {
    if (value === undefined) problems.push(`${name} is not a number`);
    else if (value.s < 0 && !value.eq(0)) problems.push(`${name} is negative`);
    else if (!value.eq(0) && (value.e < MIN_EXPONENT || value.e > MAX_EXPONENT)) problems.push(`${name} is out of range`);
  }
  const [bid, ask, mid] = prices.map(([, value]) => value);
  if (bid !== undefined && ask !== undefined && mid !== undefined) {
    const low = bid.lt(ask) ? bid : ask;
    const high = bid.lt(ask) ? ask : bid;
    if (mid.lt(low) || mid.gt(high)) problems.push('mid is outside bid..ask');
  }
  const timestamp = timestampProblem(quote.timestamp, now);
  if (timestamp !== undefined) problems.push(timestamp);
  // No market's symbol starts as a spreadsheet formula does (shared/patterns.ts).
  if (FORMULA_START.test(quote.symbol)) problems.push(`symbol starts with ${quote.symbol[0]}`);
  return problems;
}

function toBig(text: string): Big | undefined {
  try {
    return new Big(text);
  } catch {
    return undefined;
  }
}

function timestampProblem(text: string, now: number | undefined): string | undefined {
  const problem = instantProblem(text);
  if (problem !== undefined) return problem;
  if (now !== undefined && isFuture(text, now)) return `timestamp is ${formatAge(Date.parse(text) - now)} in the future`;
  return undefined;
}

/** Why the text names no real instant, or undefined when it does. */
function instantProblem(text: string): string | undefined {
  const match = RFC_3339.exec(text);
  if (match === null) return 'timestamp is not an RFC 3339 date-time';
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  // Date.parse rolls 2026-02-30 over to 2 March; a day that does not exist is not a timestamp.
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    return 'timestamp names a day that does not exist';
  }
  return undefined;
}

/**
 * How far ahead of `now` the quote's timestamp is, in milliseconds, when that is more than the
 * clock-skew allowance (10 s); undefined otherwise, and for a timestamp that names no real instant
 * (that is quoteProblems' to say). A regular expression and a Date.parse: cheap enough for every run.
 */
export function aheadOfClock(quote: Quote, now: number): number | undefined {
  if (!isFuture(quote.timestamp, now) || instantProblem(quote.timestamp) !== undefined) return undefined;
  return Date.parse(quote.timestamp) - now;
}
