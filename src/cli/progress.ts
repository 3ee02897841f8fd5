// What a person sees while a command works and waits. Every wait longer than about 2 s is announced
// on stderr, in a pipe too: one line when it starts (`waiting 58s for the rate limit (60/100
// requests done)`), so a job's log says why it sat still. A terminal also shows progress: the
// `fetched 3/10 batches` line, which counts a long wait down. Shorter waits are announced only on a
// terminal or with --verbose; --quiet silences all of it (warnings and errors still print).
import type { WaitEvent } from '../api/index.js';
import { formatDuration, formatWait } from '../shared/duration.js';
import type { Deps } from './deps.js';
import { isDebug } from './io.js';

/** Waits longer than this are announced wherever stderr goes. */
const ANNOUNCE_WAITS_OVER_MS = 2000;

export interface Progress {
  onWait(event: WaitEvent): void;
  /** `done` of `total` requests have completed. */
  onBatch(done: number, total: number): void;
  /** Clears the progress line and stops any countdown. */
  stop(): void;
}

export interface ProgressOptions {
  quiet?: boolean;
  verbose?: boolean;
}

export function createProgress(deps: Deps, options: ProgressOptions): Progress {
  const tty = deps.io.stderrIsTTY;
  const verbose = options.verbose === true || isDebug(deps.env);
  /** Whether the transient line (no newline) is showing. */
  let shown = false;
  let countdown: ReturnType<typeof setInterval> | undefined;
  /** The wait last told, so that batches waiting out the same Retry-After are told once. */
  let told: { kind: WaitEvent['kind']; attempt: number | undefined; end: number } | undefined;

  const stopCountdown = () => {
    if (countdown !== undefined) clearInterval(countdown);
    countdown = undefined;
  };
  const transient = (text: string) => {
    deps.io.stderr.write(`\r\u001b[2K${text}`);
    shown = true;
  };
  const batches = (done: number, total: number) => `fetched ${done}/${total} batches`;

  return {
    onBatch(done, total) {
      stopCountdown();
      if (options.quiet || !tty || total < 3) return;
      transient(batches(done, total));
    },
    onWait(event) {
      if (options.quiet) return;
      const long = event.waitMs > ANNOUNCE_WAITS_OVER_MS;
      if (!long && !tty && !verbose) return;
      const end = deps.now() + event.waitMs;
      if (told?.kind === event.kind && told.attempt === event.attempt && Math.abs(told.end - end) < 1000) return;
      told = { kind: event.kind, attempt: event.attempt, end };
      stopCountdown();
      // On a terminal, the progress line may be showing: clear it first.
      deps.io.stderr.write(`${tty ? '\r\u001b[2K' : ''}${describeWait(event)}\n`);
      shown = false;
      if (!tty || !long) return;
      const tick = () => {
        const left = end - deps.now();
        if (left <= 0) return stopCountdown();
        transient(`${event.total > 1 ? `${batches(event.done, event.total)}; ` : ''}waiting ${formatWait(left)} ${event.kind === 'rate-limit' ? 'for the rate limit' : 'to retry'}`);
      };
      tick();
      countdown = setInterval(tick, 1000);
      countdown.unref();
    },
    stop() {
      stopCountdown();
      if (shown) deps.io.stderr.write('\r\u001b[2K');
      shown = false;
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
