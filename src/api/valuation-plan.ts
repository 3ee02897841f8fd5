// What a valuation needs fetched, in at most two rounds:
//   1. every instrument's symbol (cash needs none), and for each currency other than the base both
//      direct pairs, EURUSD and USDEUR for EUR into USD;
//   2. only for currencies that round 1's quotes leave with no rate (neither direct pair quoted):
//      the USD legs of a cross, CADUSD, USDCAD, EURUSD, USDEUR for CAD into EUR, less what round 1
//      already asked for. Usually nothing: a service quotes most currencies against USD.
// Symbols are upper-case, each once, in the order first needed.
import { currencyUnit } from './currencies.js';
import { createQuoteBook, findRate, pairsFor, type QuoteBook, type QuotesBySymbol } from './fx.js';
import { checkPositions, type Position } from './positions.js';
import { checkValuationOptions } from './valuation.js';

/** The two rounds of a valuation of checked positions in `baseMajor`: one pass over the positions. */
export interface ValuationPlan {
  /** Round 1: the instruments' symbols, then both direct pairs of each foreign currency. */
  first: string[];
  /** Round 1's pairs (first less the instruments). */
  pairs: string[];
  /** Every pair a rate of the foreign currencies may be read from, direct or a cross's leg. */
  ratePairs(): Set<string>;
  /** Round 2, given a book of round 1's quotes: the cross legs still needed, less round 1's symbols. */
  cross(book: QuoteBook): string[];
}

/** The plan of positions already checked (checkPositions), in an ISO base currency. */
export function planValuation(positions: readonly Position[], baseMajor: string): ValuationPlan {
  const symbols = new Set<string>();
  const foreign = new Set<string>();
  for (const { symbol, currency } of positions) {
    const key = symbol.toUpperCase();
    if (symbol !== currency && key !== currency) symbols.add(key);
    const major = currencyUnit(currency)!.major;
    if (major !== baseMajor) foreign.add(major);
  }
  const instruments = symbols.size;
  for (const major of foreign) for (const pair of pairsFor(major, baseMajor).direct) symbols.add(pair);
  const first = [...symbols];
  return {
    first,
    pairs: first.slice(instruments),
    ratePairs: () => new Set([...foreign].flatMap((major) => {
      const { direct, cross } = pairsFor(major, baseMajor);
      return [...direct, ...cross];
    })),
    cross(book) {
      // A currency needs a cross only when neither direct pair is quoted (a quote that cannot be
      // right is a rate that cannot be used, not a reason to look elsewhere).
      const legs = new Set<string>();
      for (const major of foreign) {
        if (!('tried' in findRate(major, baseMajor, book))) continue;
        for (const pair of pairsFor(major, baseMajor).cross) legs.add(pair);
      }
      // Round 1's symbols looked up only when a cross is needed (rarely): the plan holds no set of
      // 10,000 instruments while their quotes are on the way.
      if (legs.size === 0) return [];
      const asked = new Set(first);
      return [...legs].filter((pair) => !asked.has(pair));
    },
  };
}

function checkedPlan(positions: readonly Position[], base: string, operation: string): ValuationPlan {
  checkPositions(positions);
  return planValuation(positions, checkValuationOptions({ base }, operation).major);
}

/** Round 1: the instruments' symbols, then both direct pairs of each foreign currency. */
export function valuationSymbols(positions: readonly Position[], base: string): string[] {
  return checkedPlan(positions, base, 'valuationSymbols').first;
}

/**
 * Round 2: the cross legs through USD for currencies with no rate among `quotes` (round 1's
 * answer), less the symbols round 1 asked for; empty when every currency has a rate.
 */
export function crossSymbols(positions: readonly Position[], base: string, quotes: QuotesBySymbol): string[] {
  const plan = checkedPlan(positions, base, 'crossSymbols');
  // The rates read only the pairs: the book holds those, not every instrument's quote.
  return plan.cross(createQuoteBook(quotes, [], undefined, plan.ratePairs()));
}
