// Exact decimal text: prices stay the digits the service sent; derived numbers (the spread) come
// from big.js, never from floats (1.08507 - 1.08505 is 0.00002, not 0.00001999999999990898).
import Big from 'big.js';

/** Plain notation, every digit kept: "227.10" stays "227.10"; "1E-8" becomes "0.00000001". */
export function plainDecimal(text: string): string {
  if (!/[eE]/.test(text)) return text;
  return new Big(text).toFixed();
}

export function fractionDigits(text: string): number {
  const plain = plainDecimal(text);
  const dot = plain.indexOf('.');
  return dot === -1 ? 0 : plain.length - dot - 1;
}

/** `a - b`, exactly, in plain notation. */
export function subtract(a: string, b: string): string {
  return new Big(a).minus(b).toFixed();
}

export function compare(a: string, b: string): number {
  return new Big(a).cmp(b);
}

/** Pads the fraction with zeros to at least `digits` places; never rounds. */
export function padFraction(text: string, digits: number): string {
  const plain = plainDecimal(text);
  const have = fractionDigits(plain);
  if (have >= digits) return plain;
  return `${plain}${have === 0 ? '.' : ''}${'0'.repeat(digits - have)}`;
}

/**
 * Aligns a column of decimals on the decimal point: integer parts right-aligned, fractions
 * left-aligned, so digits of equal weight line up.
 */
export function alignDecimals(values: readonly string[]): string[] {
  let intWidth = 0;
  let fracWidth = 0;
  const parts = values.map((value) => {
    const dot = value.indexOf('.');
    const int = dot === -1 ? value : value.slice(0, dot);
    const frac = dot === -1 ? '' : value.slice(dot + 1);
    intWidth = Math.max(intWidth, int.length);
    fracWidth = Math.max(fracWidth, frac.length);
    return [int, frac] as const;
  });
  return parts.map(([int, frac]) => {
    const tail = fracWidth === 0 ? '' : frac === '' ? ' '.repeat(fracWidth + 1) : `.${frac.padEnd(fracWidth)}`;
    return `${int.padStart(intWidth)}${tail}`;
  });
}
