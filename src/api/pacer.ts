// Pacing under the service's rate limit: every answer says how many requests remain in the window
// (RateLimit-Remaining), when it resets (RateLimit-Reset), how many a window allows
// (RateLimit-Limit) and, in RateLimit-Policy, how long a window is. From these the pacer sends no
// request the limit would refuse: when the window is spent, every batch waits for its reset together
// (one wait, announced once); a 429 that came anyway holds back every batch until its Retry-After.
// And when the requests still to send need more waiting than maxWaitMs leaves, it says so at once,
// with the numbers, instead of spending the quota on requests whose results would be thrown away.
//
// The estimate is conservative: each request sent counts against it at once, and a response's
// figure is taken to leave out every request still in flight (the server may not have counted them
// yet). Within one window the estimate only ever goes down, so a late response carrying an older,
// higher figure cannot raise it.
import { RateLimitError, type RateLimitPlan } from './errors.js';
import { formatDuration, formatWait, perWindow, tryAgainAt } from '../shared/duration.js';
import { SAME_WINDOW_MS } from '../shared/limits.js';
import { sleep } from '../shared/sleep.js';
import type { CallProgress, Pacer, Transport } from './transport.js';
import type { WaitBudget } from './wait-budget.js';

/** The endpoint paced, for its errors: its method, URL and operation, and how a caller asks for less work per call. */
interface PacedEndpoint {
  method: string;
  url: string;
  operation: string;
  lessWork?: string;
}

/** `http`: the call's transport, with the wait budget and progress all its requests share. */
export function createPacer(http: Transport & { waitBudget: WaitBudget; progress: CallProgress }, paced: PacedEndpoint): Pacer {
  const now = http.now ?? Date.now;
  const wait = http.sleep ?? sleep;
  const { waitBudget: budget, progress } = http;
  /** Requests that may still be sent in this window; undefined while the service has not said. */
  let remaining: number | undefined;
  let limit: number | undefined;
  /** From RateLimit-Policy, when sent. */
  let windowMs: number | undefined;
  /** The longest time to a reset announced: without a policy, the window is at least this long. */
  let longestResetMs = 0;
  /** When the window resets, in `now()` milliseconds; undefined when the service has not said. */
  let resetAt: number | undefined;
  let inFlight = 0;
  /** Requests answered with success: the rest of the call's requests are still to send. */
  let succeeded = 0;
  /** The one wait for the reset that every batch shares. */
  let pause: { until: number; done: Promise<void> } | undefined;
  /** Waits ending by then were announced by the retry after a 429: not again. */
  let quietUntil = -Infinity;

  const startNewWindow = () => {
    remaining = limit;
    // Only a window length the service stated makes the next reset foreseeable.
    resetAt = windowMs !== undefined && resetAt !== undefined ? resetAt + windowMs : undefined;
  };

  /** Throws when the requests not yet sent cannot all go out within what is left of maxWaitMs. */
  const foresee = (at: number) => {
    if (remaining === undefined || resetAt === undefined) return;
    const pending = progress.total - succeeded - inFlight;
    const left = Math.max(0, remaining);
    if (pending <= left) return;
    const toReset = Math.max(0, resetAt - at);
    let waitMs = toReset;
    let plan: RateLimitPlan | undefined;
    if (limit !== undefined && limit > 0) {
      const window = windowMs ?? Math.max(longestResetMs, toReset);
      waitMs = toReset + (Math.ceil((pending - left) / limit) - 1) * window;
      plan = { requests: progress.total, limit, windowMs: window, waitMs, maxWaitMs: budget.maxMs, remaining: left, spentMs: budget.spentMs };
    }
    if (budget.fits(waitMs)) return;
    throw foreseen(plan, toReset, left);
  };

  const foreseen = (plan: RateLimitPlan | undefined, toReset: number, left: number) => {
    const context = { now };
    const maxWait = `maxWaitMs (${formatDuration(budget.maxMs)})`;
    const init = {
      status: 0, code: 'RATE_LIMITED', method: paced.method, url: paced.url, operation: paced.operation, attempts: 0, retryAfterMs: toReset, plan, maxWaitMs: budget.maxMs,
    };
    if (plan === undefined) {
      return new RateLimitError({
        ...init,
        message: `the rate limit allows no more requests for ${formatWait(toReset)}, longer than ${maxWait} allows; no request was sent for the rest`,
        hint: `try again after ${tryAgainAt(toReset, context)}`,
      });
    }
    const rate = `${plan.limit} request${plan.limit === 1 ? '' : 's'} ${perWindow(plan.windowMs)}`;
    return new RateLimitError({
      ...init,
      message: `${plan.requests} requests at ${rate} need about ${formatWait(plan.waitMs)} of waiting for the rate limit `
        + `(${left} left in this window, which resets in ${formatWait(toReset)}), longer than ${maxWait}; no request was sent for the rest`,
      hint: `allow a maxWaitMs of at least ${formatWait(plan.waitMs + budget.spentMs)}${paced.lessWork === undefined ? '' : `, or ${paced.lessWork}`}`,
    });
  };

  return {
    async acquire() {
      for (;;) {
        const at = now();
        if (resetAt !== undefined && at >= resetAt) startNewWindow();
        foresee(at);
        if (remaining === undefined || remaining > 0 || resetAt === undefined) break;
        if (pause === undefined || pause.until < resetAt) {
          const end = resetAt;
          const waitMs = end - at;
          // foresee() found it fits; reserving takes it (overlapping waits count once).
          budget.reserve(waitMs);
          http.onDebug?.(`* pacing: no requests left in this rate-limit window (RateLimit-Remaining: ${remaining}); waiting ${waitMs} ms for it to reset`);
          if (end > quietUntil) {
            http.onWait?.({ kind: 'rate-limit', waitMs, reason: 'no requests left in this rate-limit window', done: progress.done, total: progress.total });
          }
          const current = {
            until: end,
            done: wait(waitMs, http.signal).finally(() => {
              if (pause === current) pause = undefined;
            }),
          };
          pause = current;
        }
        const { until, done } = pause;
        await done;
        // The wait for this reset is over: the window is new, even by a clock that moved less.
        if (resetAt === until) startNewWindow();
      }
      inFlight++;
      if (remaining !== undefined) remaining--;
    },

    check: () => foresee(now()),

    release(answer) {
      inFlight--;
      if (answer === undefined) return;
      if (answer.status >= 200 && answer.status < 300) succeeded++;
      const info = answer.rateLimit;
      const refusedForMs = answer.status === 429 ? answer.retryAfterMs : undefined;
      if (info?.limit !== undefined) limit = info.limit;
      if (info?.windowSeconds !== undefined) windowMs = info.windowSeconds * 1000;
      if (info?.resetSeconds !== undefined) longestResetMs = Math.max(longestResetMs, info.resetSeconds * 1000);
      const at = now();
      if (refusedForMs !== undefined) {
        // Refused: nothing more goes out until the time the service named.
        const until = at + refusedForMs;
        remaining = 0;
        resetAt = resetAt !== undefined && resetAt > until ? resetAt : until;
        quietUntil = Math.max(quietUntil, until);
        return;
      }
      if (info?.remaining === undefined) return;
      const estimate = info.remaining - inFlight;
      const newResetAt = info.resetSeconds === undefined ? undefined : at + info.resetSeconds * 1000;
      const sameWindow = resetAt !== undefined && newResetAt !== undefined && Math.abs(newResetAt - resetAt) < SAME_WINDOW_MS;
      remaining = sameWindow && remaining !== undefined ? Math.min(remaining, estimate) : estimate;
      if (newResetAt !== undefined && !sameWindow) resetAt = newResetAt;
    },
  };
}

