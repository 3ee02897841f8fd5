// A client-side rate budget for batched requests: the service says how many requests remain in the
// window (RateLimit-Remaining) and when it resets (RateLimit-Reset); when none remain, wait for the
// reset instead of running into 429s.
//
// The estimate is conservative: each request sent counts against it at once, and a response's
// figure is taken to leave out every request still in flight (the server may not have counted them
// yet). Within one window the estimate only ever goes down, so a late response carrying an older,
// higher figure cannot raise it.
import { sleep, type HttpOptions } from './request.js';
import type { RateLimitInfo } from './types.js';

export interface RateBudget {
  /** Waits, when the window is spent, until it resets (within the caller's --max-wait). */
  acquire(): Promise<void>;
  release(): void;
  update(info: RateLimitInfo | undefined): void;
}

/** Two reset times this close apart describe the same window (Reset is in whole seconds). */
const SAME_WINDOW_MS = 1000;

export function createRateBudget(http: HttpOptions): RateBudget {
  const now = http.now ?? Date.now;
  const wait = http.sleep ?? sleep;
  const maxWaitMs = http.maxWaitMs ?? 30_000;
  /** Requests that may still be sent in this window; undefined while the service has not said. */
  let remaining: number | undefined;
  let limit: number | undefined;
  /** When the window resets, in `now()` milliseconds; undefined when the service has not said. */
  let resetAt: number | undefined;
  let inFlight = 0;
  let waited = 0;
  /** The one wait for the reset that every worker shares, so it counts once against --max-wait. */
  let pause: Promise<void> | undefined;

  const startNewWindow = () => {
    remaining = limit;
    resetAt = undefined;
  };

  return {
    async acquire() {
      for (;;) {
        if (remaining === undefined || remaining > 0) break;
        const waitMs = resetAt === undefined ? 0 : resetAt - now();
        if (waitMs <= 0) {
          // Past the reset (or no reset given): a new window, as far as we know.
          startNewWindow();
          continue;
        }
        if (pause === undefined) {
          // Longer than the caller allows: let the server decide (a 429 carries Retry-After, and
          // the retry policy fails at once with the time to try again).
          if (waited + waitMs > maxWaitMs) break;
          http.onDebug?.(`* rate budget spent (RateLimit-Remaining: ${remaining}); waiting ${waitMs} ms for the window to reset`);
          http.onThrottle?.(waitMs);
          waited += waitMs;
          pause = wait(waitMs, http.signal).finally(() => {
            pause = undefined;
          });
        }
        await pause;
      }
      inFlight++;
      if (remaining !== undefined) remaining--;
    },
    release() {
      inFlight--;
    },
    update(info) {
      if (info === undefined) return;
      if (info.limit !== undefined) limit = info.limit;
      if (info.remaining === undefined) return;
      const estimate = info.remaining - inFlight;
      const newResetAt = info.resetSeconds === undefined ? undefined : now() + info.resetSeconds * 1000;
      const sameWindow = resetAt !== undefined && newResetAt !== undefined && Math.abs(newResetAt - resetAt) < SAME_WINDOW_MS;
      remaining = sameWindow && remaining !== undefined ? Math.min(remaining, estimate) : estimate;
      if (newResetAt !== undefined && !sameWindow) resetAt = newResetAt;
    },
  };
}
