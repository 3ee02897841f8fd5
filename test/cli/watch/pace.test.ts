// When the next poll is due: the interval, stretched by the rate limit, and backoff after errors.
import { describe, expect, it } from 'vitest';
import { afterFailure, afterRateLimit, afterSuccess } from '../../../src/cli/watch/pace.js';
import { MAX_WATCH_BACKOFF_MS } from '../../../src/shared/limits.js';

describe('afterSuccess', () => {
  it.each([
    // interval, elapsed, remaining, reset s, requests per poll -> delay, throttled
    ['no rate-limit headers', 2000, 150, undefined, undefined, 1, 1850, false],
    ['plenty left', 2000, 0, 58, 60, 1, 2000, false],
    ['a slow poll takes from the wait', 2000, 500, 58, 60, 1, 1500, false],
    ['a poll longer than the interval: next at once', 2000, 2500, 58, 60, 1, 0, false],
    // 1 s against 60 a minute: stretched by milliseconds, not reported.
    ['1 s at the edge of 60/min', 1000, 0, 59, 60, 1, 1017, false],
    ['runs low: spread the rest until the reset', 2000, 0, 3, 30, 1, 10_000, true],
    ['none left: wait for the reset', 2000, 0, 0, 42, 1, 42_000, true],
    ['none left, reset sooner than the interval', 2000, 0, 0, 1, 1, 2000, false],
    ['several batches per poll count as several requests', 2000, 0, 10, 30, 4, 15_000, true],
    ['fewer requests left than one poll needs', 2000, 0, 3, 30, 4, 30_000, true],
  ] as const)('%s', (_name, interval, elapsed, remaining, reset, requests, delay, throttled) => {
    const rateLimit = remaining === undefined ? undefined : { limit: 60, remaining, resetSeconds: reset };
    expect(afterSuccess(interval, elapsed, rateLimit, requests)).toEqual({ delayMs: delay, throttled });
  });

  it.each([
    // remaining, reset s -> delay: within --max-wait (90 s) a stretch is made, past it the interval is kept
    [0, 42, 42_000],
    [0, 90, 90_000],
    [0, 91, 2000],
    [1, 120, 2000],
    [0, 1_767_225_600_000 - 1_767_225_600, 2000], // X-RateLimit-Reset in epoch ms, read as seconds
    [0, Number.NaN, 2000],
  ])('remaining %s, reset in %s s, --max-wait 90s -> %s ms', (remaining, reset, delay) => {
    expect(afterSuccess(2000, 0, { limit: 60, remaining, resetSeconds: reset }, 1, 90_000).delayMs).toBe(delay);
  });
});

describe('afterRateLimit', () => {
  it.each([
    // interval, Retry-After ms, 429s in a row, random -> delay
    [2000, 45_000, 1, 1, 45_000],
    [2000, 45_000, 5, 1, 45_000], // what is asked, however many came before
    [2000, 500, 1, 1, 2000], // never sooner than the interval
    // No wait to read: the backoff of a failure, from the interval.
    [1000, undefined, 1, 1, 1000],
    [1000, undefined, 2, 1, 2000],
    [1000, undefined, 3, 0, 2000],
    [1000, undefined, 6, 1, 30_000],
    [1000, undefined, 100, 1, MAX_WATCH_BACKOFF_MS],
  ])('interval %s, Retry-After %s ms, 429 %s in a row, random %s -> %s ms', (interval, retryAfter, refusals, random, delay) => {
    expect(afterRateLimit(interval, retryAfter, refusals, () => random)).toEqual({ delayMs: delay, throttled: true });
  });
});

describe('afterFailure', () => {
  it.each([
    // interval, failures, random -> delay
    [2000, 1, 0, 2000],
    [2000, 1, 1, 2000],
    [2000, 2, 1, 4000],
    [2000, 2, 0, 2000],
    [2000, 3, 0.5, 6000],
    [2000, 10, 1, MAX_WATCH_BACKOFF_MS], // capped
    [2000, 100, 1, MAX_WATCH_BACKOFF_MS], // no overflow however long it fails
    [60_000, 3, 1, 60_000], // never sooner than the interval
  ])('interval %s, failure %s, random %s -> %s ms', (interval, failures, random, delay) => {
    expect(afterFailure(interval, failures, () => random).delayMs).toBe(delay);
  });
});
