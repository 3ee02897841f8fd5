// What a valuation needs fetched, in at most two rounds:
//   1. every instrument's symbol (cash needs none), and for each currency other than the base both
//      direct pairs, EURUSD and USDEUR for EUR into USD;
//   2. only for currencies that round 1's quotes leave with no rate (neither direct pair quoted):
//      the USD legs of a cross, CADUSD, USDCAD, EURUSD, USDEUR for CAD into EUR, less what round 1
//      already asked for. Usually nothing: a service quotes most currencies against USD.
// Symbols are upper-case, each once, in the order first needed.
import { currencyUnit } from './currencies.js';
import { createQuoteLookup, findRate, pairsFor, type QuotesBySymbol } from './fx.js';
import { checkPositions, type Position } from './positions.js';
import { checkValuationOptions } from './valuation.js';

/** The ISO currencies of `positions` other than the base's, in first-seen order. */
function foreignCurrencies(positions: readonly Position[], base: string): string[] {
  checkPositions(positions);
  const baseMajor = checkValuationOptions({ base }, 'valuationSymbols').major;
  const seen = new Set<string>();
  for (const { currency } of positions) {
    const major = currencyUnit(currency)!.major;
    if (major !== baseMajor) seen.add(major);
  }
  return [...seen];
}

/** Round 1: the instruments' symbols, then both direct pairs of each foreign currency. */
export function valuationSymbols(positions: readonly Position[], base: string): string[] {
  const foreign = foreignCurrencies(positions, base);
  const symbols = new Set<string>();
  for (const { symbol, currency } of positions) {
    const key = symbol.toUpperCase();
    if (symbol !== currency && key !== currency) symbols.add(key);
  }
  const baseMajor = currencyUnit(base)?.major ?? '';
  for (const major of foreign) for (const pair of pairsFor(major, baseMajor).direct) symbols.add(pair);
  return [...symbols];
}

/**
 * Round 2: the cross legs through USD for currencies with no rate among `quotes` (round 1's
 * answer), less the symbols round 1 asked for; empty when every currency has a rate.
 */
export function crossSymbols(positions: readonly Position[], base: string, quotes: QuotesBySymbol): string[] {
  const asked = new Set(valuationSymbols(positions, base));
  const lookup = createQuoteLookup(quotes);
  const baseMajor = currencyUnit(base)!.major;
  const symbols = new Set<string>();
  for (const major of foreignCurrencies(positions, base)) {
    if ('rate' in findRate(major, baseMajor, lookup)) continue;
    for (const pair of pairsFor(major, baseMajor).cross) if (!asked.has(pair)) symbols.add(pair);
  }
  return [...symbols];
}
