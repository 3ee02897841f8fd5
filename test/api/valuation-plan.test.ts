// What a valuation needs fetched: round 1 the instruments and both direct pairs of each foreign
// currency, round 2 only the USD legs for currencies round 1 left without a rate.
import { describe, expect, it } from 'vitest';
import type { Position } from '../../src/api/positions.js';
import type { Quote } from '../../src/api/types.js';
import { createQuoteBook } from '../../src/api/fx.js';
import { crossSymbols, planValuation, valuationSymbols } from '../../src/api/valuation-plan.js';

const pos = (symbol: string, currency: string): Position => ({ symbol, quantity: '1', currency });
const quote = (symbol: string, mid = '1.5'): Quote => ({ symbol, bid: mid, ask: mid, mid, timestamp: '2026-01-05T14:30:00.000Z' });

const PORTFOLIO = [pos('AAPL', 'USD'), pos('vod.l', 'GBX'), pos('VOD.L', 'GBp'), pos('SAP.DE', 'EUR'), pos('RY.TO', 'CAD'), pos('EUR', 'EUR'), pos('gbp', 'GBP'), pos('AAPL', 'USD')];

describe('valuationSymbols (round 1)', () => {
  it('asks each instrument once, upper-case, no cash, then both direct pairs of each foreign currency', () => {
    expect(valuationSymbols(PORTFOLIO, 'EUR')).toEqual([
      'AAPL', 'VOD.L', 'SAP.DE', 'RY.TO',
      'USDEUR', 'EURUSD', 'GBPEUR', 'EURGBP', 'CADEUR', 'EURCAD',
    ]);
  });

  it('needs no pair for the base, nor for a minor unit of it', () => {
    expect(valuationSymbols([pos('VOD.L', 'GBX'), pos('GBP', 'GBP')], 'GBP')).toEqual(['VOD.L']);
    expect(valuationSymbols([pos('USD', 'USD')], 'USD')).toEqual([]);
  });

  it('asks a pair once when it is also held', () => {
    expect(valuationSymbols([pos('EURUSD', 'USD'), pos('SAP.DE', 'EUR')], 'USD')).toEqual(['EURUSD', 'SAP.DE', 'USDEUR']);
  });
});

describe('crossSymbols (round 2)', () => {
  it('asks the USD legs only for currencies with no direct rate, less what round 1 asked', () => {
    // Round 1 found EURUSD and EURGBP; CAD has neither CADEUR nor EURCAD.
    const round1 = [quote('AAPL'), quote('VOD.L'), quote('SAP.DE'), quote('RY.TO'), quote('EURUSD'), quote('EURGBP')];
    expect(crossSymbols(PORTFOLIO, 'EUR', round1)).toEqual(['CADUSD', 'USDCAD']);
  });

  it('asks nothing when every currency has a rate, or the base is USD', () => {
    expect(crossSymbols(PORTFOLIO, 'EUR', [quote('EURUSD'), quote('EURGBP'), quote('EURCAD')])).toEqual([]);
    expect(crossSymbols(PORTFOLIO, 'USD', [])).toEqual([]);
  });

  it('asks nothing for a book all in its base currency or a minor unit of it, whatever round 1 brought', () => {
    expect(crossSymbols([pos('AAPL', 'USD'), pos('USD', 'USD')], 'USD', [quote('AAPL')])).toEqual([]);
    expect(crossSymbols([pos('VOD.L', 'GBX'), pos('GBP', 'GBP')], 'GBP', [quote('VOD.L')])).toEqual([]);
  });

  it('asks every leg round 1 did not, for each currency without a rate', () => {
    expect(crossSymbols([pos('RY.TO', 'CAD'), pos('NESN.SW', 'CHF')], 'JPY', [])).toEqual(['CADUSD', 'USDCAD', 'JPYUSD', 'USDJPY', 'CHFUSD', 'USDCHF']);
  });

  it('asks nothing when round 1 already brought a cross', () => {
    // USDCAD and EURUSD held as instruments: the cross is there without a second round.
    expect(crossSymbols([pos('RY.TO', 'CAD'), pos('USDCAD', 'CAD'), pos('EURUSD', 'USD')], 'EUR', [quote('USDCAD'), quote('EURUSD')])).toEqual([]);
  });

  it('asks for no cross when a direct pair is quoted, even at a mid that cannot be right: that rate is unusable, not a reason to look elsewhere', () => {
    expect(crossSymbols([pos('SAP.DE', 'EUR')], 'CHF', [quote('EURCHF', '0')])).toEqual([]);
  });

  it('reads round 1 in the book the positions are valued against, the library\'s verdict in it (valuePortfolio)', () => {
    const plan = planValuation([pos('SAP.DE', 'EUR')], 'CHF');
    expect(plan.cross(createQuoteBook([quote('SAP.DE'), quote('EURCHF', '0')], [{ symbol: 'EURCHF', problems: ['a mid of 0'] }]))).toEqual([]);
    expect(plan.cross(createQuoteBook([quote('SAP.DE')], []))).toEqual(['EURUSD', 'USDEUR', 'CHFUSD', 'USDCHF']);
  });
});
