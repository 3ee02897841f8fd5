// Times as mkt shows them to a person: local wall-clock time, ages, and whether a quote is stale.
import { CLOCK_SKEW_MS } from './limits.js';

/** HH:MM:SS in the local time zone: the board and its warnings are read by a person at this machine. */
export function formatClock(ms: number): string {
  return new Date(ms).toTimeString().slice(0, 8);
}

/** Human durations for ages and expiry: 42s, 3m, 2h 5m, 3d. */
export function formatAge(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return minutes % 60 === 0 ? `${hours}h` : `${hours}h ${minutes % 60}m`;
  return `${Math.floor(hours / 24)}d`;
}


/** A timestamp more than the clock-skew allowance ahead of `now`. */
export function isFuture(timestamp: string, now: number): boolean {
  return Date.parse(timestamp) - now > CLOCK_SKEW_MS;
}

/** A quote is stale when its timestamp is more than `maxAgeMs` before `now`. */
export function isStale(timestamp: string, now: number, maxAgeMs: number): boolean {
  return now - Date.parse(timestamp) > maxAgeMs;
}
