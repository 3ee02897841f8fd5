// Exchange rates from quotes of six-letter pairs: EURUSD is the price of one EUR in USD. A rate
// from A to B is, in this order of preference:
//   direct   AB's mid
//   inverse  1 / BA's mid
//   cross    through USD: A to USD times USD to B, each leg direct (AUSD, USDB) or inverse (1 / USDA,
//            1 / BUSD): 1 / (USDCAD × EURUSD) for CAD to EUR, USDJPY / USDCHF for CHF to JPY.
// Every rate is exact: the mids multiplied and divided as rationals, never rounded here (a value is
// rounded once, where it is written: figure.ts). Rates are mids: a valuation marks positions to
// market, and the price rule (bid, ask, side) is the instrument's; converting a long at one side of
// the FX market and a short at the other would value the same money two ways.
//
// A pair is taken in that order as it is quoted: a quote that cannot be right (the library's one
// verdict, quote-checks.ts) is not passed over for the next route, which would value with a rate
// the service did not mean; the currency's positions are then `unusable`, naming the pair.
import { OptionsError } from './errors.js';
import { symbolProblems } from './quote-checks.js';
import type { QuoteIndex } from './merge-quotes.js';
import type { Quote, UnusableQuote } from './types.js';
import { figureOf, ONE, over as quotient, times, type Figure } from '../shared/figure.js';

/** The currency crosses go through. */
const CROSS_CURRENCY = 'USD';

/** A rate used to convert, exactly, and how it was derived. */
export interface ExactFxRate {
  /** ISO codes: one `from` is worth `rate` of `to`. */
  from: string;
  to: string;
  rate: Figure;
  method: 'direct' | 'inverse' | 'cross';
  /** The pairs whose mids it came from, e.g. ["USDCAD", "EURUSD"]. */
  pairs: string[];
  /** Each pair's quote's timestamp, as the service wrote it, in the order of `pairs`. */
  timestamps: string[];
  /** How, in the pairs' names: "GBPUSD", "1/USDJPY", "1/(USDCAD*EURUSD)", "USDJPY/USDCHF". */
  formula: string;
}

/** A currency with no rate to the base among the quotes. */
export interface NoRoute {
  currency: string;
  to: string;
  /** Every pair looked for, in the order of preference. */
  tried: string[];
  /** Those of `tried` with no quote. */
  missing: string[];
}

/** A currency whose rate would come from a quote that cannot be right. */
export interface UnusableRoute {
  currency: string;
  to: string;
  /** The pair, and what is wrong with its quote. */
  unusable: UnusableQuote;
}

/** The quotes a valuation reads, by upper-case symbol: the first of each, and the verdict on it. */
export interface QuoteBook {
  quote(symbol: string): Quote | undefined;
  /** What is wrong with the symbol's quote (quoteProblems, or two quotes at different prices); undefined when nothing is. */
  problems(symbol: string): string[] | undefined;
  /** The exact figure of a price of the symbol's quote (decimal text: a usable quote's), read once however many lots it prices. */
  price(symbol: string, field: PriceField): Figure;
}

export type PriceField = 'bid' | 'ask' | 'mid';

/** A symbol's quote, and its prices as figures once read. */
interface BookEntry {
  quote: Quote;
  bid: Figure | undefined;
  ask: Figure | undefined;
  mid: Figure | undefined;
}

/** Quotes by symbol (the key in any case), or a list of them, as getQuotes' `data`. */
export type QuotesBySymbol = ReadonlyMap<string, Quote> | readonly Quote[];

function notQuotes(): OptionsError {
  return new OptionsError('INVALID_OPTIONS', 'quotes must be a Map of symbol to Quote, or an array of Quotes (getQuotes\' data)', { option: 'quotes', operation: 'valuePositions' });
}

/**
 * The book of `quotes`. With `verdict` (getQuotes' `unusable`: the quotes were judged as they
 * came), that verdict; without it, each symbol is judged when first looked up, at `now`, as
 * getQuotes judges an answer (merge-quotes.ts): its first quote, a second at other prices, and
 * what is wrong with any later one. With `only` (upper-case symbols), the others are checked and
 * left out.
 */
export function createQuoteBook(quotes: QuotesBySymbol, verdict?: readonly UnusableQuote[], now?: number, only?: ReadonlySet<string>): QuoteBook {
  const bySymbol = new Map<string, BookEntry>();
  // Each symbol's later quotes, judged with its first.
  const later = new Map<string, Quote[]>();
  const add = (symbol: unknown, quote: Quote) => {
    // A quote names its symbol: what is wrong with it is said by that name.
    if (typeof symbol !== 'string' || quote === null || typeof quote !== 'object' || typeof quote.symbol !== 'string') throw notQuotes();
    const key = symbol.toUpperCase();
    if (only !== undefined && !only.has(key)) return;
    const first = bySymbol.get(key);
    if (first === undefined) bySymbol.set(key, { quote, bid: undefined, ask: undefined, mid: undefined });
    else if (verdict === undefined) {
      const others = later.get(key);
      if (others === undefined) later.set(key, [quote]);
      else others.push(quote);
    }
  };
  if (quotes instanceof Map) for (const [symbol, quote] of quotes) add(symbol, quote);
  else if (Array.isArray(quotes)) for (const quote of quotes as readonly Quote[]) add(quote?.symbol, quote);
  else throw notQuotes();

  const judged = verdictBySymbol(verdict ?? []);
  return {
    quote: (symbol) => bySymbol.get(symbol)?.quote,
    price(symbol, field) {
      const entry = bySymbol.get(symbol)!;
      return (entry[field] ??= figureOf(entry.quote[field]));
    },
    problems(symbol) {
      if (verdict !== undefined || judged.has(symbol)) return judged.get(symbol);
      const quote = bySymbol.get(symbol)?.quote;
      let problems: string[] | undefined;
      if (quote !== undefined) {
        const found = symbolProblems(quote, later.get(symbol) ?? [], now);
        problems = found.length === 0 ? undefined : found;
      }
      judged.set(symbol, problems);
      return problems;
    },
  };
}

/**
 * The book of one getQuotes call's quotes and its verdict, read from the index the merge put them in
 * order by (merge-quotes.ts): the same book as createQuoteBook(data, unusable), without a second
 * map of every quote (4 ms of `mkt value`'s 10,000 positions; docs/benchmarks.md, target 7).
 */
export function indexedQuoteBook(index: QuoteIndex, verdict: readonly UnusableQuote[]): QuoteBook {
  const { place, first } = index;
  const judged = verdictBySymbol(verdict);
  // Each price field's figures by place, made when first read.
  const figures: Partial<Record<PriceField, (Figure | undefined)[]>> = {};
  return {
    quote(symbol) {
      const at = place.get(symbol);
      return at === undefined ? undefined : first[at];
    },
    price(symbol, field) {
      const at = place.get(symbol)!;
      const read = (figures[field] ??= new Array<Figure | undefined>(first.length).fill(undefined));
      return (read[at] ??= figureOf(first[at]![field]));
    },
    problems: (symbol) => judged.get(symbol),
  };
}

/** A verdict (getQuotes' unusable) by upper-case symbol. */
function verdictBySymbol(verdict: readonly UnusableQuote[]): Map<string, string[] | undefined> {
  return new Map(verdict.map(({ symbol, problems }) => [symbol.toUpperCase(), problems]));
}

/** The pairs a rate from `from` to `to` may come from, in the order they are preferred. */
export function pairsFor(from: string, to: string): { direct: string[]; cross: string[] } {
  const direct = [from + to, to + from];
  if (from === CROSS_CURRENCY || to === CROSS_CURRENCY) return { direct, cross: [] };
  return { direct, cross: [from + CROSS_CURRENCY, CROSS_CURRENCY + from, to + CROSS_CURRENCY, CROSS_CURRENCY + to] };
}

interface Leg {
  pair: string;
  quote: Quote;
  inverse: boolean;
}

/** The rate from ISO currency `from` to `to` (different); what was tried when there is none; or the pair that cannot be used. */
export function findRate(from: string, to: string, book: QuoteBook): ExactFxRate | NoRoute | UnusableRoute {
  const { direct, cross } = pairsFor(from, to);
  const [ab, ba] = direct as [string, string];
  const unusable = (pair: string): UnusableRoute | undefined => {
    const problems = book.problems(pair);
    return problems === undefined ? undefined : { currency: from, to, unusable: { symbol: book.quote(pair)!.symbol, problems } };
  };
  const abQuote = book.quote(ab);
  if (abQuote !== undefined) return unusable(ab) ?? ratio(from, to, 'direct', [{ pair: ab, quote: abQuote, inverse: false }]);
  const baQuote = book.quote(ba);
  if (baQuote !== undefined) return unusable(ba) ?? ratio(from, to, 'inverse', [{ pair: ba, quote: baQuote, inverse: true }]);
  if (cross.length > 0) {
    const [aUsd, usdA, bUsd, usdB] = cross as [string, string, string, string];
    const legs = [leg(book, aUsd, usdA), leg(book, usdB, bUsd)];
    if (legs[0] !== undefined && legs[1] !== undefined) {
      for (const { pair } of legs as Leg[]) {
        const bad = unusable(pair);
        if (bad !== undefined) return bad;
      }
      return ratio(from, to, 'cross', legs as Leg[]);
    }
  }
  const tried = [...direct, ...cross];
  return { currency: from, to, tried, missing: tried.filter((pair) => book.quote(pair) === undefined) };
}

/** One leg of a cross: `straight`'s quote, or else the inverse of `inverted`'s. */
function leg(book: QuoteBook, straight: string, inverted: string): Leg | undefined {
  const quote = book.quote(straight);
  if (quote !== undefined) return { pair: straight, quote, inverse: false };
  const other = book.quote(inverted);
  return other === undefined ? undefined : { pair: inverted, quote: other, inverse: true };
}

/**
 * The product of the straight legs' mids over the product of the inverted legs', exactly. A rate
 * that is one mid keeps the places it was sent with (1.08415 stays 1.08415 at `full`); a product
 * or a quotient has none of its own: `full` writes its exact digits, or 34 significant ones.
 */
function ratio(from: string, to: string, method: ExactFxRate['method'], legs: readonly Leg[]): ExactFxRate {
  const over = legs.filter((l) => !l.inverse);
  const under = legs.filter((l) => l.inverse);
  const product = (terms: readonly Leg[]) => terms.reduce((acc, l) => times(acc, figureOf(l.quote.mid)), ONE);
  const names = (terms: readonly Leg[]) => terms.map((l) => l.pair).join('*');
  const rate: Figure = legs.length === 1 && under.length === 0 ? figureOf(over[0]!.quote.mid) : quotient(product(over), product(under));
  const ordered = [...over, ...under];
  const denominator = under.length > 1 ? `(${names(under)})` : names(under);
  return {
    from, to, rate, method,
    pairs: ordered.map((l) => l.pair),
    timestamps: ordered.map((l) => l.quote.timestamp),
    formula: under.length === 0 ? names(over) : `${over.length === 0 ? '1' : names(over)}/${denominator}`,
  };
}
