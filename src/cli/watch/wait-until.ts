// The watch's one way to wait: by the clock, in one sleep (deps.sleep takes any delay: a 30-day
// Retry-After once made a watch poll 1,514 times in 3 s, through a timer that fired at once), or in
// slices of a second when the board redraws its ages meanwhile.
import type { Deps } from '../deps.js';

/** How often the board redraws while the watch waits, so that ages grow: at most once a second. */
const REDRAW_MS = 1000;

/**
 * Sleeps until `deadline` (deps.now() time): in one sleep, or in slices of a second when there is a
 * `tick` to call between them. Rejects when `signal` aborts.
 */
export async function waitUntil(deps: Deps, deadline: number, signal: AbortSignal, tick: (() => void) | undefined): Promise<void> {
  const slice = tick === undefined ? Number.POSITIVE_INFINITY : REDRAW_MS;
  for (let left = deadline - deps.now(); left > 0; left = deadline - deps.now()) {
    await deps.sleep(Math.min(left, slice), signal);
    if (tick !== undefined && deadline > deps.now()) tick();
  }
}
