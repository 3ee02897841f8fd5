// A client-side rate budget for batched requests: the service says how many requests remain in the
// window (RateLimit-Remaining) and when it resets (RateLimit-Reset); when none remain, wait for the
// reset instead of running into 429s.
import { sleep, type HttpOptions } from './request.js';
import type { RateLimitInfo } from './types.js';

export interface RateBudget {
  /** Waits, when the window is spent, until it resets (within the caller's --max-wait). */
  acquire(): Promise<void>;
  release(): void;
  update(info: RateLimitInfo | undefined): void;
}

export function createRateBudget(http: HttpOptions): RateBudget {
  const now = http.now ?? Date.now;
  const wait = http.sleep ?? sleep;
  const maxWaitMs = http.maxWaitMs ?? 30_000;
  let remaining: number | undefined;
  let resetAt = 0;
  let inFlight = 0;
  let waited = 0;
  // `remaining` counts down as requests are sent, from the figure in the latest response.

  return {
    async acquire() {
      while (remaining !== undefined && remaining <= 0) {
        const waitMs = resetAt - now();
        // Past the reset, or longer than the caller allows: let the server decide (a 429 carries
        // Retry-After, and the retry policy reports it).
        if (waitMs <= 0 || waited + waitMs > maxWaitMs) break;
        http.onDebug?.(`* rate budget spent (RateLimit-Remaining: ${remaining}); waiting ${waitMs} ms for the window to reset`);
        http.onThrottle?.(waitMs);
        await wait(waitMs, http.signal);
        waited += waitMs;
        remaining = undefined;
      }
      inFlight++;
      if (remaining !== undefined) remaining--;
    },
    release() {
      inFlight--;
    },
    update(info) {
      if (info?.remaining === undefined) return;
      // Requests still in flight may not be counted in the server's figure yet: assume they are not.
      remaining = info.remaining - inFlight;
      if (info.resetSeconds !== undefined) resetAt = now() + info.resetSeconds * 1000;
    },
  };
}
