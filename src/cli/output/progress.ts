// What a person sees while a command works and waits. Every wait longer than about 2 s is announced
// on stderr, in a pipe too: one line when it starts (`waiting 58s for the rate limit (60/100
// requests done)`), so a job's log says why it sat still. A terminal also shows progress: the
// `fetched 3/10 batches` line, which counts a long wait down. Shorter waits are announced only on a
// terminal or with --verbose; --quiet silences all of it (warnings and errors still print). What
// is said goes through the run's diagnostics (diagnostics.ts), which own the progress line: they
// clear it before anything else is written, and under a JSON format a wait is a JSON line and the
// progress line is not drawn.
import type { WaitEvent } from '../../api/index.js';
import { formatDuration, formatWait } from '../../shared/duration.js';
import type { Deps } from '../deps.js';
import { diagnosticsOf } from './diagnostics.js';
import { isDebug } from '../io.js';

/** Waits longer than this are announced wherever stderr goes. */
const ANNOUNCE_WAITS_OVER_MS = 2000;

export interface Progress {
  onWait(event: WaitEvent): void;
  /** `done` of `total` requests have completed. */
  onBatch(done: number, total: number): void;
}

export interface ProgressOptions {
  quiet?: boolean;
  verbose?: boolean;
}

export function createProgress(deps: Deps, options: ProgressOptions): Progress {
  const tty = deps.io.stderrIsTTY;
  const verbose = options.verbose === true || isDebug(deps.env);
  const diagnostics = diagnosticsOf(deps);
  /** The wait last told, so that batches waiting out the same Retry-After are told once. */
  let told: { kind: WaitEvent['kind']; attempt: number | undefined; end: number } | undefined;
  const batches = (done: number, total: number) => `fetched ${done}/${total} batches`;

  return {
    onBatch(done, total) {
      if (options.quiet || total < 3) return diagnostics.progress(undefined);
      diagnostics.progress(batches(done, total));
    },
    onWait(event) {
      if (options.quiet) return;
      const long = event.waitMs > ANNOUNCE_WAITS_OVER_MS;
      if (!long && !tty && !verbose) return;
      const end = deps.now() + event.waitMs;
      if (told?.kind === event.kind && told.attempt === event.attempt && Math.abs(told.end - end) < 1000) return;
      told = { kind: event.kind, attempt: event.attempt, end };
      diagnostics.wait(event, describeWait(event));
      if (!long) return diagnostics.progress(undefined);
      diagnostics.countdown(end, (left) => `${event.total > 1 ? `${batches(event.done, event.total)}; ` : ''}waiting ${formatWait(left)} ${event.kind === 'rate-limit' ? 'for the rate limit' : 'to retry'}`);
    },
  };
}

/** `waiting 58s for the rate limit (60/100 requests done)`, `503 Service Unavailable; retrying in 2s (1/2)`. */
export function describeWait(event: WaitEvent): string {
  const wait = describeSpan(event.waitMs);
  if (event.kind === 'rate-limit') return `waiting ${wait} for the rate limit (${event.done}/${event.total} requests done)`;
  const attempt = event.attempt === undefined || event.retries === undefined ? '' : ` (${event.attempt - 1}/${event.retries})`;
  return `${event.reason}; retrying in ${wait}${attempt}`;
}

/** Short waits as they are (`800ms`, `1.5s`); longer ones as the service counts them (`58s`). */
function describeSpan(ms: number): string {
  return ms < 10_000 ? formatDuration(ms) : formatWait(ms);
}
