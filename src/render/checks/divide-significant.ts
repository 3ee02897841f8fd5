// A quotient of two exact decimals, rounded once: to `digits` significant digits, half to even, in
// plain notation without trailing zeros. In BigInt, on the decimals' digits and exponents, so the
// rounding is decided by the exact remainder (big.js rounds to decimal places, not significant digits,
// and rounding twice can turn a quotient just above a half into one below it).
import Big from 'big.js';

/** `a / b`; undefined when b is 0. Both are decimal text big.js reads. */
export function divideSignificant(a: string, b: string, digits: number): string | undefined {
  const [x, y] = [new Big(a), new Big(b)];
  if (y.eq(0)) return undefined;
  if (x.eq(0)) return '0';
  const [mx, ex] = integerForm(x);
  const [my, ey] = integerForm(y);
  // Enough digits that the integer quotient has more than `digits`: at least one digit to round on.
  const shift = Math.max(0, digits + 1 + digitCount(my) - digitCount(mx));
  const numerator = mx * 10n ** BigInt(shift);
  let quotient = numerator / my;
  const remainder = numerator % my;
  const extra = digitCount(quotient) - digits;
  const divisor = 10n ** BigInt(extra);
  const dropped = quotient % divisor;
  quotient /= divisor;
  // Above half, or exactly half with something left over, rounds up; exactly half rounds to even.
  const twice = dropped * 2n;
  if (twice > divisor || (twice === divisor && (remainder !== 0n || quotient % 2n === 1n))) quotient += 1n;
  const exponent = ex - ey - shift + extra;
  const sign = x.s * y.s < 0 ? '-' : '';
  return new Big(`${sign}${quotient}e${exponent}`).toFixed();
}

/** [m, e] with |value| = m × 10^e, m a positive integer. */
function integerForm(value: Big): [bigint, number] {
  return [BigInt(value.c.join('')), value.e - (value.c.length - 1)];
}

function digitCount(value: bigint): number {
  return value.toString().length;
}
