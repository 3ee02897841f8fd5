// Exact decimal arithmetic on decimal text, for valuations and derived check fields. Products and
// sums are exact and keep their places, as decimal types do: 0.1 × 0.30 is 0.030 (one place and
// two), 227.10 + 0.5 is 227.60, so a value shows the precision it was computed from. A quotient is
// rounded once, half-even, to a number of significant digits.
//
// An exact product or sum never rounds, so it needs no decimal library's rounding rules: an Exact is
// an integer and its places (227.10 is 22710 and 2), on the platform's BigInt, which multiplies and
// adds digits without limit and without floats. At 10,000 positions this is several times faster
// than big.js's digit arrays (docs/benchmarks.md, target 7). Where a rule is needed, big.js decides:
// a division, rounded to significant digits, and comparisons. DP and RM belong to a constructor of
// this module's own (Big() returns an independent one), never to the global Big others use.
import Big from 'big.js';

/** This module's own constructor: half-even, its DP set for each division. */
const Decimal = Big();
Decimal.RM = Big.roundHalfEven;

/** A decimal as an integer and its places: `units` / 10^`places`; the places are those shown. */
export interface Exact {
  readonly units: bigint;
  readonly places: number;
}

/** Decimal text as big.js and JSON write it: a sign, digits with a point, an exponent. */
const NUMERIC = /^-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

const POWERS: bigint[] = [1n];
for (let i = 1; i <= 64; i++) POWERS.push(POWERS[i - 1]! * 10n);
const ten = (n: number): bigint => POWERS[n] ?? 10n ** BigInt(n);

/**
 * Digits after the point of `text` written in plain notation: 2 for 227.10, 4 for 1.5e-3, 0 for 1e3.
 * `text` is decimal text as JSON writes a number.
 */
export function placesOf(text: string): number {
  let e = text.indexOf('e');
  if (e === -1) e = text.indexOf('E');
  const end = e === -1 ? text.length : e;
  const dot = text.indexOf('.');
  const fraction = dot === -1 || dot > end ? 0 : end - dot - 1;
  return Math.max(0, fraction - (e === -1 ? 0 : Number(text.slice(e + 1))));
}

/** Decimal text as an Exact: 1.5e-3 is 15 at 4 places, 1e3 is 1000 at 0. Throws on anything else. */
export function exact(text: string): Exact {
  if (!NUMERIC.test(text)) throw new TypeError(`not a decimal: ${JSON.stringify(text.slice(0, 40))}`);
  let e = text.indexOf('e');
  if (e === -1) e = text.indexOf('E');
  const mantissa = e === -1 ? text : text.slice(0, e);
  const dot = mantissa.indexOf('.');
  // BigInt reads the sign and the digits; '-.5' and '5.' lose only their point.
  const units = BigInt(dot === -1 ? mantissa : mantissa.slice(0, dot) + mantissa.slice(dot + 1));
  const places = (dot === -1 ? 0 : mantissa.length - dot - 1) - (e === -1 ? 0 : Number(text.slice(e + 1)));
  return places >= 0 ? { units, places } : { units: units * ten(-places), places: 0 };
}

/** Plain text with exactly the Exact's places (a zero has no sign). Never rounds. */
export function exactText(x: Exact): string {
  const negative = x.units < 0n;
  let digits = (negative ? -x.units : x.units).toString();
  const places = x.places;
  if (places > 0) {
    if (digits.length <= places) digits = '0'.repeat(places - digits.length + 1) + digits;
    digits = `${digits.slice(0, -places)}.${digits.slice(-places)}`;
  }
  return negative ? `-${digits}` : digits;
}

/** x at `places` ≥ its own: the same number with zeros after it. */
function widened(x: Exact, places: number): bigint {
  return places === x.places ? x.units : x.units * ten(places - x.places);
}

/** x × y, exactly, with the places of both. */
export function product(x: Exact, y: Exact): Exact {
  return { units: x.units * y.units, places: x.places + y.places };
}

/** x - y, exactly, with the places of the longer. */
export function difference(x: Exact, y: Exact): Exact {
  const places = Math.max(x.places, y.places);
  return { units: widened(x, places) - widened(y, places), places };
}

/** x with its trailing zeros dropped, but not below `floor` places. */
function trimmed(x: Exact, floor: number): Exact {
  let { units, places } = x;
  while (places > floor && units % 10n === 0n) {
    units /= 10n;
    places--;
  }
  return places === x.places ? x : { units, places };
}

/**
 * value × rate, exactly, keeping at least the places of `value` and dropping the trailing zeros
 * beyond them: a converted value keeps the precision it was computed from, and no zeros that come
 * only from a rate's places (72480.00 GBX × 0.01 is 724.80 GBP, not 724.8000).
 */
export function converted(value: Exact, rate: Exact): Exact {
  return trimmed(product(value, rate), value.places);
}

/** x shown with `places` places, at least its own digits: a sum of terms with more places. */
export function withPlaces(x: Exact, places: number): Exact {
  const exactly = trimmed(x, places);
  return exactly.places < places ? { units: widened(exactly, places), places } : exactly;
}

/** a × b, exactly, with the places of both: 0.1 × 0.30 = 0.030. */
export function multiply(a: string, b: string): string {
  return exactText(product(exact(a), exact(b)));
}

/** a - b, exactly, with the places of the longer. */
export function subtract(a: string, b: string): string {
  return exactText(difference(exact(a), exact(b)));
}

/** value × rate, as converted() does it. */
export function convert(value: string, rate: string): string {
  return exactText(converted(exact(value), exact(rate)));
}

/** A running sum of decimals, exact, with the places of its most precise term; 0 when empty. */
export class DecimalSum {
  private units = 0n;
  private places = 0;

  add(text: string): void {
    this.addExact(exact(text));
  }

  addExact(x: Exact): void {
    if (x.places > this.places) {
      this.units *= ten(x.places - this.places);
      this.places = x.places;
    }
    this.units += widened(x, this.places);
  }

  /** The sum so far, with its places. */
  exact(): Exact {
    return { units: this.units, places: this.places };
  }

  toString(): string {
    return exactText(this.exact());
  }
}

/** True when `text` is a decimal above zero. */
export function isPositive(text: string): boolean {
  return new Decimal(text).gt(0);
}

/** Whether the mantissa of `a` (its coefficient's digits, from the first) is below `b`'s. */
function mantissaBelow(a: readonly number[], b: readonly number[]): boolean {
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    if (x !== y) return x < y;
  }
  return false;
}

/**
 * a / b, rounded once, half-even (a tie to the even last digit), to `digits` significant digits,
 * in plain notation without trailing zeros (1 / 1.25 is 0.8, 1 / 3 at 5 digits 0.33333). `rounded`
 * says whether the quotient lost anything. Undefined when b is 0.
 */
export function divideRounded(a: string, b: string, digits: number): { value: string; rounded: boolean } | undefined {
  const x = new Decimal(a);
  const y = new Decimal(b);
  if (y.c[0] === 0) return undefined;
  if (x.c[0] === 0) return { value: '0', rounded: false };
  // a = ma × 10^ea and b = mb × 10^eb with ma, mb in [1, 10): the quotient's leading digit is at
  // 10^(ea - eb), or one place lower when ma < mb. The last digit kept is digits - 1 places below it.
  const leading = x.e - y.e - (mantissaBelow(x.c, y.c) ? 1 : 0);
  const places = digits - 1 - leading;
  let quotient: Big;
  if (places >= 0) {
    Decimal.DP = places;
    quotient = x.div(y);
  } else {
    // More integer digits than `digits`: divide a / 10^-places to a whole number, then move the
    // point back (multiplying by a power of ten is exact).
    Decimal.DP = 0;
    quotient = x.times(`1e${places}`).div(y).times(`1e${-places}`);
  }
  return { value: quotient.toFixed(), rounded: !quotient.times(y).eq(x) };
}

/** a / b rounded as divideRounded does; undefined when b is 0. */
export function divideSignificant(a: string, b: string, digits: number): string | undefined {
  return divideRounded(a, b, digits)?.value;
}
