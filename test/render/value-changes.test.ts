// How a watched valuation moved since each figure was first known (value-changes.ts), on valuations
// made by the library's pure valuePositions from quotes written here; every expected change is
// worked out in the test with big.js from those prices and quantities, not read from the tracker.
import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import { valueExactly, type Position, type Quote } from '../../src/api/index.js';
import { figureText, FULL, type Figure } from '../../src/shared/figure.js';
import { createValuationTracker, signedChange } from '../../src/render/value-changes.js';

const AT = Date.UTC(2025, 0, 6, 14, 30, 0);
const TIMESTAMP = new Date(AT).toISOString();
const quote = (symbol: string, mid: string): Quote => ({ symbol, bid: mid, ask: mid, mid, timestamp: TIMESTAMP });

/** 3 of AAPL (3 × 0.1 is 0.30000000000000004 in a double), 10 of SAP.DE in EUR, 2 of MSFT. */
const POSITIONS: Position[] = [
  { symbol: 'AAPL', quantity: '3', currency: 'USD' },
  { symbol: 'SAP.DE', quantity: '10', currency: 'EUR' },
  { symbol: 'MSFT', quantity: '2', currency: 'USD' },
];

const value = (quotes: Quote[]) => valueExactly({ positions: POSITIONS, quotes, base: 'USD', now: AT });
/** now × quantity - then × quantity, in big.js. */
const moved = (quantity: string, then: string, now: string) => new Big(now).times(quantity).minus(new Big(then).times(quantity));
/** A change compared as a number of big.js (the tracker's text may carry trailing zeros). */
const same = (actual: Figure | undefined, expected: Big) => actual !== undefined && new Big(figureText(actual, FULL)).eq(expected);
const zero = (each: Figure | undefined) => each !== undefined && each.n === 0n;

describe('createValuationTracker', () => {
  it('the first poll is the reference: every change 0, since that poll', () => {
    const tracker = createValuationTracker();
    const change = tracker.update(value([quote('AAPL', '0.1'), quote('SAP.DE', '200'), quote('EURUSD', '1.1'), quote('MSFT', '400')]), AT);
    expect(change.positions.map(zero)).toEqual([true, true, true]);
    expect(same(change.total, new Big(0))).toBe(true);
    expect(change.since).toBe(AT);
  });

  it('later polls: each position in the base, each currency, and the total, now minus the first poll, exact', () => {
    const tracker = createValuationTracker();
    tracker.update(value([quote('AAPL', '0.1'), quote('SAP.DE', '200'), quote('EURUSD', '1.1'), quote('MSFT', '400')]), AT);
    const change = tracker.update(value([quote('AAPL', '0.2'), quote('SAP.DE', '199.9'), quote('EURUSD', '1.2'), quote('MSFT', '400.01')]), AT + 5000);
    // AAPL: 3 × 0.2 - 3 × 0.1 = 0.3 (a double says 0.30000000000000004).
    const aapl = moved('3', '0.1', '0.2');
    expect(aapl.toFixed()).toBe('0.3');
    // SAP.DE in USD: 10 × 199.9 × 1.2 - 10 × 200 × 1.1.
    const sap = new Big('199.9').times('10').times('1.2').minus(new Big('200').times('10').times('1.1'));
    const msft = moved('2', '400', '400.01');
    expect(same(change.positions[0], aapl)).toBe(true);
    expect(same(change.positions[1], sap)).toBe(true);
    expect(same(change.positions[2], msft)).toBe(true);
    expect(same(change.totals.get('USD'), aapl.plus(msft))).toBe(true);
    expect(same(change.totals.get('EUR'), sap)).toBe(true);
    expect(same(change.total, aapl.plus(sap).plus(msft))).toBe(true);
    // Measured from the first poll, not the previous one.
    expect(change.since).toBe(AT);
  });

  it('a figure unknown at first is measured from the first poll that knew it; a total from the first where it was whole', () => {
    const tracker = createValuationTracker();
    // Poll 1: no MSFT quote, no EURUSD (SAP.DE has no rate to USD).
    const first = tracker.update(value([quote('AAPL', '0.1'), quote('SAP.DE', '200')]), AT);
    expect(zero(first.positions[0])).toBe(true);
    expect(first.positions.slice(1)).toEqual([undefined, undefined]);
    expect(first.totals.get('USD')).toBeUndefined();
    expect(first.totals.get('EUR')).toBeUndefined();
    expect(first).toMatchObject({ total: undefined, since: undefined });
    // Poll 2: everything valued; the total's "then" is this poll.
    const second = tracker.update(value([quote('AAPL', '0.3'), quote('SAP.DE', '200'), quote('EURUSD', '1.1'), quote('MSFT', '400')]), AT + 5000);
    expect(same(second.positions[0], moved('3', '0.1', '0.3'))).toBe(true);
    expect(second.positions.slice(1).map(zero)).toEqual([true, true]);
    expect(same(second.total, new Big(0))).toBe(true);
    expect(second.since).toBe(AT + 5000);
    // Poll 3: MSFT gone again: its change and the total's are unknown, the rest still measured.
    const third = tracker.update(value([quote('AAPL', '0.3'), quote('SAP.DE', '201'), quote('EURUSD', '1.1')]), AT + 10_000);
    expect(third.positions[2]).toBeUndefined();
    expect(third.totals.get('USD')).toBeUndefined();
    expect(same(third.totals.get('EUR'), new Big('201').times('10').times('1.1').minus(new Big('200').times('10').times('1.1')))).toBe(true);
    expect(third.total).toBeUndefined();
  });
});

describe('signedChange', () => {
  it.each([
    ['12.5', '+12.5'],
    ['-0.3', '-0.3'],
    ['0', '0'],
    ['0.000', '0.000'],
    ['0.0001', '+0.0001'],
  ])('%s: %s', (change, shown) => {
    expect(signedChange(change)).toBe(shown);
  });
});
