// Exchange rates from quotes of six-letter pairs: EURUSD is the price of one EUR in USD. A rate
// from A to B is, in this order of preference:
//   direct   AB's mid                      (exact)
//   inverse  1 / BA's mid                  (rounded)
//   cross    through USD: A to USD times USD to B, each leg direct (AUSD, USDB) or inverse (1 / USDA,
//            1 / BUSD); the legs' mids multiplied exactly and divided once (rounded only if a leg is
//            an inverse): 1 / (USDCAD × EURUSD) for CAD to EUR, USDJPY / USDCHF for CHF to JPY.
// Rates are mids: a valuation marks positions to market, and the price rule (bid, ask, side) is the
// instrument's; converting a long at one side of the FX market and a short at the other would value
// the same money two ways. A quotient is rounded once, half-even, to RATE_DIGITS significant digits.
import { OptionsError } from './errors.js';
import { DECIMAL } from './json.js';
import type { Quote } from './types.js';
import { divideRounded, isPositive, multiply } from '../shared/decimal.js';

/**
 * Significant digits of a rate that needs a division: 34, the precision of IEEE 754 decimal128 and
 * of Java's MathContext.DECIMAL128 (also half-even), so a program checking a rate with either gets
 * the same digits. The error is below 5 × 10^-34 of the rate: on a value of 10^15 it is under 10^-18.
 */
export const RATE_DIGITS = 34;

/** The currency crosses go through. */
const CROSS_CURRENCY = 'USD';

/** A rate used to convert, and how it was derived. */
export interface FxRate {
  /** ISO codes: one `from` is worth `rate` of `to`. */
  from: string;
  to: string;
  rate: string;
  method: 'direct' | 'inverse' | 'cross';
  /** The pairs whose mids it came from, e.g. ["USDCAD", "EURUSD"]. */
  pairs: string[];
  /** How, in the pairs' names: "GBPUSD", "1/USDJPY", "1/(USDCAD*EURUSD)", "USDJPY/USDCHF". */
  formula: string;
  /** True when a division was rounded to RATE_DIGITS significant digits. */
  rounded: boolean;
}

/** A currency with no rate to the base among the quotes. */
export interface NoRoute {
  currency: string;
  to: string;
  /** Every pair looked for, in the order of preference. */
  tried: string[];
  /** Those of `tried` with no quote, or a mid that is not above zero. */
  missing: string[];
}

/** The quote of a symbol (upper-case), or undefined. */
export type QuoteLookup = (symbol: string) => Quote | undefined;

/** Quotes by symbol (the key in any case), or a list of them, as getQuotes' `data`. */
export type QuotesBySymbol = ReadonlyMap<string, Quote> | readonly Quote[];

/** A lookup by upper-case symbol; of two quotes for one symbol, the first. */
export function createQuoteLookup(quotes: QuotesBySymbol): QuoteLookup {
  const bySymbol = new Map<string, Quote>();
  const add = (symbol: unknown, quote: Quote) => {
    if (typeof symbol !== 'string' || quote === null || typeof quote !== 'object') {
      throw new OptionsError('INVALID_OPTIONS', 'quotes must be a Map of symbol to Quote, or an array of Quotes (getQuotes\' data)', { option: 'quotes', operation: 'valuePositions' });
    }
    const key = symbol.toUpperCase();
    if (!bySymbol.has(key)) bySymbol.set(key, quote);
  };
  if (quotes instanceof Map) for (const [symbol, quote] of quotes) add(symbol, quote);
  else if (Array.isArray(quotes)) for (const quote of quotes as readonly Quote[]) add(quote?.symbol, quote);
  else throw new OptionsError('INVALID_OPTIONS', 'quotes must be a Map of symbol to Quote, or an array of Quotes (getQuotes\' data)', { option: 'quotes', operation: 'valuePositions' });
  return (symbol) => bySymbol.get(symbol);
}

/** The mid of `pair` when it is quoted with a mid above zero: a rate must be one. */
function usableMid(lookup: QuoteLookup, pair: string): string | undefined {
  const mid = lookup(pair)?.mid;
  return typeof mid === 'string' && DECIMAL.test(mid) && isPositive(mid) ? mid : undefined;
}

/** The pairs a rate from `from` to `to` may come from, in the order they are preferred. */
export function pairsFor(from: string, to: string): { direct: string[]; cross: string[] } {
  const direct = [from + to, to + from];
  if (from === CROSS_CURRENCY || to === CROSS_CURRENCY) return { direct, cross: [] };
  return { direct, cross: [from + CROSS_CURRENCY, CROSS_CURRENCY + from, to + CROSS_CURRENCY, CROSS_CURRENCY + to] };
}

/** The rate from ISO currency `from` to `to` (different), or what was tried when there is none. */
export function findRate(from: string, to: string, lookup: QuoteLookup, digits = RATE_DIGITS): FxRate | NoRoute {
  const { direct, cross } = pairsFor(from, to);
  const [ab, ba] = direct as [string, string];
  const abMid = usableMid(lookup, ab);
  if (abMid !== undefined) return { from, to, rate: abMid, method: 'direct', pairs: [ab], formula: ab, rounded: false };
  const baMid = usableMid(lookup, ba);
  if (baMid !== undefined) return ratio(from, to, 'inverse', [], [[ba, baMid]], digits);
  if (cross.length > 0) {
    const [aUsd, usdA, bUsd, usdB] = cross as [string, string, string, string];
    const first = leg(lookup, aUsd, usdA);
    const second = leg(lookup, usdB, bUsd);
    if (first !== undefined && second !== undefined) {
      const legs = [first, second];
      const over = legs.filter((l) => !l.inverse).map((l) => [l.pair, l.mid] as const);
      const under = legs.filter((l) => l.inverse).map((l) => [l.pair, l.mid] as const);
      return ratio(from, to, 'cross', over, under, digits);
    }
  }
  const tried = [...direct, ...cross];
  return { currency: from, to, tried, missing: tried.filter((pair) => usableMid(lookup, pair) === undefined) };
}

interface Leg {
  pair: string;
  mid: string;
  inverse: boolean;
}

/** One leg of a cross: `straight`'s mid, or else the inverse of `inverted`'s. */
function leg(lookup: QuoteLookup, straight: string, inverted: string): Leg | undefined {
  const mid = usableMid(lookup, straight);
  if (mid !== undefined) return { pair: straight, mid, inverse: false };
  const other = usableMid(lookup, inverted);
  return other === undefined ? undefined : { pair: inverted, mid: other, inverse: true };
}

type Term = readonly [pair: string, mid: string];

/** The product of `over`'s mids divided by the product of `under`'s: exact products, one rounding. */
function ratio(from: string, to: string, method: FxRate['method'], over: readonly Term[], under: readonly Term[], digits: number): FxRate {
  const product = (terms: readonly Term[]) => terms.reduce((acc, [, mid]) => multiply(acc, mid), '1');
  const top = product(over);
  const names = (terms: readonly Term[]) => terms.map(([pair]) => pair).join('*');
  if (under.length === 0) {
    return { from, to, rate: top, method, pairs: over.map(([pair]) => pair), formula: names(over), rounded: false };
  }
  const bottom = product(under);
  // Both products are above zero (usableMid), so there is a quotient.
  const { value, rounded } = divideRounded(top, bottom, digits)!;
  const denominator = under.length > 1 ? `(${names(under)})` : names(under);
  return {
    from, to, rate: value, method,
    pairs: [...over, ...under].map(([pair]) => pair),
    formula: `${over.length === 0 ? '1' : names(over)}/${denominator}`,
    rounded,
  };
}
