// Exact decimal text: prices stay the digits the service sent; derived numbers (the spread) come
// from big.js, never from floats (1.08507 - 1.08505 is 0.00002, not 0.00001999999999990898).
import Big from 'big.js';
import { DECIMAL_SYNTAX } from '../shared/decimal-bounds.js';
import { compareFigures, figureOf, FigureSum, roundFigure } from '../shared/figure.js';

/** Plain notation, every digit kept: "227.10" stays "227.10"; "1E-8" becomes "0.00000001". */
export function plainDecimal(text: string): string {
  if (!/[eE]/.test(text)) return text;
  return new Big(text).toFixed();
}

export function fractionDigits(text: string): number {
  return digitsAfterPoint(plainDecimal(text));
}

function digitsAfterPoint(plain: string): number {
  const dot = plain.indexOf('.');
  return dot === -1 ? 0 : plain.length - dot - 1;
}

/**
 * `a - b`, exactly, in plain notation without trailing zeros (as big.js writes it). In integers
 * scaled by the longer fraction: BigInt does in one native step what a Big per row does in many,
 * and a table of 10,000 quotes subtracts 10,000 times (docs/benchmarks.md).
 */
export function subtract(a: string, b: string): string {
  const plainA = plainDecimal(a);
  const plainB = plainDecimal(b);
  const digits = Math.max(digitsAfterPoint(plainA), digitsAfterPoint(plainB));
  const difference = scaled(plainA, digits) - scaled(plainB, digits);
  const negative = difference < 0n;
  let text = (negative ? -difference : difference).toString();
  if (digits > 0) {
    text = text.padStart(digits + 1, '0');
    text = `${text.slice(0, -digits)}.${text.slice(-digits)}`.replace(/\.?0+$/, '');
  }
  return negative ? `-${text}` : text;
}

/** Plain decimal text times 10^digits (digits at least its own fraction digits), as a BigInt. */
function scaled(plain: string, digits: number): bigint {
  const dot = plain.indexOf('.');
  if (dot === -1) return BigInt(plain + '0'.repeat(digits));
  return BigInt(plain.slice(0, dot) + plain.slice(dot + 1).padEnd(digits, '0'));
}

/** -1, 0 or 1, exactly. Doubles decide when they differ: rounding to a double never reverses an order. */
export function compare(a: string, b: string): number {
  const x = Number(a);
  const y = Number(b);
  if (x < y) return -1;
  if (x > y) return 1;
  return new Big(a).cmp(b);
}

/**
 * The shorter exact form of a decimal, for a table cell: the plain text when it is at most `width`
 * characters; else the exponent form when that is shorter (`1e+999`, `1.5e-20`); else the plain text.
 * Every digit is kept: never rounded, never cut, so a price with more significant digits than the
 * width is written whole, wider than the width.
 */
export function compactDecimal(text: string, width: number): string {
  const plain = plainDecimal(text);
  if (plain.length <= width) return plain;
  const exponent = new Big(plain).toExponential();
  return exponent.length < plain.length ? exponent : plain;
}

/** Pads the fraction with zeros to at least `digits` places; never rounds. */
export function padFraction(text: string, digits: number): string {
  const plain = plainDecimal(text);
  const have = digitsAfterPoint(plain);
  if (have >= digits) return plain;
  return `${plain}${have === 0 ? '.' : ''}${'0'.repeat(digits - have)}`;
}

/**
 * Aligns a column of decimals on the decimal point: integer parts right-aligned, fractions
 * left-aligned, so digits of equal weight line up. Values longer than `widest` are left as they are
 * and do not widen the others.
 */
export function alignDecimals(values: readonly string[], widest = Number.POSITIVE_INFINITY): string[] {
  let intWidth = 0;
  let fracWidth = 0;
  const parts = values.map((value) => {
    const dot = value.indexOf('.');
    const int = dot === -1 ? value : value.slice(0, dot);
    const frac = dot === -1 ? '' : value.slice(dot + 1);
    if (value.length <= widest) {
      intWidth = Math.max(intWidth, int.length);
      fracWidth = Math.max(fracWidth, frac.length);
    }
    return [int, frac] as const;
  });
  return parts.map(([int, frac], index) => {
    if (values[index]!.length > widest) return values[index]!;
    const tail = fracWidth === 0 ? '' : frac === '' ? ' '.repeat(fracWidth + 1) : `.${frac.padEnd(fracWidth)}`;
    return `${int.padStart(intWidth)}${tail}`;
  });
}

/**
 * Plain decimal text with its integer part grouped in thousands by commas, for people (the table and
 * the board only; data formats never group): `56202.02` is `56,202.02`, `-8510639` is `-8,510,639`.
 * Every digit stays; exponent forms are left as they are.
 */
export function groupThousands(text: string): string {
  if (/[eE]/.test(text)) return text;
  const sign = text.startsWith('-') || text.startsWith('+') ? text[0]! : '';
  const body = sign === '' ? text : text.slice(1);
  const dot = body.indexOf('.');
  const integer = dot === -1 ? body : body.slice(0, dot);
  if (integer.length <= 3 || !/^\d+$/.test(integer)) return text;
  const grouped = integer.replace(/\B(?=(\d{3})+$)/g, ',');
  return `${sign}${grouped}${dot === -1 ? '' : body.slice(dot)}`;
}

/** The exact sum of decimal texts (JSON's grammar), with the places of the longest, and whether it equals another; undefined if one is not decimal text. */
export function addDecimals(texts: readonly string[]): { text: string; same(other: string): boolean } | undefined {
  if (!texts.every((text) => DECIMAL_SYNTAX.test(text))) return undefined;
  const sum = new FigureSum();
  for (const text of texts) sum.add(figureOf(text));
  const { figure } = sum;
  return {
    // Exactly, every digit: a sum of decimals is one, and at FULL a sum of more than 34 significant
    // digits would be rounded to the very total it is shown beside (`add up to 1.5…151; the total, 1.5…151`).
    text: roundFigure(figure, { places: figure.places }).text,
    same: (other) => DECIMAL_SYNTAX.test(other) && compareFigures(figureOf(other), figure) === 0,
  };
}
