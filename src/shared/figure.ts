// Exact amounts for a valuation: rationals (fraction.js), so that a value converted at an inverse or
// a cross rate (1 / 151.4215) is the exact quotient of the service's digits, and nothing is rounded
// until it is written. Each figure also carries the places of the decimals it was computed from, so
// that `full` writes an exact product with its places, as decimal types do (0.1 × 0.30 is 0.030).
//
// A figure is rounded once, where it is written, half-even, by one of two rules:
//   - to a number of decimal places (a currency's minor units, or --precision N);
//   - to significant digits: `full` is the exact value when it is a decimal of at most 34
//     significant digits (the precision of IEEE 754 decimal128 and Java's MathContext.DECIMAL128),
//     else that value rounded to 34; a rate in a table is rounded to 10.
// Every digit written is right: the rounding is decided on the exact remainder, in integers.
import Fraction from 'fraction.js';
import { DECIMAL_SYNTAX } from './decimal-bounds.js';

/** An exact amount, and the places of the decimals it came from (a product's are the sum of its factors'). */
export interface Figure {
  readonly exact: Fraction;
  readonly places: number;
}

/** Significant digits of `full`: decimal128's. */
export const FULL_DIGITS = 34;

const powers: bigint[] = [1n];

/** 10^k, for k >= 0. */
export function pow10(k: number): bigint {
  for (let i = powers.length; i <= k; i++) powers.push(powers[i - 1]! * 10n);
  return powers[k]!;
}

/**
 * Decimal text (JSON's number grammar, within the bounds of decimal-bounds.ts: a caller checks
 * them first) as a figure, its places those written (227.10 has two, 1.5e-3 four, 1e3 none).
 */
export function figureOf(text: string): Figure {
  if (!DECIMAL_SYNTAX.test(text)) throw new RangeError('not decimal text');
  let end = text.indexOf('e');
  if (end === -1) end = text.indexOf('E');
  const exponent = end === -1 ? 0 : Number(text.slice(end + 1));
  if (end === -1) end = text.length;
  const dot = text.indexOf('.');
  const mantissa = dot === -1 || dot > end ? text.slice(0, end) : text.slice(0, dot) + text.slice(dot + 1, end);
  const fraction = dot === -1 || dot > end ? 0 : end - dot - 1;
  const scale = fraction - exponent;
  const digits = BigInt(mantissa);
  if (scale <= 0) return { exact: new Fraction(digits * pow10(-scale), 1n), places: 0 };
  return { exact: new Fraction(digits, pow10(scale)), places: scale };
}

export const ZERO: Figure = { exact: new Fraction(0n, 1n), places: 0 };
export const ONE: Figure = { exact: new Fraction(1n, 1n), places: 0 };

/** a × b, exactly, with the places of both. */
export function times(a: Figure, b: Figure): Figure {
  return { exact: a.exact.mul(b.exact), places: a.places + b.places };
}

/** a − b, exactly, with the places of the longer. */
export function minus(a: Figure, b: Figure): Figure {
  return { exact: a.exact.sub(b.exact), places: Math.max(a.places, b.places) };
}

/** a + b, exactly, with the places of the longer. */
export function plus(a: Figure, b: Figure): Figure {
  return { exact: a.exact.add(b.exact), places: Math.max(a.places, b.places) };
}

/** An amount converted at a rate: exactly, with the amount's places (a rate's own places are not an amount's). */
export function converted(amount: Figure, rate: Fraction): Figure {
  return { exact: amount.exact.mul(rate), places: amount.places };
}

/** A running sum, exact, with the places of its most precise term; 0 when empty. */
export class FigureSum {
  private total = ZERO.exact;
  private places = 0;
  private terms = 0;

  add(figure: Figure): void {
    this.total = this.terms++ === 0 ? figure.exact : this.total.add(figure.exact);
    if (figure.places > this.places) this.places = figure.places;
  }

  get figure(): Figure {
    return { exact: this.total, places: this.places };
  }

  /** How many figures were added. */
  get count(): number {
    return this.terms;
  }
}

/** How a figure is written: to decimal places, or to significant digits (`full`: 34, keeping the places of an exact decimal). */
export type Rounding = { places: number } | { significant: number; keepPlaces: boolean };

export const FULL: Rounding = { significant: FULL_DIGITS, keepPlaces: true };

/** The figure as decimal text by `rounding`, half-even; `exact` says whether nothing was lost. */
export function roundFigure(figure: Figure, rounding: Rounding): { text: string; exact: boolean } {
  const { n, d, s } = figure.exact;
  const negative = s < 0n;
  if ('places' in rounding) {
    const { quotient, exact } = divide(n, d, rounding.places);
    return { text: written(quotient, rounding.places, negative), exact };
  }
  if (n === 0n) return { text: written(0n, rounding.keepPlaces ? figure.places : 0, false), exact: true };
  let places = rounding.significant - 1 - leadingExponent(n, d);
  const divided = divide(n, d, places);
  let { quotient } = divided;
  const { exact } = divided;
  // No trailing zeros beyond the figure's own places (with keepPlaces) or at all: an exact decimal
  // is padded to its places, a rounded one is not (the digits past its last are not known to be 0).
  const floor = rounding.keepPlaces ? figure.places : 0;
  const digits = quotient.toString();
  let zeros = 0;
  while (zeros < digits.length - 1 && digits.charCodeAt(digits.length - 1 - zeros) === 48) zeros++;
  const drop = Math.min(zeros, places - floor);
  if (drop > 0) {
    quotient /= pow10(drop);
    places -= drop;
  } else if (exact && places < floor) {
    quotient *= pow10(floor - places);
    places = floor;
  }
  return { text: written(quotient, places, negative), exact };
}

/** The figure's text by `rounding`. */
export function figureText(figure: Figure, rounding: Rounding): string {
  return roundFigure(figure, rounding).text;
}

/** n / d (n >= 0, d > 0) × 10^places, rounded half-even to an integer. */
function divide(n: bigint, d: bigint, places: number): { quotient: bigint; exact: boolean } {
  const numerator = places >= 0 ? n * pow10(places) : n;
  const denominator = places >= 0 ? d : d * pow10(-places);
  let quotient = numerator / denominator;
  const remainder = numerator - quotient * denominator;
  if (remainder !== 0n) {
    const twice = remainder * 2n;
    if (twice > denominator || (twice === denominator && (quotient & 1n) === 1n)) quotient += 1n;
  }
  return { quotient, exact: remainder === 0n };
}

/** The power of ten of n / d's leading digit (n, d > 0): 2 for 227.1, -3 for 0.0066. */
function leadingExponent(n: bigint, d: bigint): number {
  const e = n.toString().length - d.toString().length;
  const atLeast = e >= 0 ? n >= d * pow10(e) : n * pow10(-e) >= d;
  return atLeast ? e : e - 1;
}

/** An integer read as `places` decimals (negative places: that many zeros after it). A zero has no sign. */
function written(quotient: bigint, places: number, negative: boolean): string {
  let text = quotient.toString();
  if (places > 0) {
    text = text.padStart(places + 1, '0');
    text = `${text.slice(0, -places)}.${text.slice(-places)}`;
  } else if (places < 0 && quotient !== 0n) {
    text += '0'.repeat(-places);
  }
  return negative && quotient !== 0n ? `-${text}` : text;
}
