// mkt quotes --watch (issue 7): polls the quotes every --interval, as a live board on a terminal or
// an NDJSON stream in a pipe. Loaded only with --watch, so plain `mkt quotes` does not pay for it.
//
// The watch ends with exit 0 on q, Ctrl-C or SIGTERM (the normal way to stop it) and when the reader
// of a pipe goes away. Rate limits stretch the interval instead of ending it, and transient errors
// (network, timeout, 5xx) are shown and retried with backoff for as long as the watch runs; 401 and
// 403 end it with exit 4 and 5 (main maps the errors), after the terminal is restored.
//
// --count N counts polls, failed ones included, so a watch with --count always ends, even against a
// service that is down or hangs (a CI job must not wait forever). If the last poll succeeded the exit
// is 0; if it failed, its error ends the watch as it would a plain `mkt quotes` (7 for the network,
// a timeout or a 5xx, 6 for a 429), instead of the "retrying at" that would never come.
import { NetworkError, RateLimitError, ServerError } from '../../api/errors.js';
import { DEFAULT_CONCURRENCY, getQuotes } from '../../api/quotes.js';
import type { HttpOptions } from '../../api/request.js';
import { createChangeTracker } from '../../render/changes.js';
import type { QuotesOptions } from '../commands/quotes.js';
import { requireCredentials } from '../credentials.js';
import type { Deps } from '../deps.js';
import { createHttp } from '../http.js';
import type { RunState } from '../main.js';
import { createBoardOutput } from './board-output.js';
import { isQuitKey, listenForKeys } from './keys.js';
import { afterFailure, afterRateLimit, afterSuccess, type NextPoll } from './pace.js';
import { createStreamOutput } from './stream-output.js';
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
}

export async function runWatch(
  deps: Deps, request: WatchRequest, options: QuotesOptions, state: RunState, terminal: WatchTerminal = createProcessTerminal(deps),
): Promise<number> {
  const settings = resolveWatchSettings(deps, options);
  const http = await createHttp(deps, options, state, request.concurrency ?? DEFAULT_CONCURRENCY);
  // q (read by the board) and SIGINT/SIGTERM (deps.signal) both end the watch through this signal,
  // which also cancels a request in flight and the wait between polls.
  const quit = new AbortController();
  const onInterrupt = () => quit.abort();
  if (deps.signal.aborted) return 0;
  deps.signal.addEventListener('abort', onInterrupt, { once: true });
  // On the board, nothing but frames may reach the terminal: stderr lines would scribble over it.
  const quiet: Partial<HttpOptions> = settings.board
    ? { onWait: undefined, onDebug: deps.io.stderrIsTTY ? undefined : http.onDebug }
    : {};
  const credentialHttp: HttpOptions = { ...http, ...quiet, signal: quit.signal };
  // One attempt per poll: the next poll is the retry, paced here rather than by the request layer.
  const pollHttp: HttpOptions = { ...credentialHttp, retries: 0 };

  let stopKeys = () => {};
  const stopOnClosedOutput = terminal.onOutputClosed(() => quit.abort());
  let output: WatchOutput | undefined;
  try {
    // Checked before the screen changes, so "not logged in" is an ordinary error message.
    await requireCredentials(deps, options, credentialHttp);
    output = settings.board
      ? createBoardOutput(deps, terminal, { color: settings.color, intervalMs: settings.intervalMs, maxAgeMs: request.maxAgeMs })
      : createStreamOutput(deps, { changesOnly: settings.changesOnly });
    if (settings.board && deps.io.stdinIsTTY) stopKeys = listenForKeys(deps.io.stdin, (key) => isQuitKey(key) && quit.abort());
    output.start();
    await pollUntilDone(deps, request, options, settings, output, { credentialHttp, pollHttp, signal: quit.signal });
    return 0;
  } catch (error) {
    if (quit.signal.aborted) return 0;
    throw error;
  } finally {
    output?.stop();
    stopKeys();
    stopOnClosedOutput();
    deps.signal.removeEventListener('abort', onInterrupt);
  }
}

interface PollContext {
  credentialHttp: HttpOptions;
  pollHttp: HttpOptions;
  signal: AbortSignal;
}

async function pollUntilDone(
  deps: Deps, request: WatchRequest, options: QuotesOptions, settings: WatchSettings, output: WatchOutput, context: PollContext,
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
      // Per poll: renews a client-credentials token before it expires (MKT_CLIENT_ID/SECRET).
      const credentials = await requireCredentials(deps, options, context.credentialHttp);
      const result = await getQuotes(context.pollHttp, {
        baseUrl: credentials.baseUrl,
        accessToken: credentials.accessToken,
        organizationId: credentials.organizationId,
        symbols: request.symbols,
        venue: request.venue,
        batchSize: request.batchSize,
        concurrency: request.concurrency,
      });
      const at = deps.now();
      successes++;
      failures = 0;
      next = afterSuccess(intervalMs, at - started, result.rateLimit, result.requests);
      output.update({ result, changes: tracker.update(result.data), polls: successes, at, throttledUntil: next.throttled ? at + next.delayMs : undefined });
      if (last) return;
    } catch (error) {
      if (context.signal.aborted) return;
      // No "retrying at" for a retry that will not happen: main reports the error and maps its code.
      if (last) throw error;
      if (error instanceof RateLimitError) {
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
      await deps.sleep(next.delayMs, context.signal);
    } catch (error) {
      if (context.signal.aborted) return;
      throw error;
    }
  }
}

/** Worth another try at the next poll: the network, a timeout, or the service's own trouble (5xx). */
export function isTransient(error: unknown): error is Error {
  return error instanceof NetworkError || error instanceof ServerError;
}
