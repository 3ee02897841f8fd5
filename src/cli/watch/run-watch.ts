// mkt quotes --watch: polls the quotes every --interval, as a live board on a terminal or
// an NDJSON stream in a pipe (a table per poll on a dumb terminal). Loaded only with --watch, so plain
// `mkt quotes` does not pay for it.
//
// The watch ends with exit 0 on q, Ctrl-C or SIGTERM (the normal way to stop it) and when the reader
// of a pipe goes away; Ctrl-Z on the board suspends it as it would any program (job-control.ts).
// Rate limits stretch the interval instead of ending it, and transient errors (network, timeout,
// 5xx) are shown and retried with backoff for as long as the watch runs; 401 and 403 end it with
// exit 4 and 5 (main maps the errors), after the terminal is restored.
//
// --count N counts polls, failed ones included, so a watch with --count always ends, even against a
// service that is down or hangs (a CI job must not wait forever). If the last poll succeeded the exit
// is 0; if it failed, its error ends the watch as it would a plain `mkt quotes` (7 for the network,
// a timeout or a 5xx, 6 for a 429), instead of the "retrying at" that would never come.
//
// Every wait is checked before a timer sees it (wait-until.ts): no wait the service asks for is
// longer than --max-wait (for a watch, by default 90 s: a rate window and some), and a Retry-After
// past it ends the watch with exit 6 and the time to come back. A timer given more than 2^31-1 ms
// fires at once, which once made a watch send 1,514 requests in 3 s against `Retry-After: 2592000`.
// Output that cannot be written ends the watch with exit 1. Only the symbols asked for are kept: a
// service sending new ones at every poll grew the board's history without end.
import { NetworkError, RateLimitError, ServerError, type Client } from '../../api/index.js';
import { outputError } from '../errors.js';
import { DEFAULT_CONCURRENCY, DEFAULT_MAX_WAIT_MS } from '../../shared/limits.js';
import { createChangeTracker } from '../../render/changes.js';
import type { History } from '../../render/sparkline.js';
import { formatDuration, formatWait, tryAgainAt } from '../../shared/duration.js';
import type { QuotesOptions } from '../options/quotes.js';
import type { Deps } from '../deps.js';
import { createCommandClient, type CliSettings } from '../client.js';
import type { RunState } from '../run-state.js';
import { runTerminal } from '../terminal.js';
import type { FormatChoice } from '../options/format.js';
import { createBoardOutput } from './board-output.js';
import { handleJobControl, type JobControl } from './job-control.js';
import { isQuitKey, isSuspendKey, listenForKeys, type KeyListener } from './keys.js';
import { createPlainOutput } from './plain-output.js';
import { afterFailure, afterRateLimit, afterSuccess, rateLimitWait, type NextPoll } from './pace.js';
import { createStreamOutput } from './stream-output.js';
import { waitUntil } from './wait-until.js';
import { createProcessTerminal, type WatchTerminal } from './terminal.js';
import { resolveWatchSettings, type WatchSettings } from './watch-settings.js';
import type { WatchOutput } from './watch-output.js';

/** What runQuotes has already checked: the symbols and the request options. */
export interface WatchRequest {
  symbols: string[];
  venue: string | undefined;
  batchSize: number | undefined;
  concurrency: number | undefined;
  maxAgeMs: number | undefined;
  /** The format asked for, as one-shot runs decide it (options/format.ts); undefined: the default. */
  format?: FormatChoice;
}

/** `history`: the board's sparkline memory (a test reads its size). */
export async function runWatch(
  deps: Deps, request: WatchRequest, options: QuotesOptions, state: RunState,
  terminal: WatchTerminal = createProcessTerminal(deps), history?: History,
): Promise<number> {
  const screen = runTerminal(deps, state);
  const settings = resolveWatchSettings(screen, options, request.format);
  // The credentials are checked here, before the screen changes, so "not logged in" is an ordinary error message.
  const command = await createCommandClient(deps, options, state, { concurrency: request.concurrency ?? DEFAULT_CONCURRENCY, longRunning: true });
  // --max-wait bounds each wait of the watch (90 s by default: a rate window and some).
  const maxWaitMs = command.settings.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
  // q (read by the board), SIGINT/SIGTERM (deps.signal) and an output that cannot be written all
  // end the watch through this signal, which also cancels a request in flight and the wait.
  const quit = new AbortController();
  const onInterrupt = () => quit.abort();
  if (deps.signal.aborted) return 0;
  deps.signal.addEventListener('abort', onInterrupt, { once: true });
  let output: WatchOutput | undefined;
  // On the board, nothing but frames may reach the terminal: stderr lines would scribble over it.
  // The library's waits inside a poll (the rate budget of a many-batch poll) show on the board.
  const quiet: Partial<CliSettings> = settings.board
    ? { onWait: (event) => event.kind === 'rate-limit' && output?.rateLimited(deps.now() + event.waitMs), onDebug: deps.io.stderrIsTTY ? undefined : command.settings.onDebug }
    : {};
  // One attempt per poll: the next poll is the retry, paced here rather than by the request layer.
  const client = command.with({ ...quiet, signal: quit.signal, retries: 0 });

  let keys: KeyListener | undefined;
  let jobControl: JobControl | undefined;
  let outputFailure: Error | undefined;
  const stopOnClosedOutput = terminal.onOutputClosed((failure) => {
    outputFailure ??= failure;
    quit.abort();
  });
  try {
    const board = settings.board
      ? createBoardOutput(deps, screen, terminal, {
        intervalMs: settings.intervalMs, maxAgeMs: request.maxAgeMs, changesOnly: settings.changesOnly, fields: settings.fields, history,
      })
      : undefined;
    output = board ?? (settings.plain
      ? createPlainOutput(screen, terminal, { intervalMs: settings.intervalMs, maxAgeMs: request.maxAgeMs, changesOnly: settings.changesOnly, fields: settings.fields })
      : createStreamOutput(screen, { changesOnly: settings.changesOnly, format: settings.format, fields: settings.fields }));
    if (board && deps.io.stdinIsTTY) keys = listenForKeys(deps.io.stdin, (key) => (isQuitKey(key) ? quit.abort() : isSuspendKey(key) && jobControl?.suspend()));
    output.start();
    // Ctrl-Z and fg (job-control.ts); elsewhere the terminal is left in its own mode and SIGTSTP
    // keeps its default action.
    if (board) jobControl = handleJobControl(terminal, keys ? [keys, board] : [board]);
    await pollUntilDone(deps, request, settings, output, { client, signal: quit.signal, maxWaitMs });
  } catch (error) {
    if (!quit.signal.aborted) throw error;
  } finally {
    jobControl?.stop();
    output?.stop(!quit.signal.aborted);
    keys?.stop();
    stopOnClosedOutput();
    deps.signal.removeEventListener('abort', onInterrupt);
  }
  if (outputFailure !== undefined) throw outputError(outputFailure);
  return 0;
}

interface PollContext {
  client: Client;
  signal: AbortSignal;
  /** The longest any one wait may be. */
  maxWaitMs: number;
}

async function pollUntilDone(
  deps: Deps, request: WatchRequest, settings: WatchSettings, output: WatchOutput, context: PollContext,
): Promise<void> {
  const tracker = createChangeTracker();
  const { intervalMs, count } = settings;
  /** Polls made, what --count counts. */
  let polls = 0;
  /** Polls that brought quotes, what the board shows. */
  let successes = 0;
  let failures = 0;
  while (!context.signal.aborted) {
    const started = deps.now();
    polls++;
    const last = count !== undefined && polls >= count;
    let next: NextPoll;
    try {
      // Per poll, the token source renews a client-credentials token before it expires
      // (MKT_CLIENT_ID/SECRET), and once after a 401, asking again.
      const result = await context.client.getQuotes({
        symbols: request.symbols,
        venue: request.venue,
        batchSize: request.batchSize,
        concurrency: request.concurrency,
      });
      // A batch size the service stated (in a 400 the library answered by shrinking it) is kept for
      // the next polls, which would otherwise each begin with that refusal.
      request.batchSize ??= Math.ceil(request.symbols.length / Math.max(1, result.requests));
      const at = deps.now();
      successes++;
      failures = 0;
      next = afterSuccess(intervalMs, at - started, result.rateLimit, result.requests, context.maxWaitMs);
      // Quotes for symbols not asked for are the library's to leave out (result.unasked).
      const { data, unasked: ignored } = result;
      output.update({
        result, ignored, changes: tracker.update(data), polls: successes, at, throttledUntil: next.throttled ? at + next.delayMs : undefined,
      });
      if (last) return;
    } catch (error) {
      if (context.signal.aborted) return;
      // No "retrying at" for a retry that will not happen: main reports the error and maps its code.
      if (last) throw error;
      // A poll that needs more waiting than --max-wait (the library's plan, before any refusal)
      // would need it again at every poll: say so and end, as a one-shot command does.
      if (error instanceof RateLimitError && error.plan !== undefined) throw error;
      if (error instanceof RateLimitError) {
        // What the service asks is held to --max-wait, not the interval, however long it is.
        const asked = rateLimitWait(error.retryAfterMs);
        if (!(asked <= context.maxWaitMs)) throw waitTooLong(error, asked, context.maxWaitMs, deps.now());
        next = afterRateLimit(intervalMs, error.retryAfterMs);
        output.rateLimited(deps.now() + next.delayMs);
      } else if (isTransient(error)) {
        failures++;
        next = afterFailure(intervalMs, failures, deps.random);
        output.failed(error, deps.now() + next.delayMs, failures);
      } else {
        throw error;
      }
    }
    try {
      await waitUntil(deps, deps.now() + next.delayMs, context.signal, output.tick);
    } catch (error) {
      if (context.signal.aborted) return;
      throw error;
    }
  }
}

/** A 429 whose wait passes --max-wait ends the watch: exit 6, with when to come back. */
function waitTooLong(error: RateLimitError, waitMs: number, maxWaitMs: number, now: number): RateLimitError {
  return new RateLimitError({
    status: error.status, code: error.code, method: error.method, url: error.url, operation: error.operation, attempts: error.attempts,
    body: error.body, requestId: error.requestId, retryAfterMs: error.retryAfterMs,
    message: `${error.message}; the service asks to wait ${formatWait(waitMs)}, longer than --max-wait ${formatDuration(maxWaitMs)}`,
    hint: `watch again after ${tryAgainAt(waitMs, { now: () => now })}, or allow a longer wait with --max-wait (at most 24h)`,
    cause: error,
  });
}

/** Worth another try at the next poll: the network, a timeout, or the service's own trouble (5xx). */
export function isTransient(error: unknown): error is Error {
  return error instanceof NetworkError || error instanceof ServerError;
}
