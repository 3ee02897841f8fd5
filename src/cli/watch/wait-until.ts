// The watch's one way to wait: by the clock, in slices no timer can mishandle. setTimeout fires at
// once for a delay over 2^31-1 ms (about 24.8 days), with a TimeoutOverflowWarning; a watch that
// handed it a 30-day Retry-After polled 1,514 times in 3 s.
import type { Deps } from '../deps.js';

/** The longest a timer is given. */
export const MAX_TIMER_MS = 2 ** 31 - 1;
/** How often the board redraws while the watch waits, so that ages grow: at most once a second. */
export const REDRAW_MS = 1000;

/**
 * Sleeps until `deadline` (deps.now() time): in one sleep, or in slices of a second when there is a
 * `tick` to call between them; never a slice longer than MAX_TIMER_MS. Rejects when `signal` aborts.
 */
export async function waitUntil(deps: Deps, deadline: number, signal: AbortSignal, tick: (() => void) | undefined): Promise<void> {
  const slice = tick === undefined ? MAX_TIMER_MS : REDRAW_MS;
  for (let left = deadline - deps.now(); left > 0; left = deadline - deps.now()) {
    await deps.sleep(Math.min(left, slice), signal);
    if (tick !== undefined && deadline > deps.now()) tick();
  }
}
