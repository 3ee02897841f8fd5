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
