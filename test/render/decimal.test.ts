import Big from 'big.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alignDecimals, compare, fractionDigits, padFraction, plainDecimal, subtract } from '../../src/render/decimal.js';

describe('decimal text', () => {
  it.each([
    ['227.10', '227.10'],
    ['1.084150000000000001', '1.084150000000000001'],
    ['1E-8', '0.00000001'],
    ['1.5e2', '150'],
    ['-0.25', '-0.25'],
  ])('plainDecimal(%s) = %s', (input, expected) => {
    expect(plainDecimal(input)).toBe(expected);
  });

  it.each([
    ['1.08507', '1.08505', '0.00002'],
    ['227.12', '227.10', '0.02'],
    ['1.084150000000000001', '1.08415', '0.000000000000000001'],
    ['100', '99.99', '0.01'],
    ['1.0', '1.1', '-0.1'],
  ])('subtract(%s, %s) = %s, exactly', (a, b, expected) => {
    expect(subtract(a, b)).toBe(expected);
  });

  it('does what floats cannot', () => {
    expect(String(1.08507 - 1.08505)).not.toBe('0.00002');
    expect(subtract('1.08507', '1.08505')).toBe('0.00002');
  });

  it.each([
    ['227.1', 2, '227.10'],
    ['151', 3, '151.000'],
    ['1.085065', 5, '1.085065'],
    ['1E-8', 2, '0.00000001'],
  ])('padFraction(%s, %i) = %s and never rounds', (input, digits, expected) => {
    expect(padFraction(input, digits)).toBe(expected);
  });

  it('counts fraction digits', () => {
    expect(fractionDigits('1.08505')).toBe(5);
    expect(fractionDigits('227')).toBe(0);
    expect(fractionDigits('1e-3')).toBe(3);
  });

  it('compares exactly', () => {
    expect(compare('1.084150000000000001', '1.08415')).toBe(1);
    expect(compare('227.10', '227.1')).toBe(0);
    expect(compare('1', '2')).toBe(-1);
  });

  it('aligns a column on the decimal point', () => {
    expect(alignDecimals(['1.08505', '151.234', '227.10', '5'])).toEqual([
      '  1.08505',
      '151.234  ',
      '227.10   ',
      '  5      ',
    ]);
  });

  // Any decimal JSON can carry, including exponents, signs, long fractions and equal values.
  const decimal = fc.tuple(
    fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 25n }), fc.integer({ min: 0, max: 20 }), fc.option(fc.integer({ min: -30, max: 30 }), { nil: undefined }),
  ).map(([negative, digits, scale, exponent]) => {
    let text = digits.toString().padStart(scale + 1, '0');
    if (scale > 0) text = `${text.slice(0, -scale)}.${text.slice(-scale)}`;
    return `${negative ? '-' : ''}${text}${exponent === undefined ? '' : `e${exponent}`}`;
  });

  it('subtracts exactly as big.js does, for any two decimals', () => {
    fc.assert(fc.property(decimal, decimal, (a, b) => {
      expect(subtract(a, b)).toBe(new Big(a).minus(b).toFixed());
    }), { numRuns: 2000 });
  });

  it('compares exactly as big.js does, doubles equal or not', () => {
    fc.assert(fc.property(decimal, decimal, (a, b) => {
      expect(compare(a, b)).toBe(new Big(a).cmp(b));
      expect(compare(a, a.replace(/(\.\d*)$/, '$10'))).toBe(0);
    }), { numRuns: 2000 });
    expect(compare('0.30000000000000000001', '0.3')).toBe(1);
    expect(compare('-0', '0')).toBe(0);
  });
});

