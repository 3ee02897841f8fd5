// maxWaitMs is wall-clock time spent waiting, for one call in all: retry waits and pacing waits of
// every batch draw from it. Waits that run at the same time count once (three batches waiting the
// same 11 s spend 11 s, not 33), because what the caller feels is the time the call stands still.

/** The time one call may spend waiting, in all (maxWaitMs). */
export interface WaitBudget {
  readonly maxMs: number;
  /** Waiting counted so far: the length of the union of the waits reserved. */
  readonly spentMs: number;
  /** Whether a wait of `ms` starting now would fit, without taking it. */
  fits(ms: number): boolean;
  /**
   * Takes a wait of `ms` starting now if it fits, and says whether it did: checking and taking in
   * one call, before the wait starts, so that waits starting together cannot both take the last of it.
   */
  reserve(ms: number): boolean;
}

export function createWaitBudget(maxMs: number, now: () => number = Date.now): WaitBudget {
  let spentMs = 0;
  /** When the latest reserved wait ends: a wait starting earlier overlaps it up to there. */
  let waitingUntil = -Infinity;
  const added = (ms: number) => {
    const start = now();
    return Math.max(0, start + ms - Math.max(start, waitingUntil));
  };
  return {
    maxMs,
    get spentMs() {
      return spentMs;
    },
    fits: (ms) => spentMs + added(ms) <= maxMs,
    reserve(ms) {
      const extra = added(ms);
      if (spentMs + extra > maxMs) return false;
      spentMs += extra;
      waitingUntil = Math.max(waitingUntil, now() + ms);
      return true;
    },
  };
}
