// Durations, read from people (500ms, 2s, 1m, 1h, or a plain number of seconds) and written for them.
import { UsageError } from './errors.js';
import { MAX_DURATION_MS } from './limits.js';
import { formatAge } from './time.js';

const UNITS = new Map([['ms', 1], ['s', 1000], ['m', 60_000], ['h', 3_600_000]]);

/** Milliseconds; `name` (a flag or variable) is named in the error. At most 24 hours. */
export function parseDuration(text: string, name: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(text);
  if (!match) throw new UsageError(`${name} must be a duration such as 500ms, 2s, 1m or a number of seconds, not "${text.slice(0, 40)}"`);
  const ms = Math.round(Number(match[1]) * UNITS.get(match[2] ?? 's')!);
  if (!Number.isFinite(ms) || ms > MAX_DURATION_MS) throw new UsageError(`${name} is too long: at most 24h`);
  return ms;
}

/** 500ms, 2s, 1.5s, 1m, 90s, 2h: intervals and timeouts in messages, in the form flags take. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${(ms / 1000).toFixed(1)}s`;
}

/** A wait, in whole seconds rounded up: `58s`, `1m40s`, `2m`; from an hour up, `2h 5m` or `30d`. */
export function formatWait(ms: number): string {
  if (ms >= 3_600_000) return formatAge(ms);
  const seconds = Math.ceil(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  return `${Math.floor(seconds / 60)}m${seconds % 60 === 0 ? '' : `${seconds % 60}s`}`;
}

const WINDOW_NAMES = new Map([[1000, 'a second'], [60_000, 'a minute'], [3_600_000, 'an hour'], [86_400_000, 'a day']]);

/** A rate limit's window in words: `a minute`, `an hour`, `per 45s`. */
export function perWindow(windowMs: number): string {
  return WINDOW_NAMES.get(windowMs) ?? `per ${formatDuration(windowMs)}`;
}

/** `14:03:07 UTC (in 42s)`; a day or more ahead, with the date: `2026-04-11 14:03:07 UTC (in 30d)`. */
export function tryAgainAt(waitMs: number, context: { now?: () => number }): string {
  const iso = new Date((context.now ?? Date.now)() + waitMs).toISOString();
  const at = waitMs < 86_400_000 ? iso.slice(11, 19) : `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
  return `${at} UTC (in ${formatWait(waitMs)})`;
}
