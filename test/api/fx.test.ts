// Rates from FX quotes: direct, inverse, a cross through USD, no route with the pairs tried, and a
// pair whose quote cannot be right. Every rate is exact (a rational); the expected values are the
// tests' own arithmetic (decimal-oracle.ts: long division by hand) or hand-checked literals.
import { describe, expect, it } from 'vitest';
import { createQuoteBook, findRate, type ExactFxRate } from '../../src/api/fx.js';
import type { Quote } from '../../src/api/types.js';
import { compareFigures, figureOf, figureText, FULL, ONE, times } from '../../src/shared/figure.js';
import { divide, mul } from '../helpers/decimal-oracle.js';

const NOW = Date.UTC(2026, 0, 5, 14, 31);
const quote = (symbol: string, mid: string): Quote => ({ symbol, bid: mid, ask: mid, mid, timestamp: '2026-01-05T14:30:00.000Z' });
const bookOf = (...quotes: Quote[]) => createQuoteBook(quotes, undefined, NOW);
/** The rate at `full`: its exact digits, or 34 significant ones. */
const written = (rate: unknown) => figureText((rate as ExactFxRate).rate, FULL);

const EURUSD = quote('EURUSD', '1.08415');
const USDJPY = quote('USDJPY', '151.420');
const USDCHF = quote('USDCHF', '0.88120');
const USDCAD = quote('USDCAD', '1.36240');
const GBPUSD = quote('GBPUSD', '1.271505');

describe('findRate', () => {
  it('takes a direct pair\'s mid as it is, with the places it was sent with', () => {
    const rate = findRate('EUR', 'USD', bookOf(EURUSD));
    expect(rate).toMatchObject({ from: 'EUR', to: 'USD', method: 'direct', pairs: ['EURUSD'], timestamps: ['2026-01-05T14:30:00.000Z'], formula: 'EURUSD' });
    expect(written(rate)).toBe('1.08415');
    expect(written(findRate('USD', 'JPY', bookOf(USDJPY)))).toBe('151.420');
  });

  it('divides by the inverse pair\'s mid, exactly: 1 / EURUSD, which has no finite decimal, is written at 34 digits', () => {
    const rate = findRate('USD', 'EUR', bookOf(EURUSD)) as ExactFxRate;
    expect(rate).toMatchObject({ method: 'inverse', pairs: ['EURUSD'], formula: '1/EURUSD' });
    // Exact: the rate times the mid is 1.
    expect(compareFigures(times(rate.rate, figureOf('1.08415')), ONE)).toBe(0);
    expect(written(rate)).toBe(divide('1', '1.08415', 34));
    expect(written(rate)).toBe('0.9223815892634783009731125766729696');
  });

  it('crosses through USD when neither direct pair is quoted: both legs multiplied exactly', () => {
    const rate = findRate('EUR', 'CAD', bookOf(EURUSD, USDCAD));
    expect(rate).toMatchObject({ from: 'EUR', to: 'CAD', method: 'cross', pairs: ['EURUSD', 'USDCAD'], formula: 'EURUSD*USDCAD' });
    expect(written(rate)).toBe(mul('1.08415', '1.36240').replace(/0+$/, ''));
    expect(written(rate)).toBe('1.47704596');
  });

  it('crosses with both legs inverted as one exact quotient: 1 / (USDCAD × EURUSD)', () => {
    const rate = findRate('CAD', 'EUR', bookOf(EURUSD, USDCAD)) as ExactFxRate;
    expect(rate).toMatchObject({ method: 'cross', pairs: ['USDCAD', 'EURUSD'], formula: '1/(USDCAD*EURUSD)' });
    expect(compareFigures(times(times(rate.rate, figureOf('1.36240')), figureOf('1.08415')), ONE)).toBe(0);
    expect(written(rate)).toBe(divide('1', mul('1.36240', '1.08415'), 34));
    expect(written(rate)).toBe('0.6770270032761878310137350093019448');
  });

  it('crosses with one leg inverted as a quotient: CHF to JPY is USDJPY / USDCHF', () => {
    const rate = findRate('CHF', 'JPY', bookOf(USDJPY, USDCHF));
    expect(rate).toMatchObject({ method: 'cross', pairs: ['USDJPY', 'USDCHF'], formula: 'USDJPY/USDCHF' });
    expect(written(rate)).toBe(divide('151.420', '0.88120', 34));
  });

  it('prefers a direct pair to an inverse one, and either to a cross', () => {
    const EURGBP = quote('EURGBP', '0.85290');
    const GBPEUR = quote('GBPEUR', '1.17');
    expect(findRate('GBP', 'EUR', bookOf(EURUSD, GBPUSD, EURGBP, GBPEUR))).toMatchObject({ method: 'direct', formula: 'GBPEUR' });
    expect(findRate('GBP', 'EUR', bookOf(EURUSD, GBPUSD, EURGBP))).toMatchObject({ method: 'inverse', formula: '1/EURGBP' });
    const cross = findRate('GBP', 'EUR', bookOf(EURUSD, GBPUSD));
    expect(cross).toMatchObject({ method: 'cross', formula: 'GBPUSD/EURUSD' });
    expect(written(cross)).toBe(divide('1.271505', '1.08415', 34));
  });

  it('names every pair tried, and those missing, when there is no route', () => {
    expect(findRate('CAD', 'EUR', bookOf(USDCAD))).toEqual({
      currency: 'CAD', to: 'EUR', tried: ['CADEUR', 'EURCAD', 'CADUSD', 'USDCAD', 'EURUSD', 'USDEUR'], missing: ['CADEUR', 'EURCAD', 'CADUSD', 'EURUSD', 'USDEUR'],
    });
    // To or from USD there is no cross to try.
    expect(findRate('CAD', 'USD', bookOf(EURUSD))).toEqual({ currency: 'CAD', to: 'USD', tried: ['CADUSD', 'USDCAD'], missing: ['CADUSD', 'USDCAD'] });
  });

  it('takes no rate from a quote that cannot be right, and does not look past it: the route is unusable, naming the pair', () => {
    for (const [mid, problem] of [['0', 'mid is zero'], ['-1.08415', 'mid is negative'], ['abc', 'mid is not a number']] as const) {
      expect(findRate('EUR', 'USD', bookOf(quote('EURUSD', mid), quote('USDEUR', '0.92')))).toEqual({
        currency: 'EUR', to: 'USD', unusable: { symbol: 'EURUSD', problems: expect.arrayContaining([problem]) },
      });
    }
    const outside = { ...EURUSD, bid: '1.0841', ask: '1.0842', mid: '1.09' };
    expect(findRate('USD', 'EUR', bookOf(outside))).toEqual({ currency: 'USD', to: 'EUR', unusable: { symbol: 'EURUSD', problems: ['mid is outside bid..ask'] } });
    // A cross whose leg cannot be right.
    expect(findRate('CAD', 'EUR', bookOf(EURUSD, { ...USDCAD, timestamp: '2026-01-06T14:30:00Z' }))).toMatchObject({ unusable: { symbol: 'USDCAD', problems: ['timestamp is 23h 59m in the future'] } });
  });

  it('takes a pair sent twice at different prices as unusable, and at the same prices as one quote', () => {
    expect(findRate('EUR', 'USD', bookOf(EURUSD, quote('EURUSD', '1.0842')))).toMatchObject({ unusable: { symbol: 'EURUSD', problems: ['sent twice at different prices (mid 1.08415 and 1.0842)'] } });
    expect(findRate('EUR', 'USD', bookOf(EURUSD, quote('EURUSD', '1.084150')))).toMatchObject({ method: 'direct', formula: 'EURUSD' });
  });

  it('reads the verdict it is given instead of judging again (getQuotes\' unusable)', () => {
    const book = createQuoteBook([EURUSD], [{ symbol: 'EURUSD', problems: ['said so by getQuotes'] }]);
    expect(findRate('EUR', 'USD', book)).toMatchObject({ unusable: { symbol: 'EURUSD', problems: ['said so by getQuotes'] } });
    expect(findRate('EUR', 'USD', createQuoteBook([EURUSD], []))).toMatchObject({ method: 'direct' });
  });

  it('looks quotes up in any case, from a Map or a list', () => {
    expect(written(findRate('EUR', 'USD', createQuoteBook(new Map([['eurusd', EURUSD]]), undefined, NOW)))).toBe('1.08415');
    expect(written(findRate('EUR', 'USD', bookOf({ ...EURUSD, symbol: 'EurUsd' })))).toBe('1.08415');
  });
});
