// When to poll next. Pure, so the rate-limit arithmetic is tested without a clock.
//
// The interval is start-to-start. The service's RateLimit-Remaining and RateLimit-Reset stretch it
// when the requests left would run out before the window resets at the asked pace: the remaining
// polls are then spread evenly until the reset, instead of running into a 429 (which ticker tools
// answer by exiting). A 429 waits for Retry-After; transient errors, and a 429 that asks for no
// wait, back off exponentially. No
// wait is ever shorter than what is left of the interval, and none longer than --max-wait: a
// stretch past it is not made (the service decides with a 429), a Retry-After past it ends the
// watch (run-watch.ts).
import type { RateLimitInfo } from '../../api/index.js';
import { MAX_WATCH_BACKOFF_MS } from '../../shared/limits.js';
/**
 * Stretches shorter than this are not reported as throttling: at 1 s against 60 a minute, the
 * pacing adds a few milliseconds per poll, which is not news to the reader.
 */
const THROTTLE_REPORT_MS = 1000;

export interface NextPoll {
  /** Milliseconds from now. */
  delayMs: number;
  /** Set when the rate limit made the wait noticeably longer than the interval. */
  throttled: boolean;
}

/**
 * After a successful poll that took `elapsedMs` and sent `requests` requests (one per batch of
 * symbols). A stretch longer than `maxWaitMs` is not made: a reset that far off is more likely a
 * header in other units (X-RateLimit-Reset in epoch milliseconds) than a window, and if it is one,
 * the service's 429 says so, and how long, at the next poll.
 */
export function afterSuccess(
  intervalMs: number, elapsedMs: number, rateLimit: RateLimitInfo | undefined, requests = 1, maxWaitMs = Number.POSITIVE_INFINITY,
): NextPoll {
  const regular = Math.max(0, intervalMs - elapsedMs);
  const remaining = rateLimit?.remaining;
  const resetSeconds = rateLimit?.resetSeconds;
  if (remaining === undefined || resetSeconds === undefined) return { delayMs: regular, throttled: false };
  const resetMs = resetSeconds * 1000;
  const pollsLeft = Math.floor(remaining / Math.max(1, requests));
  if (pollsLeft > 0 && pollsLeft * intervalMs >= resetMs) return { delayMs: regular, throttled: false };
  // The window's reset is counted from now, so the spacing is too.
  const delayMs = pollsLeft <= 0 ? Math.max(regular, resetMs) : Math.max(regular, Math.ceil(resetMs / pollsLeft));
  if (!(delayMs <= maxWaitMs)) return { delayMs: regular, throttled: false };
  return { delayMs, throttled: delayMs - regular >= THROTTLE_REPORT_MS };
}

/**
 * After the `refusals`-th 429 in a row: the wait it asked for (its Retry-After, or the reset of the
 * window it says is spent), never less than the interval. One that asks for no wait mkt can read
 * (no Retry-After, or one that is neither whole seconds nor an HTTP date: `soon`, `-5`, `0.001`)
 * backs off as a failure does, from the interval: a fixed minute paused a 1 s watch for 60 s on
 * a header that said nothing.
 */
export function afterRateLimit(intervalMs: number, retryAfterMs: number | undefined, refusals: number, random: () => number): NextPoll {
  const delayMs = retryAfterMs === undefined ? afterFailure(intervalMs, refusals, random).delayMs : Math.max(intervalMs, retryAfterMs);
  return { delayMs, throttled: true };
}

/**
 * After the `failures`-th transient error in a row: the interval doubled per failure up to 30 s,
 * with "equal jitter" (half fixed, half random) so many watchers do not retry in step.
 */
export function afterFailure(intervalMs: number, failures: number, random: () => number): NextPoll {
  const ceiling = Math.min(MAX_WATCH_BACKOFF_MS, Math.max(intervalMs, intervalMs * 2 ** Math.min(failures - 1, 16)));
  const delayMs = Math.max(intervalMs, Math.round(ceiling / 2 + (random() * ceiling) / 2));
  return { delayMs, throttled: false };
}
