// Durations on the command line: 500ms, 2s, 1m, 1h, or a plain number of seconds.
import { UsageError } from './errors.js';

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

export function parseDuration(text: string, name: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(text);
  if (!match) throw new UsageError(`${name} must be a duration such as 500ms, 2s, 1m or a number of seconds, not "${text.slice(0, 40)}"`);
  const ms = Math.round(Number(match[1]) * UNITS[match[2] ?? 's']!);
  if (!Number.isFinite(ms) || ms > 24 * 3_600_000) throw new UsageError(`${name} is too long: at most 24h`);
  return ms;
}

export function parseCount(text: string, name: string, { min = 0, max = 1_000_000 } = {}): number {
  if (!/^\s*\d+\s*$/.test(text)) throw new UsageError(`${name} must be a whole number, not "${text.slice(0, 40)}"`);
  const value = Number(text);
  if (value < min || value > max) throw new UsageError(`${name} must be between ${min} and ${max}, not ${value}`);
  return value;
}
