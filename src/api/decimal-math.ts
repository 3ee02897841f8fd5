// Exact decimal arithmetic on decimal text, for valuations. Products and sums are exact and keep
// their scale, as decimal types do: 0.1 × 0.30 is 0.030 (one place and two), 227.10 + 0.5 is
// 227.60, so a value shows the precision it was computed from. A quotient is rounded once,
// half-even, to a number of significant digits, the remainder deciding the last digit.
//
// In integers scaled by a power of ten (BigInt), not big.js, for two reasons. Speed, measured: the
// arithmetic of 100,000 lots (a product, a conversion at a 34-digit rate, a sum) took 350 to 610 ms
// of CPU with big.js and 60 to 110 ms with BigInt, run alternately five times on a 2-core machine,
// big.js's digit arrays being garbage to collect (render/decimal.ts's subtract chose BigInt for the
// same reason). Rounding: big.js rounds a quotient to decimal places, so rounding it again to
// significant digits would round twice. Each step here is exact schoolbook arithmetic;
// test/api/decimal-math.test.ts holds it to hand-worked figures and to long division.

/** A decimal as int × 10^-scale, scale at least 0. */
export interface Scaled {
  int: bigint;
  scale: number;
}

const POWERS: bigint[] = [1n];

/** 10^n as a BigInt, n at least 0; the small ones kept. */
function pow10(n: number): bigint {
  if (n < 64) {
    for (let k = POWERS.length; k <= n; k++) POWERS.push(POWERS[k - 1]! * 10n);
    return POWERS[n]!;
  }
  return 10n ** BigInt(n);
}

/** Decimal text (plain or exponent notation, as JSON writes numbers) as int × 10^-scale. */
export function toScaled(text: string): Scaled {
  const e = text.indexOf('e') === -1 ? text.indexOf('E') : text.indexOf('e');
  const mantissa = e === -1 ? text : text.slice(0, e);
  const dot = mantissa.indexOf('.');
  const int = BigInt(dot === -1 ? mantissa : mantissa.slice(0, dot) + mantissa.slice(dot + 1));
  const scale = (dot === -1 ? 0 : mantissa.length - dot - 1) - (e === -1 ? 0 : Number(text.slice(e + 1)));
  return scale >= 0 ? { int, scale } : { int: int * pow10(-scale), scale: 0 };
}

/** int × 10^-scale as plain text with exactly `scale` places (a zero has no sign). */
export function fromScaled({ int, scale }: Scaled): string {
  if (scale === 0) return int.toString();
  const negative = int < 0n;
  const digits = (negative ? -int : int).toString().padStart(scale + 1, '0');
  const text = `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return negative ? `-${text}` : text;
}

/** Digits after the point of `text` written in plain notation: 2 for 227.10, 4 for 1.5e-3, 0 for 1e3. */
export function scaleOf(text: string): number {
  return toScaled(text).scale;
}

/** x × y, exactly, with the places of both. */
export function times(x: Scaled, y: Scaled): Scaled {
  return { int: x.int * y.int, scale: x.scale + y.scale };
}

/** a × b, exactly, with the places of both: 0.1 × 0.30 = 0.030. */
export function multiply(a: string, b: string): string {
  return fromScaled(times(toScaled(a), toScaled(b)));
}

/** x - y, exactly, with the places of the longer. */
export function minus(x: Scaled, y: Scaled): Scaled {
  const scale = Math.max(x.scale, y.scale);
  return { int: x.int * pow10(scale - x.scale) - y.int * pow10(scale - y.scale), scale };
}

/** a - b, exactly, with the places of the longer. */
export function subtract(a: string, b: string): string {
  return fromScaled(minus(toScaled(a), toScaled(b)));
}

/**
 * value × rate, exactly, keeping at least the places of `value` and dropping the trailing zeros
 * beyond them: a converted value keeps the precision it was computed from, and no zeros that come
 * only from a rate's places (72480.00 GBX × 0.01 is 724.80 GBP, not 724.8000).
 */
export function convert(value: string, rate: string): string {
  return fromScaled(convertScaled(toScaled(value), toScaled(rate)));
}

export function convertScaled(value: Scaled, rate: Scaled): Scaled {
  let { int, scale } = times(value, rate);
  if (int === 0n) return { int, scale: value.scale };
  while (scale > value.scale && int % 10n === 0n) {
    int /= 10n;
    scale--;
  }
  return { int, scale };
}

/** A running sum of decimal text, exact, with the places of its most precise term. */
export class DecimalSum {
  private int = 0n;
  private scale = 0;

  add(text: string): void {
    this.addScaled(toScaled(text));
  }

  addScaled({ int, scale }: Scaled): void {
    if (scale > this.scale) {
      this.int *= pow10(scale - this.scale);
      this.scale = scale;
    }
    this.int += scale === this.scale ? int : int * pow10(this.scale - scale);
  }

  toString(): string {
    return fromScaled({ int: this.int, scale: this.scale });
  }
}

/** True when `text` is a decimal above zero. */
export function isPositive(text: string): boolean {
  return toScaled(text).int > 0n;
}

/** int × 10^-scale in plain notation, without trailing zeros after the point. */
function plain(int: bigint, scale: number): string {
  if (scale <= 0) return (int * 10n ** BigInt(-scale)).toString();
  const digits = int.toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, -scale);
  const fraction = digits.slice(-scale).replace(/0+$/, '');
  return fraction === '' ? whole : `${whole}.${fraction}`;
}

/**
 * n / d for decimals above zero: exact when the quotient has at most `digits` significant digits,
 * else rounded once, half-even (ties to an even last digit), to `digits` significant digits
 * (`rounded` says which). Plain notation, trailing zeros dropped: 1 / 1.25 is 0.8.
 */
export function divideRounded(n: string, d: string, digits: number): { value: string; rounded: boolean } {
  const a = toScaled(n);
  const b = toScaled(d);
  if (a.int <= 0n || b.int <= 0n) throw new RangeError('divideRounded takes decimals above zero');
  // n / d lies in [10^(L-1), 10^(L+1)) for L the difference in digit counts, so the integer part
  // of a.int × 10^k / b.int has `digits` or `digits` + 1 digits; one step back when it has more.
  let k = digits - (a.int.toString().length - b.int.toString().length);
  for (;;) {
    const numerator = k >= 0 ? a.int * 10n ** BigInt(k) : a.int;
    const denominator = k >= 0 ? b.int : b.int * 10n ** BigInt(-k);
    let quotient = numerator / denominator;
    if (quotient.toString().length > digits) {
      k--;
      continue;
    }
    const remainder = numerator - quotient * denominator;
    const twice = 2n * remainder;
    if (twice > denominator || (twice === denominator && quotient % 2n === 1n)) quotient++;
    // quotient × 10^-k is (a.int / b.int) rounded; the value is that × 10^(b.scale - a.scale).
    return { value: plain(quotient, k + a.scale - b.scale), rounded: remainder !== 0n };
  }
}
