// The exact arithmetic under valuations and derived check fields (big.js): products and sums that
// keep every digit and their places, and a division rounded once, half-even, to significant digits.
// Expected values are literals worked by hand (or with Python's decimal module at 34 digits,
// ROUND_HALF_EVEN) and the tests' own long division (helpers/decimal-oracle.ts), never the module
// under test.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import Big from 'big.js';
import { convert, DecimalSum, divideRounded, divideSignificant, multiply, placesOf, subtract } from '../../src/shared/decimal.js';
import { RATE_DIGITS } from '../../src/api/fx.js';
import { divide, mul, same, sub, sum } from '../helpers/decimal-oracle.js';

describe('multiply and sums: exact, with their places', () => {
  it('0.1 × 0.30 is 0.030, the places of both kept (a double writes 0.03)', () => {
    expect(String(0.1 * 0.3)).toBe('0.03');
    expect(multiply('0.1', '0.30')).toBe('0.030');
  });

  it('1.15 × 100 is 115.00 and 3 × 0.1 is 0.3, where doubles give 114.99999999999999 and 0.30000000000000004', () => {
    expect(1.15 * 100).toBe(114.99999999999999);
    expect(3 * 0.1).toBe(0.30000000000000004);
    expect(multiply('1.15', '100')).toBe('115.00');
    expect(multiply('3', '0.1')).toBe('0.3');
  });

  it('0.1 + 0.2 is 0.3, where a double gives 0.30000000000000004', () => {
    expect(0.1 + 0.2).not.toBe(0.3);
    const sum = new DecimalSum();
    sum.add('0.1');
    sum.add('0.2');
    expect(sum.toString()).toBe('0.3');
  });

  it.each([
    ['227.10', '100', '22710.00'],
    ['1.084150000000000001', '1000000', '1084150.000000000001000000'],
    ['-5', '165.32', '-826.60'],
    ['-0', '5.5', '0.0'],
    ['1e3', '2.5', '2500.0'],
    ['1.5e-3', '2', '0.0030'],
    ['99999999999999999999.99', '99999999999999999999.99', '9999999999999999999998000000000000000000.0001'],
  ])('%s × %s = %s', (a, b, product) => {
    expect(multiply(a, b)).toBe(product);
  });

  it.each([
    ['227.10', '200.5', '26.60'],
    ['0.1', '0.30', '-0.20'],
    ['1', '1', '0'],
  ])('%s - %s = %s', (a, b, difference) => {
    expect(subtract(a, b)).toBe(difference);
  });

  it('a sum keeps the places of its most precise term, and an empty sum is 0', () => {
    const sum = new DecimalSum();
    expect(sum.toString()).toBe('0');
    for (const term of ['227.10', '0.5', '-1000', '0.000001']) sum.add(term);
    expect(sum.toString()).toBe('-772.399999');
  });

  it('agrees with the tests\' own arithmetic for any decimals: products, differences and sums, with their places', () => {
    const decimal = fc.tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.integer({ min: 0, max: 24 })).map(([negative, digits, places]) => {
      const text = digits.toString().padStart(places + 1, '0');
      const plain = places === 0 ? text : `${text.slice(0, -places)}.${text.slice(-places)}`;
      return negative ? `-${plain}` : plain;
    });
    fc.assert(fc.property(decimal, decimal, fc.array(decimal, { maxLength: 8 }), (a, b, terms) => {
      expect(multiply(a, b)).toBe(mul(a, b));
      expect(subtract(a, b)).toBe(sub(a, b));
      const total = new DecimalSum();
      for (const term of terms) total.add(term);
      expect(total.toString()).toBe(sum(terms));
    }), { numRuns: 500 });
  });

  it.each([['1.5e-3', '15e-4', '0.0015'], ['1.50E1', '150e-1', '15.0'], ['12e2', '1.2e3', '1200'], ['.5', '0.5', '0.5']])('reads %s and %s as %s', (a, b, text) => {
    expect(multiply(a, '1')).toBe(text);
    expect(multiply(b, '1')).toBe(text);
  });

  it.each(['', '-', '.', 'e5', '1e', '1..2', '--1', '0x10', ' 1', 'NaN', 'Infinity'])('refuses %j as a decimal', (text) => {
    expect(() => multiply(text, '1')).toThrow();
  });

  it.each([['227.10', 2], ['1e3', 0], ['1.5e-3', 4], ['1.50E1', 1], ['-0.0', 1], ['7', 0]])('the places of %s are %i', (text, places) => {
    expect(placesOf(text)).toBe(places);
  });

  it('convert keeps the value\'s places and drops only the zeros a rate brings', () => {
    expect(convert('72480.00', '0.01')).toBe('724.80');
    expect(convert('2500.75', '1')).toBe('2500.75');
    expect(convert('2271.00', '1.08415')).toBe('2462.10465');
    expect(convert('100', '0.50')).toBe('50');
    expect(convert('-826.60', '0.500')).toBe('-413.30');
  });
});

describe('divideRounded', () => {
  // Hand-checked with Python: Decimal(1) / Decimal('1.08415') at prec 34, ROUND_HALF_EVEN.
  it.each([
    ['1', '1.08415', '0.9223815892634783009731125766729696'],
    ['1', '0.85290', '1.172470395122523156290303669832337'],
    ['1', '151.420', '0.006604147404570070003962488442742042'],
    ['151.420', '0.88120', '171.8338629142078983204720835224694'],
    ['1', '1.4770459600', '0.6770270032761878310137350093019448'],
    ['1', '3', '0.3333333333333333333333333333333333'],
    ['2', '3', '0.6666666666666666666666666666666667'],
  ])('%s / %s at 34 digits is %s', (n, d, quotient) => {
    expect(RATE_DIGITS).toBe(34);
    expect(divideRounded(n, d, 34)).toEqual({ value: quotient, rounded: true });
    expect(divideSignificant(n, d, 34)).toBe(quotient);
  });

  it('is exact, without trailing zeros, when the quotient is short', () => {
    expect(divideRounded('1', '1.25', 34)).toEqual({ value: '0.8', rounded: false });
    expect(divideRounded('151.420', '2', 34)).toEqual({ value: '75.71', rounded: false });
    expect(divideRounded('1', '0.001', 34)).toEqual({ value: '1000', rounded: false });
    expect(divideRounded('1e-5', '4e2', 34)).toEqual({ value: '0.000000025', rounded: false });
  });

  it('rounds a tie to the even digit, and past a tie away from it', () => {
    // 35 significant digits ending in 5: exactly halfway between two 34-digit numbers.
    expect(divideSignificant('12345678901234567890123456789012345', '1', 34)).toBe('12345678901234567890123456789012340');
    expect(divideSignificant('12345678901234567890123456789012355', '1', 34)).toBe('12345678901234567890123456789012360');
    // The same tie, but as a quotient: 0.5 / 4 = 0.125, at 2 digits 0.12; 0.375 at 2 digits 0.38.
    expect(divideSignificant('0.5', '4', 2)).toBe('0.12');
    expect(divideSignificant('1.5', '4', 2)).toBe('0.38');
    // Just past the tie: 0.12500001 rounds up.
    expect(divideSignificant('0.50000004', '4', 2)).toBe('0.13');
    // Rounding up carries into a new digit: 9.996 at 3 digits is 10.0, written 10.
    expect(divideSignificant('9.996', '1', 3)).toBe('10');
  });

  it('agrees with long division by hand at 20 and 34 digits, for any prices', () => {
    const price = fc.tuple(fc.integer({ min: 1, max: 99_999_999 }), fc.integer({ min: 0, max: 8 }))
      .map(([units, places]) => {
        const digits = String(units).padStart(places + 1, '0');
        return places === 0 ? digits : `${digits.slice(0, -places)}.${digits.slice(-places)}`;
      });
    fc.assert(fc.property(price, price, fc.constantFrom(20, 34), (n, d, digits) => {
      const { value, rounded } = divideRounded(n, d, digits)!;
      const expected = divide(n, d, digits);
      expect(value).toBe(expected);
      expect(same(value, expected)).toBe(true);
      // Exact exactly when the quotient times the divisor gives the dividend back.
      expect(rounded).toBe(!same(mul(value, d), n));
    }), { numRuns: 3000 });
  });

  it('agrees with long division by hand for quotients far from 1, given in exponent notation, at 2 to 40 digits', () => {
    // n × 10^i / (d × 10^j): the dividend's and divisor's exponents move the quotient's leading digit.
    const mantissa = fc.integer({ min: 1, max: 999_999_999 });
    fc.assert(fc.property(mantissa, fc.integer({ min: -30, max: 5 }), mantissa, fc.integer({ min: -5, max: 30 }), fc.integer({ min: 2, max: 40 }), (n, i, d, j, digits) => {
      // The oracle reads plain text and wants fewer integer digits than `digits`.
      fc.pre(String(n).length - String(d).length + i - j < digits - 1);
      const plain = (m: number, e: number) => (e >= 0 ? `${m}${'0'.repeat(e)}` : (() => {
        const text = String(m).padStart(-e + 1, '0');
        return `${text.slice(0, e)}.${text.slice(e)}`;
      })());
      expect(divideSignificant(`${n}e${i}`, `${d}E${j}`, digits)).toBe(divide(plain(n, i), plain(d, j), digits));
    }), { numRuns: 2000 });
  });

  it('has no quotient for a divisor of 0, and 0 for a dividend of 0', () => {
    expect(divideRounded('1', '0', 34)).toBeUndefined();
    expect(divideRounded('1', '0E-5', 34)).toBeUndefined();
    expect(divideRounded('0', '1', 34)).toEqual({ value: '0', rounded: false });
    expect(divideRounded('-0.000', '7', 34)).toEqual({ value: '0', rounded: false });
  });

  it('takes signs and quotients far from 1: more integer digits than kept, and hundreds of places', () => {
    expect(divideSignificant('-1', '3', 5)).toBe('-0.33333');
    expect(divideSignificant('1', '-7', 3)).toBe('-0.143');
    expect(divideSignificant('-2', '-8', 3)).toBe('0.25');
    expect(divideSignificant('123456789', '1', 3)).toBe('123000000');
    expect(divideSignificant('125', '1', 2)).toBe('120');
    expect(divideSignificant('135', '1', 2)).toBe('140');
    expect(divideSignificant('99999', '1', 3)).toBe('100000');
    expect(divideSignificant('1e-300', '3e300', 4)).toBe(`0.${'0'.repeat(600)}3333`);
    expect(divideSignificant('7e300', '2e-300', 34)).toBe(`35${'0'.repeat(599)}`);
  });

  it('never changes the global Big: its DP and rounding mode stay big.js\'s defaults', () => {
    const { DP, RM } = Big;
    divideRounded('1', '3', 34);
    divideRounded('123456789', '1', 3);
    expect([Big.DP, Big.RM]).toEqual([DP, RM]);
    expect(new Big(2).div(3).toString()).toBe('0.66666666666666666667');
  });
});
