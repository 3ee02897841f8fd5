// Change detection between polls: direction by exact comparison, and the first changed digit.
import { describe, expect, it } from 'vitest';
import { comparePrice, createChangeTracker, firstChangedDigit, quoteKeys } from '../../src/render/changes.js';
import { quote } from '../helpers/quotes.js';


describe('firstChangedDigit', () => {
  it.each([
    ['1.08507', '1.08512', 5], // "12" changed
    ['1.08507', '1.08508', 6], // only the last digit
    ['1.08507', '1.08507', undefined],
    ['227.10', '227.1', undefined], // the same value, written differently
    ['99.9', '100.1', 0], // a longer integer part changes from the first character
    ['100.1', '99.9', 0],
    ['150.280', '151.280', 2],
    ['0.00000001', '0.00000002', 9],
    ['1E-8', '0.00000002', 9], // exponent notation is compared as the plain decimal
    ['1.15', '1.1', 2], // differs only in a digit the current text does not print: its last digit
    ['1.084150000000000001', '1.084150000000000002', 19],
    ['-1.5', '-1.4', 3],
    ['10', '11', 1],
  ])('%s -> %s: from index %s', (previous, current, expected) => {
    expect(firstChangedDigit(previous, current)).toBe(expected);
  });
});

describe('comparePrice', () => {
  it.each([
    [undefined, '1.1', 'new', undefined],
    ['1.1', '1.10', 'same', undefined],
    ['1.08505', '1.08507', 'up', 6],
    ['1.08507', '1.08505', 'down', 6],
    // Floats would call these equal; the decimals are not.
    ['1.084150000000000001', '1.084150000000000002', 'up', 19],
    ['0.30000000000000004', '0.3', 'down', 2], // the changed digit is not printed in 0.3: its last one
  ] as const)('%s -> %s is %s', (previous, current, direction, from) => {
    expect(comparePrice(previous, current)).toEqual({ direction, from });
  });
});

describe('createChangeTracker', () => {
  it('marks everything new on the first poll, then only what moved', () => {
    const tracker = createChangeTracker();
    const first = tracker.update([quote('EURUSD', '1.08505', '1.08507', '1.08506'), quote('AAPL', '227.10', '227.12', '227.11')]);
    expect(first.map((change) => change.changed)).toEqual([true, true]);
    expect(first[0]!.mid.direction).toBe('new');

    const second = tracker.update([quote('EURUSD', '1.08505', '1.08509', '1.08507'), quote('AAPL', '227.1', '227.12', '227.11')]);
    expect(second.map((change) => change.changed)).toEqual([true, false]);
    expect(second[0]).toMatchObject({ bid: { direction: 'same' }, ask: { direction: 'up', from: 6 }, mid: { direction: 'up', from: 6 } });
  });

  it('compares by symbol, whatever the order, and a symbol that comes back is new again', () => {
    const tracker = createChangeTracker();
    tracker.update([quote('A', '1', '2', '1.5'), quote('B', '3', '4', '3.5')]);
    const swapped = tracker.update([quote('B', '3', '4', '3.5'), quote('A', '1', '2', '1.5')]);
    expect(swapped.map((change) => change.changed)).toEqual([false, false]);
    tracker.update([quote('A', '1', '2', '1.5')]);
    expect(tracker.update([quote('B', '3', '4', '3.5')])[0]!.mid.direction).toBe('new');
  });

  it('keeps duplicate rows of one symbol apart', () => {
    expect(quoteKeys([quote('a', '1', '1', '1'), quote('A', '1', '1', '1'), quote('B', '1', '1', '1')])).toEqual(['A', 'A#1', 'B']);
  });
});
