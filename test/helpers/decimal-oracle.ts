// The tests' own decimal arithmetic, written apart from src/shared/decimal.ts so that expected
// values never come from the code under test: decimals as (BigInt, scale), and a division that
// produces its digits one by one, as by hand, then rounds half-even on the next digit and whether
// anything is left.

export interface Dec {
  int: bigint;
  scale: number;
}

/** Plain decimal text (no exponent) to (integer, places). */
export function dec(text: string): Dec {
  const negative = text.startsWith('-');
  const body = negative ? text.slice(1) : text;
  const [whole, fraction = ''] = body.split('.');
  const int = BigInt(`${whole}${fraction}`);
  return { int: negative ? -int : int, scale: fraction.length };
}

function str(value: Dec): string {
  const negative = value.int < 0n;
  let digits = (negative ? -value.int : value.int).toString();
  if (value.scale > 0) {
    digits = digits.padStart(value.scale + 1, '0');
    digits = `${digits.slice(0, -value.scale)}.${digits.slice(-value.scale)}`;
  }
  return negative && /[1-9]/.test(digits) ? `-${digits}` : digits;
}

function align(a: Dec, b: Dec): [bigint, bigint, number] {
  const scale = Math.max(a.scale, b.scale);
  return [a.int * 10n ** BigInt(scale - a.scale), b.int * 10n ** BigInt(scale - b.scale), scale];
}

export const mul = (a: string, b: string): string => str({ int: dec(a).int * dec(b).int, scale: dec(a).scale + dec(b).scale });
const add = (a: string, b: string): string => {
  const [x, y, scale] = align(dec(a), dec(b));
  return str({ int: x + y, scale });
};
export const sub = (a: string, b: string): string => {
  const [x, y, scale] = align(dec(a), dec(b));
  return str({ int: x - y, scale });
};
export const sum = (values: readonly string[]): string => values.reduce(add, '0');

/** The same number, whatever the places: 1.50 and 1.5. */
export function same(a: string, b: string): boolean {
  const [x, y] = align(dec(a), dec(b));
  return x === y;
}

/** a / b (both above zero) by long division, `digits` significant digits, rounded half-even. */
export function divide(a: string, b: string, digits: number): string {
  const x = dec(a);
  const y = dec(b);
  // a / b = (x.int × 10^y.scale) / (y.int × 10^x.scale)
  const numerator = x.int * 10n ** BigInt(y.scale);
  const denominator = y.int * 10n ** BigInt(x.scale);
  const whole = numerator / denominator;
  let remainder = numerator % denominator;
  let out = whole.toString();
  // A quotient whose integer part alone has `digits` digits or more is not needed by these tests.
  if (whole !== 0n && out.length >= digits) throw new Error('oracle: quotient too large');
  let significant = whole === 0n ? 0 : out.length;
  // Digits after the point, one at a time: `digits` significant ones, then one more, the guard.
  const fraction: number[] = [];
  while (significant <= digits) {
    remainder *= 10n;
    const digit = Number(remainder / denominator);
    remainder %= denominator;
    fraction.push(digit);
    if (significant > 0 || digit !== 0) significant++;
  }
  const guard = fraction.pop()!;
  const sticky = remainder !== 0n;
  out += fraction.join('');
  let kept = BigInt(out);
  if (guard > 5 || (guard === 5 && (sticky || kept % 2n === 1n))) kept += 1n;
  return str({ int: kept, scale: fraction.length }).replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');
}

// --- Exact fractions, for values converted at inverse and cross rates (the tests' own, apart from
// src/shared/figure.ts): a numerator and a positive denominator, never reduced (no need to compare
// representations: equality is by cross-multiplication).

export interface Rat {
  n: bigint;
  d: bigint;
}

/** Plain decimal text (no exponent) as a fraction over a power of ten. */
export function rat(text: string): Rat {
  const { int, scale } = dec(text);
  return { n: int, d: 10n ** BigInt(scale) };
}

export const ratAdd = (a: Rat, b: Rat): Rat => ({ n: a.n * b.d + b.n * a.d, d: a.d * b.d });
export const ratMul = (a: Rat, b: Rat): Rat => ({ n: a.n * b.n, d: a.d * b.d });
export const ratDiv = (a: Rat, b: Rat): Rat => (b.n < 0n ? { n: -a.n * b.d, d: a.d * -b.n } : { n: a.n * b.d, d: a.d * b.n });
export const ratSum = (terms: readonly Rat[]): Rat => terms.reduce(ratAdd, { n: 0n, d: 1n });

/** Digits of |n/d| by long division, as a person does it: the integer part, then `count` digits after the point, and whether anything is left. */
function longDivision(r: Rat, count: number): { whole: bigint; fraction: number[]; rest: bigint } {
  const n = r.n < 0n ? -r.n : r.n;
  const whole = n / r.d;
  let rest = n % r.d;
  const fraction: number[] = [];
  for (let i = 0; i < count; i++) {
    rest *= 10n;
    fraction.push(Number(rest / r.d));
    rest %= r.d;
  }
  return { whole, fraction, rest };
}

/** r rounded half-even to `places` decimal places (0 or more), written with exactly that many; a zero has no sign. */
export function roundPlaces(r: Rat, places: number): string {
  const { whole, fraction, rest } = longDivision(r, places + 1);
  const guard = fraction.pop()!;
  let kept = BigInt(`${whole}${fraction.join('')}`);
  if (guard > 5 || (guard === 5 && (rest !== 0n || kept % 2n === 1n))) kept += 1n;
  let text = kept.toString().padStart(places + 1, '0');
  if (places > 0) text = `${text.slice(0, -places)}.${text.slice(-places)}`;
  return r.n < 0n && kept !== 0n ? `-${text}` : text;
}

/**
 * `full`, as the README states it: the exact decimal when r has one of at most 34 significant
 * digits (written with at least `places` places, no trailing zeros beyond them), else r rounded
 * half-even to 34 significant digits, trailing zeros dropped.
 */
export function fullText(r: Rat, places: number, digits = 34): string {
  // Enough places to see 34 significant digits of any r with a denominator below 10^200.
  const { whole, fraction, rest } = longDivision(r, 400);
  let natural = 0;
  fraction.forEach((digit, i) => {
    if (digit !== 0) natural = i + 1;
  });
  const significant = `${whole}${fraction.slice(0, natural).join('')}`.replace(/^0+/, '').length;
  if (rest === 0n && significant <= digits) return roundPlaces(r, Math.max(places, natural));
  // The places that leave `digits` significant ones, then trailing zeros dropped down to `places`.
  const integerDigits = whole === 0n ? 0 : whole.toString().length;
  const keep = integerDigits > 0 ? digits - integerDigits : fraction.findIndex((digit) => digit !== 0) + digits;
  // More integer digits than significant ones: the integer rounded at 10^-keep, then its zeros.
  if (keep < 0) return `${roundPlaces({ n: r.n, d: r.d * 10n ** BigInt(-keep) }, 0)}${'0'.repeat(-keep)}`;
  let text = roundPlaces(r, keep);
  // A rounding that carries (99.96 to 100.0 at 4 digits) has a digit more than asked: the same value
  // at one place fewer (100.0 is 100 at 3; 0.99999 at 4 digits is 1.000).
  if (keep > 0 && text.replace(/^-/, '').replace('.', '').replace(/^0+/, '').length > digits) text = roundPlaces(r, keep - 1);
  while (text.includes('.') && text.endsWith('0') && text.length - text.indexOf('.') - 1 > places) text = text.slice(0, -1);
  return text.endsWith('.') ? text.slice(0, -1) : text;
}
