// How a valuation's figures are written (--precision, MKT_PRECISION, the library's `precision`):
// each is rounded once, half-even, where it is written, by one of three rules.
//   minor  an amount in a currency to that currency's ISO 4217 minor units (USD 2, JPY 0, BHD 3;
//          currencies.ts); a rate, which is no amount, to 10 significant digits.
//   full   the exact value when it is a decimal of at most 34 significant digits (an exact product
//          keeps its places: 0.1 × 0.30 is 0.030), else that value rounded to 34 significant digits.
//   N      exactly N decimal places, 0 to 34, padded with zeros; rates too.
// Quantities, prices and costs are never rounded: they are written as they were given.
import { minorDigits } from './currencies.js';
import { OptionsError } from './errors.js';
import { FULL, FULL_DIGITS, roundFigure, figureText as writeFigure, type Figure, type Rounding } from '../shared/figure.js';

export type Precision = 'minor' | 'full' | number;

/** The named precisions; a number of places is the third kind. */
export const PRECISIONS = ['minor', 'full'] as const;

/** The most decimal places --precision N takes: decimal128's digits. */
export const MAX_PRECISION_PLACES = FULL_DIGITS;

/** Significant digits of a rate at `minor`, and of a rate in a table whatever the precision. */
export const READABLE_RATE_DIGITS = 10;

const READABLE_RATE: Rounding = { significant: READABLE_RATE_DIGITS, keepPlaces: false };

export function isPrecision(value: unknown): value is Precision {
  return value === 'minor' || value === 'full' || (Number.isInteger(value) && (value as number) >= 0 && (value as number) <= MAX_PRECISION_PLACES);
}

/** Throws an OptionsError for a precision that is none of minor, full, or 0 to 34. */
export function checkPrecision(precision: unknown, operation: string): asserts precision is Precision {
  if (!isPrecision(precision)) {
    throw new OptionsError('INVALID_OPTIONS', `precision must be "minor", "full" or a whole number of decimal places from 0 to ${MAX_PRECISION_PLACES}, not ${JSON.stringify(precision)?.slice(0, 40) ?? String(precision)}`, {
      option: 'precision', operation, expected: `minor, full, or 0 to ${MAX_PRECISION_PLACES}`,
    });
  }
}

/** How an amount in `currency` is written at `precision`. */
export function amountRounding(precision: Precision, currency: string): Rounding {
  if (precision === 'full') return FULL;
  return { places: precision === 'minor' ? minorDigits(currency) ?? 2 : precision };
}

/**
 * How a rate is written at `precision`: a rounding to apply to a rate's exact figure. With
 * `atMostDigits` (a table's 10), a rate the precision would write with more significant digits is
 * rounded, from the exact rate, to that many instead.
 */
export function rateRounding(precision: Precision, atMostDigits?: number): (rate: Figure) => { text: string; exact: boolean } {
  const rule = precision === 'full' ? FULL : precision === 'minor' ? READABLE_RATE : { places: precision };
  if (atMostDigits === undefined) return (rate) => roundFigure(rate, rule);
  const fewer: Rounding = { significant: atMostDigits, keepPlaces: false };
  return (rate) => {
    const written = roundFigure(rate, rule);
    return significantDigits(written.text) > atMostDigits ? roundFigure(rate, fewer) : written;
  };
}

/** Significant digits of plain decimal text, trailing zeros of a fraction counted: 0.006604 has 4, 1.50 has 3. */
function significantDigits(text: string): number {
  return text.replace(/^-/, '').replace('.', '').replace(/^0+/, '').length;
}

/**
 * One figure as decimal text by `rounding`, half-even (the library's figureText): a figure
 * `{ n, d, places }` (BigInts, d above zero, places a whole number) and a rounding to whole decimal
 * places (`{ places: 2 }`) or to 1 to 34 significant digits; anything else is an OptionsError.
 */
export function figureText(figure: Figure, rounding: Rounding): string {
  const given = figure as Partial<Record<keyof Figure, unknown>> | null;
  if (given === null || typeof given !== 'object' || typeof given.n !== 'bigint' || typeof given.d !== 'bigint' || given.d <= 0n || !Number.isSafeInteger(given.places) || (given.places as number) < 0) {
    throw new OptionsError('INVALID_OPTIONS', 'figure must be { n, d, places }: BigInts n and d (d above zero) and a whole number of places', { option: 'figure', operation: 'figureText' });
  }
  const rule = rounding as Partial<Record<'places' | 'significant' | 'keepPlaces', unknown>> | null;
  const places = rule !== null && typeof rule === 'object' && 'places' in rule;
  const ok = rule !== null && typeof rule === 'object' && (places
    ? Number.isSafeInteger(rule.places) && (rule.places as number) >= 0
    : Number.isInteger(rule.significant) && (rule.significant as number) >= 1 && (rule.significant as number) <= FULL_DIGITS && typeof rule.keepPlaces === 'boolean');
  if (!ok) {
    throw new OptionsError('INVALID_OPTIONS', `rounding must be { places } (a whole number of decimal places) or { significant, keepPlaces } (1 to ${FULL_DIGITS} digits), such as FULL`, { option: 'rounding', operation: 'figureText' });
  }
  return writeFigure(figure, rounding);
}
