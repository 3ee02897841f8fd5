// Quotes' checkable fields: the spread exact, the spread in basis points rounded once (20 significant
// digits, half to even), the age in whole milliseconds. Expected quotients were worked out with
// Python's decimal module (prec 20, ROUND_HALF_EVEN) or by hand.
import { describe, expect, it } from 'vitest';
import type { Quote } from '../../../src/api/types.js';
import { figureOf, figureText, over } from '../../../src/shared/figure.js';

/** a / b rounded half-even to `digits` significant digits, by the rounding spread_bps uses; undefined for b = 0. */
function divideSignificant(a: string, b: string, digits: number): string | undefined {
  const divisor = figureOf(b);
  if (divisor.n === 0n) return undefined;
  return figureText(over(figureOf(a), divisor), { significant: digits, keepPlaces: false });
}
import { QUOTE_CHECK_MODEL, quoteAgeMs, spreadBps } from '../../../src/render/checks/quote-check-model.js';

function quote(bid: string, ask: string, mid: string, timestamp = '2026-01-05T14:30:15.250Z'): Quote {
  return { symbol: 'EURUSD', bid, ask, mid, timestamp };
}

describe('spread_bps: (ask - bid) / mid × 10,000', () => {
  it.each([
    ['1.08505', '1.08507', '1.08506', '0.18432160433524413396'],
    ['151.00', '151.02', '151.01', '1.324415601615787034'],
    ['1.08416', '1.084139999999999998', '1.08416', '-0.18447461629281655844'],
    ['1', '1.0001', '1', '1'],
    ['1', '1.0001', '3', '0.33333333333333333333'],
    ['1', '1.0002', '3', '0.66666666666666666667'],
    ['1.2', '1.2', '1.2', '0'],
    ['1E-7', '2E-7', '1.5E-7', '6666.6666666666666667'],
  ])('bid %s, ask %s, mid %s: %s', (bid, ask, mid, expected) => {
    expect(spreadBps(quote(bid, ask, mid))).toBe(expected);
  });

  it('rounds half to even, on the exact remainder: a tie goes to the even digit, anything above it up', () => {
    // mid 1, so the quotient is the spread × 10,000: its 21st significant digit decides.
    expect(spreadBps(quote('1', '1.000100000000000000000005', '1'))).toBe('1');
    expect(spreadBps(quote('1', '1.000100000000000000000015', '1'))).toBe('1.0000000000000000002');
    expect(divideSignificant('1.00000000000000000005', '1', 20)).toBe('1');
    expect(divideSignificant('1.00000000000000000015', '1', 20)).toBe('1.0000000000000000002');
    expect(divideSignificant('1.00000000000000000025', '1', 20)).toBe('1.0000000000000000002');
    expect(divideSignificant('1.000000000000000000050000001', '1', 20)).toBe('1.0000000000000000001');
    expect(divideSignificant('1.000000000000000000049999999', '1', 20)).toBe('1');
    // A tie in the digits kept that is not a tie in the quotient: 1.00000000000000000005 / 1 is one,
    // 2.00000000000000000010000000000000000001 / 2 is just above it.
    expect(divideSignificant('2.00000000000000000010000000000000000001', '2', 20)).toBe('1.0000000000000000001');
    expect(divideSignificant('0.999999999999999999995', '1', 20)).toBe('1');
  });

  it('a mid of 0 gives no value', () => {
    expect(spreadBps(quote('0', '0.0001', '0'))).toBeUndefined();
    expect(divideSignificant('1', '0E-5', 20)).toBeUndefined();
  });

  it.each([
    ['1', '3', 5, '0.33333'],
    ['-1', '3', 5, '-0.33333'],
    ['1', '-7', 3, '-0.143'],
    ['0', '7', 20, '0'],
    ['1e-300', '3e300', 4, `0.${'0'.repeat(600)}3333`],
    ['123456789', '1', 3, '123000000'],
    ['125', '1', 2, '120'],
    ['135', '1', 2, '140'],
  ])('divideSignificant(%s, %s, %i) = %s', (a, b, digits, expected) => {
    expect(divideSignificant(a, b, digits)).toBe(expected);
  });
});

describe('age: now - timestamp, in whole milliseconds', () => {
  const at = Date.parse('2026-01-05T14:30:15.250Z');

  it.each([
    [at, 0],
    [at + 1, 1],
    [at + 86_400_000, 86_400_000],
    [at - 10_000, 0],
  ])('at %i: %i ms', (now, ms) => {
    expect(quoteAgeMs(quote('1', '2', '1.5'), now)).toBe(ms);
  });

  it('a timestamp more than 10 s ahead, or not a date, has none', () => {
    expect(quoteAgeMs(quote('1', '2', '1.5'), at - 10_001)).toBeUndefined();
    expect(quoteAgeMs(quote('1', '2', '1.5', 'not a date'), at)).toBeUndefined();
  });

  it('a timestamp with an offset and nine fraction digits is read to the millisecond', () => {
    expect(quoteAgeMs(quote('1', '2', '1.5', '2026-01-05T15:30:15.250999999+01:00'), at + 3)).toBe(3);
  });
});

describe('QUOTE_CHECK_MODEL', () => {
  it('declares bid, ask, mid, spread, spread_bps (decimals) and age (a duration)', () => {
    expect(QUOTE_CHECK_MODEL.fields.map((field) => [field.name, field.kind])).toEqual([
      ['bid', 'decimal'], ['ask', 'decimal'], ['mid', 'decimal'], ['spread', 'decimal'], ['spread_bps', 'decimal'], ['age', 'duration'],
    ]);
  });

  it('reads the spread exactly', () => {
    const spread = QUOTE_CHECK_MODEL.fields.find((field) => field.name === 'spread')!;
    expect(spread.kind === 'decimal' && spread.value(quote('1.084150000000000001', '1.084170000000000003', '1.08416'), 0)).toBe('0.000020000000000002');
  });

  it('gives an --exec program the row as the service sent it', () => {
    const row = quote('1.08415', '1.08417', '1.08416');
    expect(QUOTE_CHECK_MODEL.rowEnvironment!(row)).toEqual({ SYMBOL: 'EURUSD', BID: '1.08415', ASK: '1.08417', MID: '1.08416', TIMESTAMP: row.timestamp });
    expect(Object.keys(QUOTE_CHECK_MODEL.rowEnvironment!(row))).toEqual(QUOTE_CHECK_MODEL.rowEnvironmentNames);
  });
});
