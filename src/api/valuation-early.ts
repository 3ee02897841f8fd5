// Positions valued while the quotes are still coming: valuePortfolio hands each batch's quotes here
// as it is answered, and a position is valued as soon as its quote and its currency's rate are in,
// so that the arithmetic runs while the client waits for the other batches rather than after the
// last. What is valued early is a guess checked later: valueCheckedPositions keeps a position's early
// value only where its quote and its currency's rate are those of all the quotes together, and
// values it again otherwise, so the result is always valuePositions' on the same quotes.
import { currencyUnit, type CurrencyUnit } from './currencies.js';
import type { QuoteLookup } from './fx.js';
import type { Position } from './positions.js';
import type { Quote } from './types.js';
import { conversionFound, priceOf, valueOne, type Conversion, type EarlyValue, type PriceRule } from './valuation.js';
import { exact, type Exact } from '../shared/decimal.js';

export interface EarlyValuation {
  /** A batch's quotes, as answered: the positions they complete are valued now. */
  add(quotes: readonly Quote[]): void;
  /** What was valued, by position; undefined where a quote or a rate was not in yet. */
  readonly values: ReadonlyArray<EarlyValue | undefined>;
}

/** For positions, a base and a rule already checked (valuePortfolio's). */
export function createEarlyValuation(positions: readonly Position[], base: CurrencyUnit, rule: PriceRule): EarlyValuation {
  const values: Array<EarlyValue | undefined> = new Array(positions.length);
  /** The positions of each instrument, by upper-case symbol (cash has none: it is valued at the end). */
  const bySymbol = new Map<string, number[]>();
  positions.forEach(({ symbol, currency }, index) => {
    const key = symbol.toUpperCase();
    if (symbol === currency || key === currency) return;
    const list = bySymbol.get(key);
    if (list === undefined) bySymbol.set(key, [index]);
    else list.push(index);
  });
  const seen = new Map<string, Quote>();
  const lookup: QuoteLookup = (symbol) => seen.get(symbol);
  const conversions = new Map<string, Conversion>();
  /** Positions whose quote is in, waiting for their currency's rate, by currency. */
  const blocked = new Map<string, number[]>();
  const prices = new Map<string, Exact>();

  const value = (index: number, conversion: Conversion) => {
    const position = positions[index]!;
    const quote = seen.get(position.symbol.toUpperCase())!;
    try {
      const price = priceOf(quote, rule, position.quantity);
      let unit = prices.get(price);
      if (unit === undefined) prices.set(price, (unit = exact(price)));
      values[index] = { quote, rate: conversion.rate, result: valueOne(position, price, unit, conversion) };
    } catch {
      // A quote it cannot use: valuePositions says so, with all the quotes, at the end.
    }
  };
  const convert = (code: string): Conversion | undefined => {
    let conversion = conversions.get(code);
    if (conversion === undefined) {
      conversion = conversionFound(currencyUnit(code)!, base, lookup);
      if (conversion !== undefined) conversions.set(code, conversion);
    }
    return conversion;
  };

  return {
    values,
    add(quotes) {
      const arrived: string[] = [];
      for (const quote of quotes) {
        const key = typeof quote?.symbol === 'string' ? quote.symbol.toUpperCase() : undefined;
        if (key === undefined || seen.has(key)) continue;
        seen.set(key, quote);
        arrived.push(key);
      }
      // Currencies that had no rate may have one now (a pair came): value what waited for it.
      for (const [code, waiting] of blocked) {
        const conversion = convert(code);
        if (conversion === undefined) continue;
        blocked.delete(code);
        for (const index of waiting) value(index, conversion);
      }
      for (const key of arrived) {
        for (const index of bySymbol.get(key) ?? []) {
          const { currency } = positions[index]!;
          const conversion = convert(currency);
          if (conversion !== undefined) value(index, conversion);
          else {
            const waiting = blocked.get(currency);
            if (waiting === undefined) blocked.set(currency, [index]);
            else waiting.push(index);
          }
        }
      }
    },
  };
}
