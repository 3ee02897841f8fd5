// Exact decimal arithmetic on decimal text, with big.js, for valuations and derived check fields.
// Products and sums are exact and keep their places, as decimal types do: 0.1 × 0.30 is 0.030 (one
// place and two), 227.10 + 0.5 is 227.60, so a value shows the precision it was computed from. A
// quotient is rounded once, half-even, to a number of significant digits.
//
// big.js (already mkt's decimal library: quotes' table and checks compare with it) multiplies and
// adds exactly; what it does not do is keep places (Big('0.30') is 0.3) or round a quotient to
// significant digits (its DP is decimal places). So the places are read from the text and kept
// beside each Big, and a division first works out the exponent of the quotient's leading digit
// from the two mantissas, exactly, then divides with DP set to the places that leave `digits`
// significant digits: big.js's one rounding, half-even, decided on the exact remainder, is then the
// rounding to significant digits. DP and RM belong to a constructor of this module's own (Big()
// returns an independent one), never to the global Big others use.
import Big from 'big.js';

/** This module's own constructor: half-even, its DP set for each division. */
const Decimal = Big();
Decimal.RM = Big.roundHalfEven;

/** A decimal and the places it was written or computed with (Big drops trailing zeros). */
export interface Exact {
  readonly big: Big;
  readonly places: number;
}

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

/** Decimal text as an Exact. */
export function exact(text: string): Exact {
  return { big: new Decimal(text), places: placesOf(text) };
}

/**
 * Plain text with exactly the Exact's places (a zero has no sign). Never rounds: `places` holds
 * every digit. Written from the Big's digits directly: toFixed would copy the Big to round it first,
 * once per figure of every position.
 */
export function exactText(x: Exact): string {
  const { c, e, s } = x.big;
  const places = x.places;
  const digits = c.join('');
  let text: string;
  if (e < 0) {
    // 0.000ddd: the fraction is the zeros before the first digit, the digits, then zeros to `places`.
    text = `0.${'0'.repeat(-e - 1)}${digits}`;
    text += '0'.repeat(Math.max(0, places - (digits.length - e - 1)));
  } else if (e + 1 >= digits.length) {
    text = digits + '0'.repeat(e + 1 - digits.length);
    if (places > 0) text += `.${'0'.repeat(places)}`;
  } else {
    const fraction = digits.slice(e + 1);
    text = `${digits.slice(0, e + 1)}.${fraction}${'0'.repeat(Math.max(0, places - fraction.length))}`;
  }
  return s < 0 && c[0] !== 0 ? `-${text}` : text;
}

/** x × y, exactly, with the places of both. */
export function product(x: Exact, y: Exact): Exact {
  return { big: x.big.times(y.big), places: x.places + y.places };
}

/** x - y, exactly, with the places of the longer. */
export function difference(x: Exact, y: Exact): Exact {
  return { big: x.big.minus(y.big), places: Math.max(x.places, y.places) };
}

/** Digits after the point of a Big in plain notation, trailing zeros dropped. */
function naturalPlaces(big: Big): number {
  return Math.max(0, big.c.length - 1 - big.e);
}

/**
 * value × rate, exactly, keeping at least the places of `value` and dropping the trailing zeros
 * beyond them: a converted value keeps the precision it was computed from, and no zeros that come
 * only from a rate's places (72480.00 GBX × 0.01 is 724.80 GBP, not 724.8000).
 */
export function converted(value: Exact, rate: Exact): Exact {
  const big = value.big.times(rate.big);
  return { big, places: Math.max(value.places, naturalPlaces(big)) };
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
  private big: Big = new Decimal(0);
  private places = 0;

  add(text: string): void {
    this.addExact(exact(text));
  }

  addExact(x: Exact): void {
    this.big = this.big.plus(x.big);
    if (x.places > this.places) this.places = x.places;
  }

  /** The sum so far, with its places. */
  exact(): Exact {
    return { big: this.big, places: this.places };
  }

  toString(): string {
    return this.big.toFixed(this.places);
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
