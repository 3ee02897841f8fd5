// Whole numbers from text (flags, environment variables): one parser, one wording, for every layer.
import { UsageError } from './errors.js';

export interface IntegerRange {
  min?: number;
  max?: number;
}

/**
 * A decimal integer within [min, max] (defaults 0 and Number.MAX_SAFE_INTEGER); a sign only where
 * `min` allows negatives. Anything else is a UsageError naming `name`.
 */
export function parseInteger(text: string, name: string, { min = 0, max = Number.MAX_SAFE_INTEGER }: IntegerRange = {}): number {
  const trimmed = text.trim();
  const value = (min < 0 ? /^[-+]?\d{1,16}$/ : /^\+?\d{1,16}$/).test(trimmed) ? Number(trimmed) : Number.NaN;
  if (!Number.isSafeInteger(value)) throw new UsageError(`${name} must be a whole number, not "${text.slice(0, 40)}"`);
  if (value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `at least ${min}` : `between ${min} and ${max}`;
    throw new UsageError(`${name} must be ${range}, not ${value}`);
  }
  return value;
}
