// mkt quotes --watch, and the watch of any resource (watched-resource.ts): polls it every
// --interval, as a live board on a terminal or a stream in a pipe (a table per poll on a dumb
// terminal). Loaded only with --watch, so a one-shot run does not pay for it.
//
// The watch ends with exit 0 on q, Ctrl-C or SIGTERM (the normal way to stop it) and when the reader
// of a pipe goes away; Ctrl-Z on the board suspends it as it would any program (job-control.ts).
// Rate limits stretch the interval instead of ending it, and transient errors (network, timeout,
// 5xx) are shown and retried with backoff for as long as the watch runs; 401 and 403 end it with
// exit 4 and 5 (main maps the errors), after the terminal is restored.
//
// --count N counts polls, failed ones included, so a watch with --count always ends, even against a
// service that is down or hangs (a CI job must not wait forever). If the last poll succeeded the exit
// is 0; if it failed, its error ends the watch as it would a one-shot run (7 for the network, a
// timeout or a 5xx, 6 for a 429), instead of the "retrying at" that would never come.
//
// --until EXPR (repeatable) ends the watch with exit 0 at the first successful poll where every
// condition holds, once that poll is drawn or written; the board stays on the normal screen with a
// line saying so. If --count runs out first, exit 8 with what did not hold at the last poll. With
// --exec, the program runs then, once, after the terminal is given back (exec/run-program.ts); the
// expressions and the program (found, and trusted: exec/trust-program.ts) are checked before any
// request, exit 2. The watch is over by then: a signal while the program runs is exit 130.
//
// Every wait is checked before a timer sees it (wait-until.ts): no wait the service asks for is
// longer than --max-wait (for a watch, by default 90 s: a rate window and some), and a Retry-After
// past it ends the watch with exit 6 and the time to come back. A timer given more than 2^31-1 ms
// fires at once, which once made a watch send 1,514 requests in 3 s against `Retry-After: 2592000`.
// Output that cannot be written ends the watch with exit 1. Only the symbols asked for are kept: a
// service sending new ones at every poll grew the board's history without end.
import { NetworkError, RateLimitError, ServerError, type Client } from '../../api/index.js';
import type { CheckSet } from '../../render/checks/compile-checks.js';
import { evaluateUntil, triggerEnvironmentNames, type UntilOutcome } from '../../render/checks/evaluate-until.js';
import { outputError } from '../errors/errors.js';
import { DEFAULT_MAX_WAIT_MS } from '../../shared/limits.js';
import { formatDuration, formatWait, tryAgainAt } from '../../shared/duration.js';
import type { Deps } from '../deps.js';
import { createCommandClient, type CliSettings } from '../network/client.js';
import { findProgram } from '../exec/find-program.js';
import { runProgram, type ProgramCall } from '../exec/run-program.js';
import type { RunState } from '../run-state.js';
import { runTerminal } from '../output/terminal.js';
import { compileUntilFlags, untilNeverHeldError, type CheckFlags } from '../options/checks.js';
import { chooseFormat, type FormatFlags } from '../options/format.js';
import type { NetworkFlags } from '../options/network.js';
import type { TargetFlags } from '../options/settings.js';
import { handleJobControl, type JobControl } from './job-control.js';
import { isQuitKey, isSuspendKey, listenForKeys, type KeyListener } from './keys.js';
import { afterFailure, afterRateLimit, afterSuccess, type NextPoll } from './pace.js';
import { waitUntil } from './wait-until.js';
import { createProcessTerminal, type WatchTerminal } from './terminal.js';
import { resolveWatchSettings, type WatchFlags, type WatchSettings } from './watch-settings.js';
import type { WatchOutput } from './watch-output.js';
import type { WatchedResource } from './watched-resource.js';

/** The flags a watch reads: its own, --until and --exec, the format's, and the client's. */
export type RunWatchFlags = WatchFlags & CheckFlags & FormatFlags & TargetFlags & NetworkFlags;

/** `terminal`: the process's stdout and signals, or a test's. */
export async function runWatch<R extends object, T, D, N extends string>(
  deps: Deps, resource: WatchedResource<R, T, D, N>, flags: RunWatchFlags, state: RunState, terminal: WatchTerminal = createProcessTerminal(deps),
): Promise<number> {
  const screen = runTerminal(deps, state);
  // The format, as one-shot runs decide it (options/format.ts), in a pipe the first the watch streams.
  const settings = resolveWatchSettings(screen, resource.model, resource.pipe, flags, chooseFormat(deps, flags, resource.pipe.formats[0]));
  // Before any request, exit 2: the conditions, and the program they run.
  const until = compileUntilFlags(resource.model, flags, resource.keys);
  const program: ProgramCall | undefined = flags.exec === undefined
    ? undefined
    : { program: flags.exec, file: await findProgram(flags.exec, deps.env), args: state.programArgs ?? [] };
  // The credentials are checked here, before the screen changes, so "not logged in" is an ordinary error message.
  const command = await createCommandClient(deps, flags, state, { concurrency: resource.connections, longRunning: true });
  // --max-wait bounds each wait of the watch (90 s by default: a rate window and some).
  const maxWaitMs = command.settings.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
  // q (read by the board), SIGINT/SIGTERM (deps.signal) and an output that cannot be written all
  // end the watch through this signal, which also cancels a request in flight and the wait.
  const quit = new AbortController();
  const onInterrupt = () => quit.abort();
  if (deps.signal.aborted) return 0;
  deps.signal.addEventListener('abort', onInterrupt, { once: true });
  let output: WatchOutput<R> | undefined;
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
  let held: Held<T, D> | undefined;
  const stopOnClosedOutput = terminal.onOutputClosed((failure) => {
    outputFailure ??= failure;
    quit.abort();
  });
  try {
    const context = { deps, screen, terminal, settings };
    const board = settings.board ? resource.createBoard(context) : undefined;
    output = board ?? (settings.plain ? resource.createPlain(context) : resource.createStream(context));
    if (board && deps.io.stdinIsTTY) keys = listenForKeys(deps.io.stdin, (key) => (isQuitKey(key) ? quit.abort() : isSuspendKey(key) && jobControl?.suspend()));
    output.start();
    // Ctrl-Z and fg (job-control.ts); elsewhere the terminal is left in its own mode and SIGTSTP
    // keeps its default action.
    if (board) jobControl = handleJobControl(terminal, keys ? [keys, board] : [board]);
    held = await pollUntilDone(deps, resource, settings, output, { client, signal: quit.signal, maxWaitMs, until });
  } catch (error) {
    if (!quit.signal.aborted) throw error;
  } finally {
    jobControl?.stop();
    output?.stop(!quit.signal.aborted, held === undefined ? undefined : heldLine(held));
    keys?.stop();
    stopOnClosedOutput();
    deps.signal.removeEventListener('abort', onInterrupt);
  }
  if (outputFailure !== undefined) throw outputError(outputFailure);
  if (held !== undefined && program !== undefined) {
    // Once, with the trigger's values in its environment as exact text; no shell, and nothing of the
    // data in its arguments. A status other than 0 is exit 1 (ProgramFailedError); a signal to mkt
    // is passed on to it, and ends mkt with exit 130 once the program has ended or been killed.
    await runProgram(program, {
      env: deps.env, trigger: held.outcome.trigger?.environment ?? {}, drop: triggerEnvironmentNames(held.set.model),
      io: { stdout: deps.io.stdout, stderr: deps.io.stderr }, signal: deps.signal, holdSignals: deps.holdSignals, sleep: deps.sleep,
    });
  }
  return 0;
}

/** The poll at which every --until held. */
interface Held<T, D> {
  set: CheckSet<T, D>;
  outcome: UntilOutcome<T, D>;
  polls: number;
}

/** `--until held at poll 3: EURUSD.bid > 1.09`, below the last board or table. */
function heldLine(held: Held<unknown, unknown>): string {
  return `--until held at poll ${held.polls}: ${held.set.checks.map((check) => check.expression).join(' and ')}`;
}

interface PollContext<T, D> {
  client: Client;
  signal: AbortSignal;
  /** The longest any one wait may be. */
  maxWaitMs: number;
  /** --until, compiled. */
  until: CheckSet<T, D> | undefined;
}

/** Polls until --count, --until, an error or the signal ends the watch; what held, when --until did. */
async function pollUntilDone<R extends object, T, D, N extends string>(
  deps: Deps, resource: WatchedResource<R, T, D, N>, settings: WatchSettings<N>, output: WatchOutput<R>, context: PollContext<T, D>,
): Promise<Held<T, D> | undefined> {
  const { intervalMs, count } = settings;
  const { until } = context;
  /** Polls made, what --count counts. */
  let polls = 0;
  /** Polls that brought an answer, what the board shows and --until is decided on. */
  let successes = 0;
  let failures = 0;
  /** 429s in a row, for the backoff of one that asks for no wait. */
  let refusals = 0;
  while (!context.signal.aborted) {
    const started = deps.now();
    polls++;
    const last = count !== undefined && polls >= count;
    let next: NextPoll;
    try {
      // Per poll, the token source renews a client-credentials token before it expires
      // (MKT_CLIENT_ID/SECRET), and once after a 401, asking again.
      const result = await resource.poll(context.client, context.signal);
      const at = deps.now();
      successes++;
      failures = 0;
      refusals = 0;
      const pacing = resource.pacing(result);
      next = afterSuccess(intervalMs, at - started, pacing.rateLimit, pacing.requests, context.maxWaitMs);
      const drawn = output.update({ ...result, polls: successes, at, throttledUntil: next.throttled ? at + next.delayMs : undefined });
      if (drawn !== undefined) await drawn;
      if (until !== undefined) {
        // Decided once the poll is drawn or written, at the instant its answer arrived.
        const outcome = evaluateUntil(until, resource.subject(result), at);
        if (outcome.holds) return { set: until, outcome, polls: successes };
        if (last) throw untilNeverHeldError(outcome.verdict, successes, until.model.rowNoun);
      }
      if (last) return undefined;
    } catch (error) {
      if (context.signal.aborted) return undefined;
      // No "retrying at" for a retry that will not happen: main reports the error and maps its code.
      if (last) throw error;
      // A poll that needs more waiting than --max-wait (the library's plan, before any refusal)
      // would need it again at every poll: say so and end, as a one-shot command does.
      if (error instanceof RateLimitError && error.plan !== undefined) throw error;
      if (error instanceof RateLimitError) {
        // What the service asks is held to --max-wait, not the interval, however long it is.
        const asked = error.retryAfterMs;
        if (asked !== undefined && !(asked <= context.maxWaitMs)) throw waitTooLong(error, asked, context.maxWaitMs, deps.now());
        refusals++;
        next = afterRateLimit(intervalMs, asked, refusals, deps.random);
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
      if (context.signal.aborted) return undefined;
      throw error;
    }
  }
  return undefined;
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
function isTransient(error: unknown): error is Error {
  return error instanceof NetworkError || error instanceof ServerError;
}
