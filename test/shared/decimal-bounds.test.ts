import { describe, expect, it } from 'vitest';
import { DECIMAL_SYNTAX, decimalBoundsProblem } from '../../src/shared/decimal-bounds.js';

describe('decimalBoundsProblem', () => {
  it.each([
    '0', '-0', '1', '227.10', '-20', '1e6', '1.5e-3', '0.000', `${'9'.repeat(100)}`, `0.${'0'.repeat(99)}1`, `1e99`, `1e-100`,
    `${'1'.repeat(50)}.${'1'.repeat(50)}`, '0e-100', '0e999999999', `-${'9'.repeat(100)}`,
  ])('%s is within the bounds', (text) => {
    expect(DECIMAL_SYNTAX.test(text)).toBe(true);
    expect(decimalBoundsProblem(text)).toBeUndefined();
  });

  it.each([
    ['a 101-digit integer', '1'.repeat(101), 'significant', 'has 101 significant digits; at most 100 are read'],
    ['50,000 digits', '7'.repeat(50_000), 'significant', 'has 50000 significant digits; at most 100 are read'],
    ['1e9999', '1e9999', 'large', 'is too large: 10000 digits before the point; at most 100 are read'],
    ['1e100', '1e100', 'large', 'is too large: 101 digits before the point; at most 100 are read'],
    ['an exponent of 20 digits', '1e99999999999999999999', 'large', 'is too large: its exponent is beyond any bound; at most 100 are read'],
    ['1e-1000000', '1e-1000000', 'places', 'has 1000000 decimal places; at most 100 are read'],
    ['1,000,001 decimals', `0.${'1'.repeat(1_000_001)}`, 'significant', 'has 1000001 significant digits; at most 100 are read'],
    ['101 places of zeros after a 1', `1.${'0'.repeat(101)}`, 'places', 'has 101 decimal places; at most 100 are read'],
    ['a zero of 101 places', `0.${'0'.repeat(101)}`, 'places', 'has 101 decimal places; at most 100 are read'],
    ['0e-200', '0e-200', 'places', 'has 200 decimal places; at most 100 are read'],
    ['1e-101', '1e-101', 'places', 'has 101 decimal places; at most 100 are read'],
    ['a tiny exponent of 20 digits', '1e-99999999999999999999', 'places', 'has more decimal places than any bound; at most 100 are read'],
  ])('%s is refused', (_name, text, bound, message) => {
    expect(DECIMAL_SYNTAX.test(text)).toBe(true);
    expect(decimalBoundsProblem(text)).toEqual({ bound, message });
  });
});
