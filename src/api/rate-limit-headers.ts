// What a response says about the rate limit: RateLimit-Limit, -Remaining and -Reset (or the older
// X-RateLimit-* names), RateLimit-Policy for the window's length, and Retry-After. Servers send odd
// values (a reset as a Unix time in seconds or in milliseconds, a Retry-After of centuries), so every
// wait read here is clamped to a year: a date past that cannot be printed, or handed to a timer.
import { MAX_HEADER_WAIT_MS } from '../shared/limits.js';
import type { RateLimitInfo } from './types.js';

/** Past this, a reset is a Unix time in seconds (as in GitHub's X-RateLimit-Reset), not seconds from now. */
const EPOCH_SECONDS = 1_000_000_000;
/** Past this, a Unix time in milliseconds (some APIs send that): as seconds from now it would be 31,000 years. */
const EPOCH_MILLISECONDS = 1_000_000_000_000;

export function readRateLimit(headers: Record<string, string>, now: number = Date.now()): RateLimitInfo | undefined {
  const pick = (name: string) => wholeNumber(headers[`ratelimit-${name}`] ?? headers[`x-ratelimit-${name}`]);
  const limit = pick('limit');
  const remaining = pick('remaining');
  let resetSeconds = pick('reset');
  if (resetSeconds !== undefined) {
    if (resetSeconds >= EPOCH_MILLISECONDS) resetSeconds = Math.ceil((resetSeconds - now) / 1000);
    else if (resetSeconds >= EPOCH_SECONDS) resetSeconds = Math.ceil(resetSeconds - now / 1000);
    resetSeconds = Math.min(Math.max(0, resetSeconds), MAX_HEADER_WAIT_MS / 1000);
  }
  if (limit === undefined && remaining === undefined && resetSeconds === undefined) return undefined;
  const info: RateLimitInfo = { limit, remaining, resetSeconds };
  const windowSeconds = policyWindow(headers['ratelimit-policy'] ?? headers['x-ratelimit-policy'], limit);
  if (windowSeconds !== undefined) info.windowSeconds = windowSeconds;
  return info;
}

function wholeNumber(value: string | undefined): number | undefined {
  return value !== undefined && /^\s*\d+\s*$/.test(value) ? Number(value) : undefined;
}

/**
 * The window, in seconds, of the policy whose quota is `limit`: `60;w=60, 1000;w=3600` (the IETF
 * draft's first form, which the sandbox sends) or `"minute";q=60;w=60` (its later form).
 */
export function policyWindow(policy: string | undefined, limit: number | undefined): number | undefined {
  if (policy === undefined || limit === undefined) return undefined;
  for (const item of policy.split(',')) {
    const [first = '', ...params] = item.split(';').map((part) => part.trim());
    let quota = wholeNumber(first);
    let window: number | undefined;
    for (const param of params) {
      const [name, value] = param.split('=', 2).map((part) => part.trim());
      if (name === 'q') quota = wholeNumber(value);
      else if (name === 'w') window = wholeNumber(value);
    }
    if (quota === limit && window !== undefined && window > 0) return Math.min(window, MAX_HEADER_WAIT_MS / 1000);
  }
  return undefined;
}

/** Retry-After in delta-seconds or as an HTTP-date (RFC 9110 §10.2.3), as milliseconds from now. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Math.min(Number(trimmed) * 1000, MAX_HEADER_WAIT_MS);
  // Every HTTP-date form starts with a day name; Date.parse would also take "1.5" or "-1" as dates.
  if (!/^[A-Za-z]{3}/.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.min(Math.max(0, date - now), MAX_HEADER_WAIT_MS);
}
