// A client-side rate budget for batched requests: the service says how many requests remain in the
// window (RateLimit-Remaining) and when it resets (RateLimit-Reset); when none remain, wait for the
// reset instead of running into 429s.
//
// The estimate is conservative: each request sent counts against it at once, and a response's
// figure is taken to leave out every request still in flight (the server may not have counted them
// yet). Within one window the estimate only ever goes down, so a late response carrying an older,
// higher figure cannot raise it.
import type { Pacer } from './endpoint.js';
import { createWaitBudget, DEFAULTS, sleep, type TransportOptions } from './request.js';

/** A Pacer that waits, when the window is spent, until it resets (within what is left of maxWaitMs). */
export type RateBudget = Pacer;

/** Two reset times this close apart describe the same window (Reset is in whole seconds). */
const SAME_WINDOW_MS = 1000;

export function createRateBudget(http: TransportOptions): RateBudget {
  const now = http.now ?? Date.now;
  const wait = http.sleep ?? sleep;
  // The same budget as the retries of the requests it paces (getQuotes passes one), so that
  // --max-wait caps the command's waiting in all.
  const waitBudget = http.waitBudget ?? createWaitBudget(http.maxWaitMs ?? DEFAULTS.maxWaitMs);
  /** Requests that may still be sent in this window; undefined while the service has not said. */
  let remaining: number | undefined;
  let limit: number | undefined;
  /** When the window resets, in `now()` milliseconds; undefined when the service has not said. */
  let resetAt: number | undefined;
  let inFlight = 0;
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
          // Longer than what is left of --max-wait: let the server decide (a 429 carries
          // Retry-After, and the retry policy fails at once with the time to try again).
          if (!waitBudget.reserve(waitMs)) break;
          http.onDebug?.(`* rate budget spent (RateLimit-Remaining: ${remaining}); waiting ${waitMs} ms for the window to reset`);
          http.onThrottle?.(waitMs);
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
