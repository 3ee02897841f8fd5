// The one real wait, for every layer: the client's retries and pacing, the watch's polls. Tests
// hand a fake in its place (createClient's seam, Deps.sleep) instead of waiting.
import { AbortError } from './errors.js';
import { MAX_TIMER_MS } from './limits.js';

/**
 * Resolves after `ms` (any number: a wait longer than a timer can hold is slept in parts, a negative
 * or NaN one is no wait); rejects with AbortError as soon as `signal` aborts.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new AbortError());
    let left = ms > 0 ? ms : 0;
    let timer: NodeJS.Timeout;
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortError());
    };
    const arm = () => {
      const step = Math.min(left, MAX_TIMER_MS);
      left -= step;
      timer = setTimeout(() => {
        if (left > 0) return arm();
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, step);
    };
    arm();
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
