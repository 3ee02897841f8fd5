// What a quote's checks can compare: the prices as the service sent them, the spread and the spread
// in basis points, computed exactly, and the age, in whole milliseconds.
import type { Quote } from '../../api/types.js';
import { CLOCK_SKEW_MS } from '../../shared/limits.js';
import { formatAge } from '../../shared/time.js';
import { subtract } from '../decimal.js';
import type { CheckModel } from './check-model.js';
import { figureOf, over, roundFigure } from '../../shared/figure.js';

/** spread_bps is a quotient: rounded once, half to even, to this many significant digits. */
const SPREAD_BPS_DIGITS = 20;

/**
 * (ask - bid) / mid × 10,000, rounded half to even to 20 significant digits; undefined for a mid of
 * 0. The spread and the product are exact; only the division rounds.
 */
export function spreadBps(quote: Quote): string | undefined {
  const mid = figureOf(quote.mid);
  if (mid.n === 0n) return undefined;
  return roundFigure(over(figureOf(`${subtract(quote.ask, quote.bid)}e4`), mid), { significant: SPREAD_BPS_DIGITS, keepPlaces: false }).text;
}

/**
 * now - timestamp, in milliseconds. A timestamp ahead of the clock by less than the skew allowance
 * (10 s) is 0 old, as the table reads it; further ahead, or not a date at all, it has no age.
 */
export function quoteAgeMs(quote: Quote, now: number): number | undefined {
  const age = now - Date.parse(quote.timestamp);
  if (Number.isNaN(age) || age < -CLOCK_SKEW_MS) return undefined;
  return Math.max(0, age);
}

export const QUOTE_CHECK_MODEL: CheckModel<Quote> = {
  rowNoun: 'quote',
  rowKey: (quote) => quote.symbol.toUpperCase(),
  exampleField: 'bid',
  examples: ['EURUSD.bid > 1.08', 'spread_bps < 5'],
  fields: [
    { name: 'bid', kind: 'decimal', description: 'the bid, as sent', value: (quote) => quote.bid },
    { name: 'ask', kind: 'decimal', description: 'the ask, as sent', value: (quote) => quote.ask },
    { name: 'mid', kind: 'decimal', description: 'the mid, as sent', value: (quote) => quote.mid },
    { name: 'spread', kind: 'decimal', description: 'ask - bid, exact', value: (quote) => subtract(quote.ask, quote.bid) },
    {
      name: 'spread_bps',
      kind: 'decimal',
      description: `(ask - bid) / mid × 10,000, rounded half to even to ${SPREAD_BPS_DIGITS} significant digits`,
      value: spreadBps,
      unavailable: () => 'its mid is 0',
    },
    {
      name: 'age',
      kind: 'duration',
      description: 'now - timestamp, in whole milliseconds',
      value: quoteAgeMs,
      unavailable: (quote, now) => Number.isNaN(Date.parse(quote.timestamp))
        ? 'its timestamp is not a date'
        : `its timestamp is ${formatAge(Date.parse(quote.timestamp) - now)} ahead of this machine's clock`,
    },
  ],
  rowEnvironment: (quote) => ({ SYMBOL: quote.symbol, BID: quote.bid, ASK: quote.ask, MID: quote.mid, TIMESTAMP: quote.timestamp }),
  rowEnvironmentNames: ['SYMBOL', 'BID', 'ASK', 'MID', 'TIMESTAMP'],
};
