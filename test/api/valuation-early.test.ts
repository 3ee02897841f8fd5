// Positions valued as their batches come: whatever the order the batches are answered in, and
// whatever an early batch suggested (an inverse rate before the direct pair came, a second quote for
// a symbol), the valuation is valuePositions' on all the quotes in the order asked.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { currencyUnit } from '../../src/api/currencies.js';
import { OptionsError } from '../../src/api/errors.js';
import { createQuoteLookup } from '../../src/api/fx.js';
import type { Position } from '../../src/api/positions.js';
import type { Quote } from '../../src/api/types.js';
import { valueCheckedPositions, valuePositions } from '../../src/api/valuation.js';
import { createEarlyValuation } from '../../src/api/valuation-early.js';

const quote = (symbol: string, bid: string, ask: string, mid: string): Quote => ({ symbol, bid, ask, mid, timestamp: '2026-01-05T14:30:00.000Z' });

/** Batches answered in `order`, then the valuation of all the quotes in the order they were asked. */
function valuedInBatches(positions: Position[], batches: Quote[][], order: number[], base: string) {
  const unit = currencyUnit(base)!;
  const early = createEarlyValuation(positions, unit, 'side');
  for (const index of order) early.add(batches[index]!);
  const all = batches.flat();
  return { early, valuation: valueCheckedPositions(positions, createQuoteLookup(all), base, unit, 'side', early.values), all };
}

describe('early valuation', () => {
  const positions: Position[] = [
    { symbol: 'AAPL', quantity: '10', currency: 'USD', cost: '200.5' },
    { symbol: 'VOD.L', quantity: '-1000', currency: 'GBX', cost: '70' },
    { symbol: 'SAP.DE', quantity: '0.1', currency: 'EUR' },
    { symbol: 'aapl', quantity: '3', currency: 'USD' },
    { symbol: 'NOPE', quantity: '1', currency: 'USD' },
    { symbol: 'EUR', quantity: '2500.75', currency: 'EUR' },
  ];

  it('values each position once its quote and rate are in, and keeps those values', () => {
    const batches = [
      [quote('EURGBP', '0.85288', '0.85292', '0.85290'), quote('EURUSD', '1.08412', '1.08418', '1.08415')],
      [quote('AAPL', '227.10', '227.12', '227.11'), quote('VOD.L', '72.48', '72.52', '72.50')],
      [quote('SAP.DE', '231.35', '231.45', '231.40')],
    ];
    const { early, valuation, all } = valuedInBatches(positions, batches, [0, 1, 2], 'EUR');
    expect(Array.from(early.values, (value) => value !== undefined)).toEqual([true, true, true, true, false, false]);
    expect(valuation).toEqual(valuePositions({ positions, quotes: all, base: 'EUR', price: 'side' }));
    // Kept, not valued again: the same objects.
    expect(valuation.positions[0]).toBe(early.values[0]!.result.out);
  });

  it('an inverse seen before the direct pair came: valued again with the direct rate', () => {
    const batches = [
      [quote('AAPL', '227.10', '227.12', '227.11'), quote('USDEUR', '0.92', '0.93', '0.925')],
      [quote('EURUSD', '1.08412', '1.08418', '1.08415')],
    ];
    // In EUR, USDEUR is USD's direct pair: the guess made from the first batch holds.
    const held = valuedInBatches([positions[0]!], batches, [0, 1], 'EUR');
    expect(held.valuation.positions[0]!.rate).toBe('0.925');
    expect(held.valuation.positions[0]).toBe(held.early.values[0]!.result.out);
    // In USD, EURUSD is EUR's direct pair, answered after the guess from USDEUR's inverse.
    const eur: Position = { symbol: 'SAP.DE', quantity: '2', currency: 'EUR' };
    const flipped = [[quote('SAP.DE', '231.35', '231.45', '231.40'), quote('USDEUR', '0.92', '0.93', '0.925')], [quote('EURUSD', '1.08412', '1.08418', '1.08415')]];
    const redone = valuedInBatches([eur], flipped, [0, 1], 'USD');
    expect(redone.early.values[0]!.rate).toBe('1.081081081081081081081081081081081');
    // A long at the bid: 231.35 × 2 = 462.70; × 1.08415 = 501.636205, by hand.
    expect(redone.valuation.positions[0]).toMatchObject({ rate: '1.08415', value_base: '501.636205' });
    expect(redone.valuation).toEqual(valuePositions({ positions: [eur], quotes: redone.all, base: 'USD', price: 'side' }));
  });

  it('a quote the service sent twice, in two batches answered out of order: the first asked is the one', () => {
    const batches = [[quote('AAPL', '1', '3', '2')], [quote('AAPL', '5', '7', '6')]];
    const { valuation } = valuedInBatches([positions[0]!], batches, [1, 0], 'USD');
    expect(valuation.positions[0]).toMatchObject({ price: '1', value: '10' });
  });

  it('a quote it cannot use is left for the end, which says so', () => {
    const bad = { ...quote('AAPL', '1', '3', '2'), bid: 'abc' } as Quote;
    expect(() => valuedInBatches([positions[0]!], [[bad]], [0], 'USD')).toThrow(OptionsError);
  });

  it('for any portfolio and any order of batches, the valuation of all the quotes', () => {
    const symbols = ['AAA', 'BBB', 'CCC', 'DDD'];
    const currencies = ['USD', 'EUR', 'GBX', 'JPY', 'CAD'];
    const decimal = fc.tuple(fc.integer({ min: -99_999, max: 99_999 }), fc.integer({ min: 0, max: 4 }))
      .map(([n, places]) => (places === 0 ? String(n) : `${n < 0 ? '-' : ''}${String(Math.abs(n)).padStart(places + 1, '0').replace(new RegExp(`(\\d{${places}})$`), '.$1')}`));
    const price = fc.integer({ min: 1, max: 99_999 }).map((n) => `${Math.floor(n / 100)}.${String(n % 100).padStart(2, '0')}`);
    const position = fc.record({ symbol: fc.constantFrom(...symbols, 'EUR'), quantity: decimal, currency: fc.constantFrom(...currencies) });
    const pairs = ['EURUSD', 'USDEUR', 'GBPUSD', 'USDJPY', 'JPYUSD', 'USDCAD', 'EURGBP', 'EURJPY', 'GBPEUR'];
    const quoteOf = fc.tuple(fc.constantFrom(...symbols, ...pairs), price).map(([symbol, mid]) => quote(symbol, mid, mid, mid));
    fc.assert(fc.property(
      fc.array(position, { minLength: 1, maxLength: 12 }), fc.array(fc.array(quoteOf, { maxLength: 6 }), { minLength: 1, maxLength: 5 }), fc.constantFrom('USD', 'EUR', 'GBP'), fc.integer(),
      (lots, batches, base, seed) => {
        const order = batches.map((_batch, index) => index).sort((a, b) => ((a * 7919 + seed) % 13) - ((b * 7919 + seed) % 13));
        const { valuation, all } = valuedInBatches(lots, batches, order, base);
        expect(valuation).toEqual(valuePositions({ positions: lots, quotes: all, base, price: 'side' }));
      },
    ), { numRuns: 500 });
  });
});
