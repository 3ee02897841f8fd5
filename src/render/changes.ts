// What moved between two polls of the same symbols: per price, the direction (by exact decimal
// comparison, never floats) and where in the printed text the digits start to differ, so a board
// can emphasise only the digits that changed (1.08507 -> 1.08512: "12").
import type { Quote } from '../api/types.js';
import { compare, plainDecimal } from './decimal.js';

type Direction = 'up' | 'down' | 'same' | 'new';

export interface PriceChange {
  direction: Direction;
  /** Index into the current price's plain text where the digits start to differ; undefined when none do. */
  from: number | undefined;
}

export interface QuoteChange {
  bid: PriceChange;
  ask: PriceChange;
  mid: PriceChange;
  /** First seen, or bid, ask or mid differs in value from the previous poll. */
  changed: boolean;
}

/**
 * The first character of `current` whose digit differs from `previous`, with both aligned on the
 * decimal point (integer parts right-aligned, fractions padded with zeros). Undefined when the
 * values are equal. A longer integer part (99.9 -> 100.1) changes from the first character.
 */
export function firstChangedDigit(previous: string, current: string): number | undefined {
  const a = plainDecimal(previous);
  const b = plainDecimal(current);
  if (compare(a, b) === 0) return undefined;
  const [intA = '', fracA = ''] = a.split('.');
  const [intB = '', fracB = ''] = b.split('.');
  const intWidth = Math.max(intA.length, intB.length);
  const fracWidth = Math.max(fracA.length, fracB.length);
  const alignedA = `${intA.padStart(intWidth)}.${fracA.padEnd(fracWidth, '0')}`;
  const alignedB = `${intB.padStart(intWidth)}.${fracB.padEnd(fracWidth, '0')}`;
  let index = 0;
  while (index < alignedB.length && alignedA[index] === alignedB[index]) index++;
  // Back to positions in `current` itself: drop its left padding; a difference only in zeros that
  // `current` does not print (1.15 -> 1.1) falls on its last digit.
  const position = index - (intWidth - intB.length);
  return Math.min(Math.max(0, position), b.length - 1);
}

export function comparePrice(previous: string | undefined, current: string): PriceChange {
  if (previous === undefined) return { direction: 'new', from: undefined };
  const order = compare(current, previous);
  if (order === 0) return { direction: 'same', from: undefined };
  return { direction: order > 0 ? 'up' : 'down', from: firstChangedDigit(previous, current) };
}

function compareQuote(previous: Quote | undefined, current: Quote): QuoteChange {
  const bid = comparePrice(previous?.bid, current.bid);
  const ask = comparePrice(previous?.ask, current.ask);
  const mid = comparePrice(previous?.mid, current.mid);
  const changed = previous === undefined || [bid, ask, mid].some((change) => change.direction !== 'same');
  return { bid, ask, mid, changed };
}

/**
 * Keys quotes by symbol (case-insensitively) and, for a symbol the service returns more than once,
 * by its occurrence, so each row is compared with the same row of the previous poll.
 */
export function quoteKeys(data: readonly Quote[]): string[] {
  const seen = new Map<string, number>();
  return data.map((quote) => {
    const symbol = quote.symbol.toUpperCase();
    const occurrence = seen.get(symbol) ?? 0;
    seen.set(symbol, occurrence + 1);
    return occurrence === 0 ? symbol : `${symbol}#${occurrence}`;
  });
}

export interface ChangeTracker {
  /** Compares a poll with the previous one, and remembers it for the next. */
  update(data: readonly Quote[]): QuoteChange[];
}

export function createChangeTracker(): ChangeTracker {
  let previous = new Map<string, Quote>();
  return {
    update(data) {
      const keys = quoteKeys(data);
      const changes = data.map((quote, index) => compareQuote(previous.get(keys[index]!), quote));
      // Only the latest poll is kept: memory stays bounded however long the watch runs.
      previous = new Map(keys.map((key, index) => [key, data[index]!]));
      return changes;
    },
  };
}
