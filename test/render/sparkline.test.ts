// Sparklines from exact decimals, and the bounded history behind them.
import { describe, expect, it } from 'vitest';
import { History, sparkline } from '../../src/render/sparkline.js';

describe('sparkline', () => {
  it.each([
    [[], ''],
    [['1.5'], '▄'],
    [['1.5', '1.5', '1.50'], '▄▄▄'], // flat reads as the middle
    [['1', '2'], '▁█'],
    [['0', '1', '2', '3', '4', '5', '6', '7'], '▁▂▃▄▅▆▇█'],
    [['7', '6', '5', '4', '3', '2', '1', '0'], '█▇▆▅▄▃▂▁'],
    [['1.08505', '1.08507', '1.08506'], '▁█▅'], // the exact middle is the first bar of the upper half
    // Steps of 1e-18, far below what a float can tell apart around 1.08.
    [['1.084150000000000000', '1.084150000000000001', '1.084150000000000002'], '▁▅█'],
    // Exactly on a level boundary: (0.125 - 0) * 8 = 1 * range, so level 1 (▂), not ▁ from rounding.
    [['0', '0.125', '1'], '▁▂█'],
    [['1E-8', '2E-8', '3E-8'], '▁▅█'],
  ])('%j -> %s', (values, expected) => {
    expect(sparkline(values)).toBe(expected);
  });

  it('shows the last `width` points, scaled among themselves', () => {
    expect(sparkline(['100', '1', '2'], 2)).toBe('▁█');
    expect(sparkline(['1', '2'], 0)).toBe('');
  });
});

describe('History', () => {
  it('keeps at most `limit` points per key, oldest dropped first', () => {
    const history = new History(3);
    for (const value of ['1', '2', '3', '4', '5']) history.add('EURUSD', value);
    history.add('AAPL', '9');
    expect(history.get('EURUSD')).toEqual(['3', '4', '5']);
    expect(history.get('AAPL')).toEqual(['9']);
    expect(history.get('MSFT')).toEqual([]);
  });
});
