// Quotes that parse but cannot be right: a price that is not above zero or is out of any market's
// range, one with more digits than mkt reads, a mid outside bid..ask, a timestamp that names no real
// instant or lies ahead of the clock, a symbol no market has. parseQuotes refuses what is not a quote
// at all; these are kept (every digit), and judged here once, for every consumer: getQuotes lists
// them in `unusable`, `mkt quotes` marks them and fails on them with --strict, a valuation does not
// value a position priced or converted by one, and a check on one fails.
import { decimalBoundsProblem, leadingExponent } from '../shared/decimal-bounds.js';
import { compareFigures, figureOf } from '../shared/figure.js';
import { FORMULA_START } from '../shared/patterns.js';
import { formatAge, isFuture } from '../shared/time.js';
import type { Quote, UnusableQuote } from './types.js';

/** A price's magnitude must lie within 10^-12 ... 10^15: beyond is no market's price. */
const MIN_EXPONENT = -12;
const MAX_EXPONENT = 15;

/** RFC 3339: date, time, at most nine fraction digits (nanoseconds), Z or an offset up to 23:59. */
const RFC_3339 = /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d)(?:\.\d{1,9})?)?(?:Z|[+-](?:[01]\d|2[0-3]):?[0-5]\d)$/i;
/** JSON's number grammar, as parseQuotes has already checked each price. */
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const ZERO = /^-?0(?:\.0+)?(?:[eE][+-]?\d+)?$/;

/**
 * What is wrong with the quote, in words (`bid is negative`); empty when nothing is. Given `now`
 * (milliseconds since the epoch), also a timestamp more than the clock-skew allowance (10 s) ahead
 * of it (`timestamp is 23h in the future`). Text and integers only, no decimal object per price:
 * getQuotes judges every quote it returns.
 */
export function quoteProblems(quote: Quote, now?: number): string[] {
  const problems: string[] = [];
  // Each price by name, no array per quote: getQuotes judges every quote it returns.
  const comparable = pricePasses('bid', quote.bid, problems) & pricePasses('ask', quote.ask, problems) & pricePasses('mid', quote.mid, problems);
  if (comparable === 1 && outside(quote.mid, quote.bid, quote.ask)) problems.push('mid is outside bid..ask');
  const timestamp = timestampProblem(quote.timestamp, now);
  if (timestamp !== undefined) problems.push(timestamp);
  // No market's symbol starts as a spreadsheet formula does (shared/patterns.ts).
  if (FORMULA_START.test(quote.symbol)) problems.push(`symbol starts with ${quote.symbol[0]}`);
  return problems;
}

/** 1 when the price can be compared with the others (a number within the bounds), else 0; its problem, if any, added to `problems`. */
function pricePasses(name: string, text: unknown, problems: string[]): number {
  const problem = priceProblem(text);
  if (problem === undefined) return 1;
  problems.push(`${name} ${problem}`);
  return problem === 'is not a number' || problem.startsWith('has') ? 0 : 1;
}

function priceProblem(text: unknown): string | undefined {
  if (typeof text !== 'string' || !NUMBER.test(text)) return 'is not a number';
  // Only a text whose first digit is 0 can be zero.
  if (text.charCodeAt(text.charCodeAt(0) === 45 ? 1 : 0) === 48 && ZERO.test(text)) return 'is zero';
  if (text.startsWith('-')) return 'is negative';
  const lead = leadingExponent(text);
  if (lead < MIN_EXPONENT || lead > MAX_EXPONENT) return 'is out of range';
  // In range, a price of up to 80 characters has fewer digits than any bound: most are, and skip the count.
  return text.length <= 80 ? undefined : decimalBoundsProblem(text)?.message;
}

/** Whether mid lies outside bid..ask (either way round). Doubles decide unless they tie: rounding to a double never reverses an order. */
function outside(mid: string, bid: string, ask: string): boolean {
  // A mid strictly between the two as doubles is strictly between them exactly: most quotes end here.
  const m = Number(mid);
  const b = Number(bid);
  const a = Number(ask);
  if (b < a ? b < m && m < a : a < m && m < b) return false;
  const ordered = compare(bid, ask) <= 0;
  return compare(mid, ordered ? bid : ask) < 0 || compare(mid, ordered ? ask : bid) > 0;
}

function compare(a: string, b: string): number {
  if (a === b) return 0;
  const x = Number(a);
  const y = Number(b);
  if (x !== y) return x < y ? -1 : 1;
  return compareFigures(figureOf(a), figureOf(b));
}

/**
 * The timestamps judged at one instant, and what was found: the quotes of an answer share a few
 * (10,000 synthetic quotes, about 1,500), and each is judged once. A new instant starts anew, so
 * the map holds one answer's timestamps at most (MAX_JUDGED).
 */
let judgedAt: number | undefined;
const judged = new Map<string, string | undefined>();
const MAX_JUDGED = 10_000;

function timestampProblem(text: string, now: number | undefined): string | undefined {
  if (judgedAt !== now || judged.size >= MAX_JUDGED) {
    judged.clear();
    judgedAt = now;
  }
  if (judged.has(text)) return judged.get(text);
  let problem = instantProblem(text);
  if (problem === undefined && now !== undefined && isFuture(text, now)) problem = `timestamp is ${formatAge(Date.parse(text) - now)} in the future`;
  judged.set(text, problem);
  return problem;
}

/** Why the text names no real instant, or undefined when it does. */
function instantProblem(text: string): string | undefined {
  const match = typeof text === 'string' ? RFC_3339.exec(text) : null;
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

/** Whether a problem quoteProblems names is a timestamp ahead of the clock: `mkt quotes` says those apart, as quotes from the future. */
export function isFutureProblem(problem: string): boolean {
  return problem.startsWith('timestamp is ') && problem.endsWith(' in the future');
}

/** The library's verdict as a look-up: each unusable symbol, upper-cased, and what is wrong with it in words. */
export function unusableBySymbol(unusable: readonly UnusableQuote[]): Map<string, string> {
  return new Map(unusable.map(({ symbol, problems }) => [symbol.toUpperCase(), problems.join(', ')]));
}

/**
 * What is wrong with a symbol's quotes, as one verdict: the first quote's problems, then why a later
 * one at other prices makes the symbol unusable (twiceProblem, the first such), then each later
 * quote's own problems not said already. Empty when nothing is. getQuotes judges an answer so, and a
 * quote book judges quotes a program hands it the same way.
 */
export function symbolProblems(first: Quote, later: readonly Quote[], now?: number): string[] {
  const problems = quoteProblems(first, now);
  const twice = later.map((other) => twiceProblem(first, other)).find((problem) => problem !== undefined);
  if (twice !== undefined) problems.push(twice);
  for (const other of later) for (const problem of quoteProblems(other, now)) if (!problems.includes(problem)) problems.push(problem);
  return problems;
}

/**
 * Why two quotes for one symbol are not one quote: the first price that differs, mid then bid then
 * ask (`sent twice at different prices (bid 1.1 and 1.11)`); undefined when they say the same, each
 * price numerically equal (227.10 and 227.1).
 */
function twiceProblem(a: Quote, b: Quote): string | undefined {
  for (const field of ['mid', 'bid', 'ask'] as const) {
    if (!samePrice(a[field], b[field])) return `sent twice at different prices (${field} ${shownPrice(a[field])} and ${shownPrice(b[field])})`;
  }
  return undefined;
}

/**
 * Two prices numerically equal; compared as written where either is not a number mkt reads (each
 * such quote is unusable anyway, and 1e-1000000 read as a figure would cost without bound).
 */
function samePrice(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (!readable(a) || !readable(b)) return false;
  return compare(a, b) === 0;
}

/** A price as the service sent it: text as it is (an empty one as ""), null as null, anything else with its type (12 (number)). */
function shownPrice(price: unknown): string {
  if (typeof price === 'string') return price === '' ? '""' : price;
  return price === null ? 'null' : `${JSON.stringify(price) ?? String(price)} (${typeof price})`;
}

function readable(text: unknown): text is string {
  return typeof text === 'string' && NUMBER.test(text) && decimalBoundsProblem(text) === undefined;
}
