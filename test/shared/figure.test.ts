// Exact figures (shared/figure.ts): rationals that keep the places of the decimals they came from,
// and the one rounding where a figure is written, half-even, to places or to significant digits.
// Expected values are literals worked by hand (or with Python's decimal module, ROUND_HALF_EVEN)
// and the tests' own BigInt arithmetic (helpers/decimal-oracle.ts), never the module under test.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareFigures, figureOf, FigureSum, figureText, FULL, minus, over, plus, roundFigure, times, converted, type Figure } from '../../src/shared/figure.js';
import { divide, fullText, mul, rat, same, sub, sum } from '../helpers/decimal-oracle.js';

const full = (figure: Figure) => figureText(figure, FULL);
const quotient = (a: string, b: string): Figure => over(figureOf(a), figureOf(b));
const significant = (digits: number) => ({ significant: digits, keepPlaces: false });

describe('products, differences and sums: exact, with their places', () => {
  it('0.1 × 0.30 is 0.030, the places of both kept (a double writes 0.03)', () => {
    expect(String(0.1 * 0.3)).toBe('0.03');
    expect(full(times(figureOf('0.1'), figureOf('0.30')))).toBe('0.030');
  });

  it('1.15 × 100 is 115.00 and 3 × 0.1 is 0.3, where doubles give 114.99999999999999 and 0.30000000000000004', () => {
    expect(1.15 * 100).toBe(114.99999999999999);
    expect(full(times(figureOf('1.15'), figureOf('100')))).toBe('115.00');
    expect(full(times(figureOf('3'), figureOf('0.1')))).toBe('0.3');
  });

  it.each([
    ['227.10', '100', '22710.00'],
    ['1.084150000000000001', '1000000', '1084150.000000000001000000'],
    ['-5', '165.32', '-826.60'],
    ['-0', '5.5', '0.0'],
    ['1e3', '2.5', '2500.0'],
    ['1.5e-3', '2', '0.0030'],
  ])('%s × %s = %s', (a, b, product) => {
    expect(full(times(figureOf(a), figureOf(b)))).toBe(product);
  });

  it.each([['227.10', '200.5', '26.60'], ['0.1', '0.30', '-0.20'], ['1', '1', '0']])('%s - %s = %s', (a, b, difference) => {
    expect(full(minus(figureOf(a), figureOf(b)))).toBe(difference);
  });

  it('a sum keeps the places of its most precise term, and an empty sum is 0', () => {
    const total = new FigureSum();
    expect(full(total.figure)).toBe('0');
    for (const term of ['227.10', '0.5', '-1000', '0.000001']) total.add(figureOf(term));
    expect(full(total.figure)).toBe('-772.399999');
    expect(full(plus(figureOf('0.1'), figureOf('0.2')))).toBe('0.3');
  });

  it('agrees with the tests\' own arithmetic for any decimals of up to 34 digits: products, differences and sums, with their places', () => {
    const decimal = fc.tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 15n }), fc.integer({ min: 0, max: 12 })).map(([negative, digits, places]) => {
      const text = digits.toString().padStart(places + 1, '0');
      const plain = places === 0 ? text : `${text.slice(0, -places)}.${text.slice(-places)}`;
      return negative ? `-${plain}` : plain;
    });
    fc.assert(fc.property(decimal, decimal, fc.array(decimal, { maxLength: 8 }), (a, b, terms) => {
      const expected = mul(a, b);
      expect(full(times(figureOf(a), figureOf(b)))).toBe(expected.startsWith('-') && /^-[0.]+$/.test(expected) ? expected.slice(1) : expected);
      expect(full(minus(figureOf(a), figureOf(b)))).toBe(sub(a, b).replace(/^-([0.]+)$/, '$1'));
      const total = new FigureSum();
      for (const term of terms) total.add(figureOf(term));
      expect(full(total.figure)).toBe(sum(terms).replace(/^-([0.]+)$/, '$1'));
    }), { numRuns: 500 });
  });

  it.each([['1.5e-3', '15e-4', '0.0015'], ['1.50E1', '150e-1', '15.0'], ['12e2', '1.2e3', '1200']])('reads %s and %s as %s', (a, b, text) => {
    expect(full(figureOf(a))).toBe(text);
    expect(full(figureOf(b))).toBe(text);
  });

  it.each([['0', '0', 0], ['-0', '0', 0], ['-0.00', '0.00', 2], ['-0.50', '-0.50', 2], ['100', '100', 0], ['0.000001', '0.000001', 6], ['-227.10', '-227.10', 2]])('reads %s, with no exponent, as %s with %i places', (text, shown, places) => {
    expect(full(figureOf(text))).toBe(shown);
    expect(figureOf(text).places).toBe(places);
  });

  it.each(['', '-', '.', '.5', 'e5', '1e', '1..2', '--1', '0x10', ' 1', 'NaN', 'Infinity', '+1', '01', '-01.5', '1.', '1.5 ', '1_000'])('refuses %j as decimal text', (text) => {
    expect(() => figureOf(text)).toThrow(RangeError);
  });

  it('converts at a rate with the amount\'s places: the rate\'s own places are not the amount\'s', () => {
    expect(full(converted(figureOf('72480.00'), figureOf('0.01')))).toBe('724.80');
    expect(full(converted(figureOf('2271.00'), figureOf('1.08415')))).toBe('2462.10465');
    expect(full(converted(figureOf('100'), figureOf('0.50')))).toBe('50');
    expect(full(converted(figureOf('-826.60'), figureOf('0.500')))).toBe('-413.30');
  });
});

describe('full: the exact decimal, or 34 significant digits, half-even', () => {
  // Hand-checked with Python: Decimal(1) / Decimal('1.08415') at prec 34, ROUND_HALF_EVEN.
  it.each([
    ['1', '1.08415', '0.9223815892634783009731125766729696'],
    ['1', '0.85290', '1.172470395122523156290303669832337'],
    ['1', '151.420', '0.006604147404570070003962488442742042'],
    ['151.420', '0.88120', '171.8338629142078983204720835224694'],
    ['1', '3', '0.3333333333333333333333333333333333'],
    ['2', '3', '0.6666666666666666666666666666666667'],
  ])('%s / %s is %s', (n, d, expected) => {
    expect(roundFigure(quotient(n, d), FULL)).toEqual({ text: expected, exact: false });
  });

  it('is the exact decimal when a quotient has one: 1 / 1.25 is 0.8, 1e-5 / 4e2 is 0.000000025', () => {
    expect(roundFigure(quotient('1', '1.25'), FULL)).toEqual({ text: '0.8', exact: true });
    expect(roundFigure(quotient('151.420', '2'), FULL)).toEqual({ text: '75.71', exact: true });
    expect(roundFigure(quotient('1', '0.001'), FULL)).toEqual({ text: '1000', exact: true });
    expect(roundFigure(quotient('1e-5', '4e2'), FULL)).toEqual({ text: '0.000000025', exact: true });
  });

  it('rounds a decimal of more than 34 significant digits, and keeps the places of one of fewer', () => {
    // 35 significant digits ending in 5: exactly halfway between two 34-digit numbers, to the even one.
    expect(full(figureOf('12345678901234567890123456789012345'))).toBe('12345678901234567890123456789012340');
    expect(full(figureOf('12345678901234567890123456789012355'))).toBe('12345678901234567890123456789012360');
    expect(full(figureOf('1.2345678901234567890123456789012345'))).toBe('1.234567890123456789012345678901234');
    expect(full(figureOf('0.1000000000000000000000000000000000000000'))).toBe('0.1000000000000000000000000000000000000000');
  });

  it('agrees with long division by hand at 34 digits, for any prices', () => {
    const price = fc.tuple(fc.integer({ min: 1, max: 99_999_999 }), fc.integer({ min: 0, max: 8 }))
      .map(([units, places]) => {
        const digits = String(units).padStart(places + 1, '0');
        return places === 0 ? digits : `${digits.slice(0, -places)}.${digits.slice(-places)}`;
      });
    fc.assert(fc.property(price, price, (n, d) => {
      const { text, exact } = roundFigure(quotient(n, d), FULL);
      const expected = divide(n, d, 34);
      expect(text).toBe(expected);
      expect(exact).toBe(same(mul(text, d), n));
    }), { numRuns: 2000 });
  });
});

describe('to significant digits and to places, half-even', () => {
  it('agrees with the tests\' long division to 34, 10 or 3 significant digits, for any fraction, large or small, its places kept or not', () => {
    const figure = fc.record({
      n: fc.bigInt({ min: -(10n ** 50n), max: 10n ** 50n }),
      // Powers of ten often, as a decimal's denominator is; any denominator otherwise.
      d: fc.oneof(fc.integer({ min: 0, max: 40 }).map((k) => 10n ** BigInt(k)), fc.bigInt({ min: 1n, max: 10n ** 40n })),
      places: fc.integer({ min: 0, max: 12 }),
    });
    fc.assert(fc.property(figure, fc.constantFrom(34, 10, 3), fc.boolean(), ({ n, d, places }, digits, keepPlaces) => {
      // Not an integer wider than the digits: the oracle counts its trailing zeros as significant
      // and drops the places, where mkt writes the exact integer with them (355...62500.0).
      fc.pre(n % d !== 0n || (n < 0n ? -n : n) / d < 10n ** BigInt(digits));
      const expected = fullText({ n, d }, keepPlaces ? places : 0, digits);
      const { text, exact } = roundFigure({ n, d, places }, { significant: digits, keepPlaces });
      expect(text).toBe(expected.replace(/^-([0.]+)$/, '$1'));
      const written = rat(text);
      expect(exact).toBe(written.n * d === n * written.d);
    }), { numRuns: 3000 });
  });

  it('rounds a tie to the even digit, and past a tie away from it', () => {
    expect(figureText(quotient('0.5', '4'), significant(2))).toBe('0.12');
    expect(figureText(quotient('1.5', '4'), significant(2))).toBe('0.38');
    expect(figureText(quotient('0.50000004', '4'), significant(2))).toBe('0.13');
    // Rounding up carries into a new digit: 9.996 at 3 digits is 10.0, written 10.
    expect(figureText(figureOf('9.996'), significant(3))).toBe('10');
    expect(figureText(figureOf('125'), significant(2))).toBe('120');
    expect(figureText(figureOf('135'), significant(2))).toBe('140');
    expect(figureText(figureOf('99999'), significant(3))).toBe('100000');
    expect(figureText(quotient('-1', '3'), significant(5))).toBe('-0.33333');
    expect(figureText(quotient('1e-300', '3e300'), significant(4))).toBe(`0.${'0'.repeat(600)}3333`);
  });

  it.each([
    ['2.345', 2, '2.34'], ['2.355', 2, '2.36'], ['-2.345', 2, '-2.34'], ['0.5', 0, '0'], ['1.5', 0, '2'], ['2.5', 0, '2'],
    ['56202.017031', 2, '56202.02'], ['1', 4, '1.0000'], ['-0.004', 2, '0.00'], ['8510638.86257', 0, '8510639'], ['0', 3, '0.000'],
  ])('%s at %i places is %s', (text, places, expected) => {
    expect(figureText(figureOf(text), { places })).toBe(expected);
  });

  it('agrees with the tests\' own half-even rounding to places, for any quotient', () => {
    const int = fc.bigInt({ min: 1n, max: 10n ** 20n });
    fc.assert(fc.property(int, int, fc.boolean(), fc.integer({ min: 0, max: 34 }), (n, d, negative, places) => {
      const figure = over(figureOf(`${negative ? '-' : ''}${n}`), figureOf(String(d)));
      // By hand: n × 10^places / d, half to even on the remainder.
      const scaled = n * 10n ** BigInt(places);
      let q = scaled / d;
      const twice = (scaled % d) * 2n;
      if (twice > d || (twice === d && q % 2n === 1n)) q += 1n;
      let text = q.toString().padStart(places + 1, '0');
      if (places > 0) text = `${text.slice(0, -places)}.${text.slice(-places)}`;
      expect(figureText(figure, { places })).toBe(negative && q !== 0n ? `-${text}` : text);
    }), { numRuns: 2000 });
  });
});

describe('exact comparisons and sums of unreduced fractions', () => {
  it('compares across denominators by cross-multiplying: 1/3 < 0.3334, 2/6 = 1/3, a sum of inverses', () => {
    expect(compareFigures(quotient('1', '3'), figureOf('0.3334'))).toBe(-1);
    expect(compareFigures(quotient('2', '6'), quotient('1', '3'))).toBe(0);
    expect(compareFigures(figureOf('0.30'), figureOf('0.3'))).toBe(0);
    // 1/3 + 1/7 = 10/21, over the product of the denominators; 0.5 + 1/4 over a power of ten.
    expect(compareFigures(plus(quotient('1', '3'), quotient('1', '7')), quotient('10', '21'))).toBe(0);
    expect(full(plus(figureOf('0.5'), quotient('1', '4')))).toBe('0.75');
    expect(full(minus(quotient('1', '3'), quotient('1', '3')))).toBe('0');
  });
});
