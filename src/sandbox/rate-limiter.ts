// Fixed-window rate limiting: per minute, hour and day, windows aligned to the clock (UTC minute,
// hour and midnight boundaries). Fixed windows make Retry-After and RateLimit-Reset exact and cost
// three comparisons per request. Node runs handlers one at a time, and admit() is synchronous, so
// the count is exact however many requests arrive at once.

const WINDOW_MS = [60_000, 3_600_000, 86_400_000] as const;

interface Bucket {
  starts: [number, number, number];
  counts: [number, number, number];
}

export interface RateDecision {
  allowed: boolean;
  /** For the binding window: the one with the fewest requests left (on a tie, the one resetting last). */
  limit: number;
  remaining: number;
  /** Whole seconds until the binding window resets, rounded up. */
  resetSeconds: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  /**
   * Counts a request against every window of `key` if all have room; otherwise counts nothing and
   * reports the exhausted window that resets last (no request can pass before then).
   */
  admit(key: string, limits: readonly [number, number, number], now: number): RateDecision {
    let bucket = this.buckets.get(key);
    if (bucket === undefined) {
      bucket = { starts: [-Infinity, -Infinity, -Infinity], counts: [0, 0, 0] };
      this.buckets.set(key, bucket);
    }
    let blocked = -1;
    let blockedEnd = -Infinity;
    for (let i = 0; i < 3; i++) {
      const size = WINDOW_MS[i] as number;
      // Only a later window starts afresh: a clock stepped back (NTP, a VM resumed) stays in the
      // latest window it reached, whose requests were already counted, until that window ends.
      const start = Math.max(Math.floor(now / size) * size, bucket.starts[i] as number);
      if (bucket.starts[i] !== start) {
        bucket.starts[i] = start;
        bucket.counts[i] = 0;
      }
      if ((bucket.counts[i] as number) >= (limits[i] as number) && start + size > blockedEnd) {
        blocked = i;
        blockedEnd = start + size;
      }
    }
    if (blocked >= 0) {
      return { allowed: false, limit: limits[blocked] as number, remaining: 0, resetSeconds: Math.ceil((blockedEnd - now) / 1000) };
    }
    let binding = 0;
    let bindingRemaining = Infinity;
    for (let i = 0; i < 3; i++) {
      const count = (bucket.counts[i] as number) + 1;
      bucket.counts[i] = count;
      const remaining = (limits[i] as number) - count;
      // Windows aligned to the epoch end in size order, so `<=` prefers the later reset on a tie.
      if (remaining <= bindingRemaining) {
        binding = i;
        bindingRemaining = remaining;
      }
    }
    const size = WINDOW_MS[binding] as number;
    return {
      allowed: true,
      limit: limits[binding] as number,
      remaining: bindingRemaining,
      resetSeconds: Math.ceil(((bucket.starts[binding] as number) + size - now) / 1000),
    };
  }
}
