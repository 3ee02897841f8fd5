// Exact amounts for a valuation: rationals, so that a value converted at an inverse or a cross rate
// (1 / 151.4215) is the exact quotient of the service's digits, and nothing is rounded until it is
// written. Each figure also carries the places of the decimals it was computed from, so that `full`
// writes an exact product with its places, as decimal types do (0.1 × 0.30 is 0.030).
//
// A figure is a numerator and a positive denominator in BigInt, not reduced: a price times a
// quantity is two integer products, a sum of decimals an addition over their common power of ten.
// Measured against fraction.js for the same figures (docs/benchmarks.md, target 7, where it says
// when this can go): fraction.js reduces every result by a gcd, which made `mkt value` of 10,000
// positions spend about 70 ms more CPU than this (1.52x of mkt quotes against 1.42x in USD), and
// 100,000 lots 1.8 s against 1.25 s; here the reduction is left out, since nothing needs a figure
// in lowest terms (a comparison cross-multiplies, the rounding below divides once).
//
// A figure is rounded once, where it is written, half-even, by one of two rules:
//   - to a number of decimal places (a currency's minor units, or --precision N);
//   - to significant digits: `full` is the exact value when it is a decimal of at most 34
//     significant digits (the precision of IEEE 754 decimal128 and Java's MathContext.DECIMAL128),
//     else that value rounded to 34; a rate in a table is rounded to 10.
// Every digit written is right: the rounding is decided on the exact remainder, in integers.
import { DECIMAL_SYNTAX } from './decimal-bounds.js';

/** An exact amount, n / d (d > 0, not necessarily in lowest terms), and the places of the decimals it came from (a product's are the sum of its factors'). */
export interface Figure {
  readonly n: bigint;
  readonly d: bigint;
  readonly places: number;
}

/** Significant digits of `full`: decimal128's. */
export const FULL_DIGITS = 34;

const powers: bigint[] = [1n];

/** DECIMAL_SYNTAX without an exponent: what most decimals look like. */
const PLAIN_DECIMAL = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/;

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
  // Most decimals have no exponent (227.10, -20): taken apart at the point alone.
  if (PLAIN_DECIMAL.test(text)) {
    const dot = text.indexOf('.');
    if (dot === -1) return { n: BigInt(text), d: 1n, places: 0 };
    const places = text.length - dot - 1;
    return { n: BigInt(text.slice(0, dot) + text.slice(dot + 1)), d: pow10(places), places };
  }
  if (!DECIMAL_SYNTAX.test(text)) throw new RangeError('not decimal text');
  let end = text.indexOf('e');
  if (end === -1) end = text.indexOf('E');
  const exponent = end === -1 ? 0 : Number(text.slice(end + 1));
  if (end === -1) end = text.length;
  const dot = text.indexOf('.');
  const fraction = dot === -1 || dot > end ? 0 : end - dot - 1;
  const mantissa = fraction === 0 ? (end === text.length ? text : text.slice(0, end)) : text.slice(0, dot) + text.slice(dot + 1, end);
  const scale = fraction - exponent;
  const digits = BigInt(mantissa);
  if (scale <= 0) return { n: digits * pow10(-scale), d: 1n, places: 0 };
  return { n: digits, d: pow10(scale), places: scale };
}

const ZERO: Figure = { n: 0n, d: 1n, places: 0 };
export const ONE: Figure = { n: 1n, d: 1n, places: 0 };

/** a × b, exactly, with the places of both. */
export function times(a: Figure, b: Figure): Figure {
  return { n: a.n * b.n, d: a.d * b.d, places: a.places + b.places };
}

/** a / b, exactly (b not zero), with no places of its own: a quotient is a rate, not an amount. */
export function over(a: Figure, b: Figure): Figure {
  return b.n < 0n ? { n: -a.n * b.d, d: a.d * -b.n, places: 0 } : { n: a.n * b.d, d: a.d * b.n, places: 0 };
}

/**
 * a and b over one denominator, as the numerators to add or subtract: the common one when one
 * divides the other (powers of ten, a shared rate's), else their product.
 */
function common(a: Figure, b: Figure): { an: bigint; bn: bigint; d: bigint } {
  if (a.d === b.d) return { an: a.n, bn: b.n, d: a.d };
  // Two decimals (each over the power of ten of its places, as products and sums of decimals are):
  // the one with fewer places scaled by a cached power, not a division.
  if (a.d === pow10(a.places) && b.d === pow10(b.places)) {
    return a.places < b.places ? { an: a.n * pow10(b.places - a.places), bn: b.n, d: b.d } : { an: a.n, bn: b.n * pow10(a.places - b.places), d: a.d };
  }
  if (b.d > a.d && b.d % a.d === 0n) return { an: a.n * (b.d / a.d), bn: b.n, d: b.d };
  if (a.d > b.d && a.d % b.d === 0n) return { an: a.n, bn: b.n * (a.d / b.d), d: a.d };
  return { an: a.n * b.d, bn: b.n * a.d, d: a.d * b.d };
}

/** a − b, exactly, with the places of the longer. */
export function minus(a: Figure, b: Figure): Figure {
  const { an, bn, d } = common(a, b);
  return { n: an - bn, d, places: Math.max(a.places, b.places) };
}

/** a + b, exactly, with the places of the longer. */
export function plus(a: Figure, b: Figure): Figure {
  const { an, bn, d } = common(a, b);
  return { n: an + bn, d, places: Math.max(a.places, b.places) };
}

/** An amount converted at a rate: exactly, with the amount's places (a rate's own places are not an amount's). */
export function converted(amount: Figure, rate: Figure): Figure {
  return { n: amount.n * rate.n, d: amount.d * rate.d, places: amount.places };
}

/** -1, 0 or 1: a against b, exactly. */
export function compareFigures(a: Figure, b: Figure): number {
  const difference = a.d === b.d ? a.n - b.n : a.n * b.d - b.n * a.d;
  return difference < 0n ? -1 : difference > 0n ? 1 : 0;
}

/** -1, 0 or 1: the figure's sign. */
export function signOf(figure: Figure): number {
  return figure.n < 0n ? -1 : figure.n > 0n ? 1 : 0;
}

/** A running sum, exact, with the places of its most precise term; 0 when empty. */
export class FigureSum {
  private total: Figure = ZERO;
  private terms = 0;

  add(figure: Figure): void {
    this.total = this.terms++ === 0 ? figure : plus(this.total, figure);
  }

  get figure(): Figure {
    return this.total;
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
  const negative = figure.n < 0n;
  const n = negative ? -figure.n : figure.n;
  const { d } = figure;
  if ('places' in rounding) {
    // A decimal with no more places than asked for is padded, not divided.
    if (rounding.places >= figure.places && d === pow10(figure.places)) return { text: written((n * pow10(rounding.places - figure.places)).toString(), rounding.places, negative), exact: true };
    const { quotient, exact } = divide(n, d, rounding.places);
    return { text: written(quotient.toString(), rounding.places, negative), exact };
  }
  if (n === 0n) return { text: written('0', rounding.keepPlaces ? figure.places : 0, false), exact: true };
  const { significant } = rounding;
  // Most figures are decimals as computed (a price times a quantity, a sum of them): written as
  // they are when they have few enough digits, without a division.
  if (rounding.keepPlaces && d === pow10(figure.places) && n < pow10(significant)) return { text: written(n.toString(), figure.places, negative), exact: true };
  // One division gives the digits: n / d × 10^scale, cut to `significant` digits on its text and
  // rounded there, the remainder deciding a tie. scale = significant leaves at least one digit to
  // cut from a figure of 1 or more; a smaller one is scaled by its leading digit's power instead.
  let scale = significant;
  let numerator = n * pow10(scale);
  let quotient = numerator / d;
  let digits = quotient.toString();
  if (digits.length <= significant) {
    scale = significant - leadingExponent(n, d);
    numerator = n * pow10(scale);
    quotient = numerator / d;
    digits = quotient.toString();
  }
  let places = scale - (digits.length - significant);
  let kept = digits.slice(0, significant);
  const next = digits.charCodeAt(significant);
  let beyond = false;
  for (let i = significant + 1; i < digits.length && !beyond; i++) beyond = digits.charCodeAt(i) !== 48;
  // The remainder decides only when the digits cut are 0…0 or 50…0: whether it is exact, or a tie.
  if (!beyond && (next === 48 || next === 53)) beyond = quotient * d !== numerator;
  const exact = next === 48 && !beyond;
  // Half-even: up past a half, or at one onto an even digit (an odd digit's char code is odd).
  if (next > 53 || (next === 53 && (beyond || (kept.charCodeAt(significant - 1) & 1) === 1))) {
    kept = incremented(kept);
    // 99…9 carried to 100…0: one digit more than asked, and the last a 0 of one place less.
    if (kept.length > significant) {
      kept = kept.slice(0, -1);
      places--;
    }
  }
  // No trailing zeros beyond the figure's own places (with keepPlaces) or at all: an exact decimal
  // is padded to its places, a rounded one is not (the digits past its last are not known to be 0).
  const floor = rounding.keepPlaces ? figure.places : 0;
  let zeros = 0;
  while (zeros < kept.length - 1 && kept.charCodeAt(kept.length - 1 - zeros) === 48) zeros++;
  const drop = Math.min(zeros, places - floor);
  if (drop > 0) {
    kept = kept.slice(0, -drop);
    places -= drop;
  } else if (exact && places < floor) {
    kept += '0'.repeat(floor - places);
    places = floor;
  }
  return { text: written(kept, places, negative), exact };
}

/** Decimal digits plus one in the last place: 1299 is 1300, 999 is 1000. */
function incremented(digits: string): string {
  let i = digits.length - 1;
  while (i >= 0 && digits.charCodeAt(i) === 57) i--;
  const carried = '0'.repeat(digits.length - 1 - i);
  return i < 0 ? `1${carried}` : `${digits.slice(0, i)}${String.fromCharCode(digits.charCodeAt(i) + 1)}${carried}`;
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

/** An integer's digits read as `places` decimals (negative places: that many zeros after it). A zero has no sign. */
function written(digits: string, places: number, negative: boolean): string {
  let text = digits;
  const zero = digits === '0';
  if (places > 0) {
    text = text.padStart(places + 1, '0');
    // One flat string. A concatenation of 13 characters or more is a tree of strings in V8 (for a
    // 34-digit figure: slices of the quotient's text, kept as long as the figure is), which the JSON
    // writer's join then reads piece by piece: a longer one is joined. A shorter one (most amounts)
    // is flat either way, and concatenated without the array.
    text = text.length < 12 ? `${text.slice(0, -places)}.${text.slice(-places)}` : [text.slice(0, -places), text.slice(-places)].join('.');
  } else if (places < 0 && !zero) {
    text += '0'.repeat(-places);
  }
  return negative && !zero ? `-${text}` : text;
}
