// Rates from FX quotes: direct, inverse, a cross through USD, and no route with the pairs tried.
// Expected rates are the tests' own arithmetic (decimal-oracle.ts) or hand-checked literals.
import { describe, expect, it } from 'vitest';
import { createQuoteLookup, findRate, RATE_DIGITS } from '../../src/api/fx.js';
import type { Quote } from '../../src/api/types.js';
import { divide, mul } from '../helpers/decimal-oracle.js';

const quote = (symbol: string, mid: string): Quote => ({ symbol, bid: mid, ask: mid, mid, timestamp: '2026-01-05T14:30:00.000Z' });
const lookupOf = (...quotes: Quote[]) => createQuoteLookup(quotes);

const EURUSD = quote('EURUSD', '1.08415');
const USDJPY = quote('USDJPY', '151.420');
const USDCHF = quote('USDCHF', '0.88120');
const USDCAD = quote('USDCAD', '1.36240');
const GBPUSD = quote('GBPUSD', '1.271505');

describe('findRate', () => {
  it('takes a direct pair\'s mid as it is', () => {
    expect(findRate('EUR', 'USD', lookupOf(EURUSD))).toEqual({
      from: 'EUR', to: 'USD', rate: '1.08415', method: 'direct', pairs: ['EURUSD'], formula: 'EURUSD', rounded: false,
    });
  });

  it('divides by the inverse pair\'s mid, rounded half-even to 34 digits', () => {
    const rate = findRate('USD', 'EUR', lookupOf(EURUSD));
    // 1 / 1.08415, by hand (Python's decimal at 34 digits agrees).
    expect(rate).toMatchObject({ rate: '0.9223815892634783009731125766729696', method: 'inverse', pairs: ['EURUSD'], formula: '1/EURUSD', rounded: true });
    expect(rate).toMatchObject({ rate: divide('1', '1.08415', RATE_DIGITS) });
  });

  it('crosses through USD when neither direct pair is quoted: both legs multiplied exactly', () => {
    // EUR to CAD: EURUSD × USDCAD, no division, no rounding.
    const rate = findRate('EUR', 'CAD', lookupOf(EURUSD, USDCAD));
    expect(rate).toEqual({
      from: 'EUR', to: 'CAD', rate: mul('1.08415', '1.36240'), method: 'cross', pairs: ['EURUSD', 'USDCAD'], formula: 'EURUSD*USDCAD', rounded: false,
    });
    expect(rate).toMatchObject({ rate: '1.4770459600' });
  });

  it('crosses with both legs inverted as one division: 1 / (USDCAD × EURUSD), rounded once', () => {
    const rate = findRate('CAD', 'EUR', lookupOf(EURUSD, USDCAD));
    expect(rate).toMatchObject({
      method: 'cross', pairs: ['USDCAD', 'EURUSD'], formula: '1/(USDCAD*EURUSD)', rounded: true,
      rate: divide('1', mul('1.36240', '1.08415'), RATE_DIGITS),
    });
    expect(rate).toMatchObject({ rate: '0.6770270032761878310137350093019448' });
    // Two roundings (1/USDCAD, then 1/EURUSD, then the product at 34 digits) would differ in the last digits.
    const twice = mul(divide('1', '1.36240', 34), divide('1', '1.08415', 34));
    expect(twice.replace(/0+$/, '')).not.toBe('0.6770270032761878310137350093019448');
  });

  it('crosses with one leg inverted as a quotient: CHF to JPY is USDJPY / USDCHF', () => {
    const rate = findRate('CHF', 'JPY', lookupOf(USDJPY, USDCHF));
    expect(rate).toMatchObject({ method: 'cross', pairs: ['USDJPY', 'USDCHF'], formula: 'USDJPY/USDCHF', rounded: true, rate: divide('151.420', '0.88120', RATE_DIGITS) });
    expect(rate).toMatchObject({ rate: '171.8338629142078983204720835224694' });
  });

  it('prefers a direct pair to an inverse one, and either to a cross', () => {
    const EURGBP = quote('EURGBP', '0.85290');
    const GBPEUR = quote('GBPEUR', '1.17');
    expect(findRate('GBP', 'EUR', lookupOf(EURUSD, GBPUSD, EURGBP, GBPEUR))).toMatchObject({ method: 'direct', rate: '1.17' });
    expect(findRate('GBP', 'EUR', lookupOf(EURUSD, GBPUSD, EURGBP))).toMatchObject({ method: 'inverse', formula: '1/EURGBP' });
    expect(findRate('GBP', 'EUR', lookupOf(EURUSD, GBPUSD))).toMatchObject({ method: 'cross', formula: 'GBPUSD/EURUSD', rate: divide('1.271505', '1.08415', RATE_DIGITS) });
  });

  it('names every pair tried, and those missing, when there is no route', () => {
    expect(findRate('CAD', 'EUR', lookupOf(USDCAD))).toEqual({
      currency: 'CAD', to: 'EUR', tried: ['CADEUR', 'EURCAD', 'CADUSD', 'USDCAD', 'EURUSD', 'USDEUR'], missing: ['CADEUR', 'EURCAD', 'CADUSD', 'EURUSD', 'USDEUR'],
    });
    // To or from USD there is no cross to try.
    expect(findRate('CAD', 'USD', lookupOf(EURUSD))).toEqual({ currency: 'CAD', to: 'USD', tried: ['CADUSD', 'USDCAD'], missing: ['CADUSD', 'USDCAD'] });
  });

  it('takes no rate from a mid that is zero, negative or not a decimal', () => {
    for (const mid of ['0', '0.00000', '-1.08415', 'abc', '']) {
      expect(findRate('EUR', 'USD', lookupOf(quote('EURUSD', mid)))).toMatchObject({ tried: ['EURUSD', 'USDEUR'], missing: ['EURUSD', 'USDEUR'] });
    }
  });

  it('looks quotes up in any case, from a Map or a list', () => {
    expect(findRate('EUR', 'USD', createQuoteLookup(new Map([['eurusd', EURUSD]])))).toMatchObject({ rate: '1.08415' });
    expect(findRate('EUR', 'USD', lookupOf({ ...EURUSD, symbol: 'EurUsd' }))).toMatchObject({ rate: '1.08415' });
  });
});
