// The numbers mkt computes with are bounded, so that no single number makes a valuation slow: the
// cost of exact arithmetic grows with the digits (a 50,000-digit quantity times a cost took 8 s),
// and a short text can stand for a long number (1e-1000000 is one significant digit and a million
// places). A decimal is read when it has at most MAX_SIGNIFICANT_DIGITS significant digits and, in
// plain notation, at most MAX_INTEGER_DIGITS digits before the point and MAX_FRACTION_DIGITS after
// it: a number a market or a ledger writes is far inside all three. The bounds are worked out from
// the text (its mantissa and exponent), never by writing the number out.
import { MAX_FRACTION_DIGITS, MAX_INTEGER_DIGITS, MAX_SIGNIFICANT_DIGITS } from './limits.js';

const SHORTEST_BOUND = Math.min(MAX_SIGNIFICANT_DIGITS, MAX_INTEGER_DIGITS, MAX_FRACTION_DIGITS);

/** JSON's number grammar, with an exponent of any length: what decimalBoundsProblem reads. */
export const DECIMAL_SYNTAX = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** Which bound a decimal is beyond. */
type DecimalBound = 'significant' | 'large' | 'places';

export interface DecimalBoundsProblem {
  bound: DecimalBound;
  /** The end of a sentence naming the number: `has 150 significant digits; at most 100 are read`. */
  message: string;
}

/**
 * Why decimal text (DECIMAL_SYNTAX) is beyond mkt's bounds, or undefined when it is within them.
 * Linear in the text's length, whatever the exponent says.
 */
export function decimalBoundsProblem(text: string): DecimalBoundsProblem | undefined {
  // Plain notation no longer than the least bound is within all three: every price and quantity a
  // market writes, decided without taking the text apart.
  if (text.length <= SHORTEST_BOUND && !text.includes('e') && !text.includes('E')) return undefined;
  let end = text.indexOf('e');
  if (end === -1) end = text.indexOf('E');
  const exponentText = end === -1 ? '' : text.slice(end + 1);
  if (end === -1) end = text.length;
  const start = text.startsWith('-') ? 1 : 0;
  const dot = text.indexOf('.');
  const integer = text.slice(start, dot === -1 || dot > end ? end : dot);
  const fraction = dot === -1 || dot > end ? '' : text.slice(dot + 1, end);
  const digits = (integer + fraction).replace(/^0+/, '');
  const significant = digits.replace(/0+$/, '').length;
  if (significant > MAX_SIGNIFICANT_DIGITS) {
    return { bound: 'significant', message: `has ${significant} significant digits; at most ${MAX_SIGNIFICANT_DIGITS} are read` };
  }
  // The exponent moves the point: beyond a few digits it is out of bounds however the mantissa reads.
  const exponent = exponentText === '' ? 0 : exponentText.replace(/^[+-]/, '').replace(/^0+/, '').length > 9 ? Infinity * (exponentText.startsWith('-') ? -1 : 1) : Number(exponentText);
  if (significant === 0) {
    // A zero: only its places count (0.000 is three, 0e-200 two hundred, as its text is written out).
    const places = Math.max(0, fraction.length - exponent);
    return places > MAX_FRACTION_DIGITS ? placesProblem(places) : undefined;
  }
  // The leading digit's position: 10^lead. Its index in integer+fraction is the zeros before it.
  const leadIndex = (integer + fraction).length - digits.length;
  const lead = integer.length - 1 - leadIndex + exponent;
  if (lead + 1 > MAX_INTEGER_DIGITS) {
    return { bound: 'large', message: `is too large: ${Number.isFinite(lead) ? `${lead + 1} digits before the point` : 'its exponent is beyond any bound'}; at most ${MAX_INTEGER_DIGITS} are read` };
  }
  // Places in plain notation: the fraction's digits less the exponent, trailing zeros written included.
  const places = Math.max(0, fraction.length - exponent);
  if (places > MAX_FRACTION_DIGITS) return placesProblem(places);
  return undefined;
}

/**
 * The power of ten of the leading digit of decimal text (DECIMAL_SYNTAX, not zero): 2 for 227.10,
 * -3 for 0.0015 and 1.5e-3. From the text, whatever the exponent.
 */
export function leadingExponent(text: string): number {
  let end = text.indexOf('e');
  if (end === -1) end = text.indexOf('E');
  const exponent = end === -1 ? 0 : Number(text.slice(end + 1));
  if (end === -1) end = text.length;
  const start = text.startsWith('-') ? 1 : 0;
  const dot = text.indexOf('.');
  const integerEnd = dot === -1 || dot > end ? end : dot;
  let first = start;
  while (first < end && (text.charCodeAt(first) === 48 || first === integerEnd)) first++;
  // Digits between the point and the first non-zero digit, or before the point after it.
  const position = first < integerEnd ? integerEnd - first - 1 : -(first - integerEnd);
  return position + exponent;
}

function placesProblem(places: number): DecimalBoundsProblem {
  const shown = Number.isFinite(places) ? `${places} decimal places` : 'more decimal places than any bound';
  return { bound: 'places', message: `has ${shown}; at most ${MAX_FRACTION_DIGITS} are read` };
}
