// The live board in-process, for the tests that drive it: a terminal whose size and output the test
// controls, a TTY stdin for keys, a clock that each sleep moves instead of waiting, and the quotes'
// watch called as quotes.ts calls it.
import { PassThrough } from 'node:stream';
import { AbortError } from '../../src/api/errors.js';
import type { Deps } from '../../src/cli/deps.js';
import type { RunState } from '../../src/cli/run-state.js';
import { watchQuotes, type WatchRequest } from '../../src/cli/watch/quotes-watch.js';
import type { WatchTerminal } from '../../src/cli/watch/terminal.js';
import type { History } from '../../src/render/sparkline.js';
import { createTestDeps } from './cli.js';

export const ENTER = '\u001b[?1049h\u001b[?25l';
export const LEAVE = '\u001b[?25h\u001b[?1049l';
export const FRAME = '\u001b[H';
export const SGR = /\u001b\[[0-9;]*m/g;

/** The frames written, without colour. */
export const plainFrames = (writes: readonly string[]) => writes.filter((write) => write.startsWith(FRAME)).map((frame) => frame.replace(SGR, ''));

/**
 * A terminal whose size the test sets, whose resize, output failure and job-control signals
 * (SIGTSTP, SIGCONT) the test triggers; `whileStopped` runs where the real process would be stopped.
 */
export function fakeTerminal(columns: number, rows: number) {
  const listeners = new Set<() => void>();
  const closed = new Set<(failure: Error | undefined) => void>();
  const signals = { SIGTSTP: new Set<() => void>(), SIGCONT: new Set<() => void>() };
  const subscribe = (set: Set<() => void>, listener: () => void) => {
    set.add(listener);
    return () => void set.delete(listener);
  };
  const terminal: WatchTerminal & {
    resize(columns: number, rows: number): void; close(failure?: Error): void; signal(name: keyof typeof signals): void;
    stops: number; whileStopped: () => void;
  } = {
    size: () => ({ columns, rows }),
    onResize: (listener) => subscribe(listeners, listener),
    onOutputClosed(listener) {
      closed.add(listener);
      return () => void closed.delete(listener);
    },
    onSuspend: (listener) => subscribe(signals.SIGTSTP, listener),
    onContinue: (listener) => subscribe(signals.SIGCONT, listener),
    stops: 0,
    whileStopped: () => {},
    stopProcess() {
      terminal.stops++;
      terminal.whileStopped();
    },
    resize(newColumns, newRows) {
      columns = newColumns;
      rows = newRows;
      for (const listener of listeners) listener();
    },
    close(failure) {
      for (const listener of closed) listener(failure);
    },
    signal(name) {
      for (const listener of signals[name]) listener();
    },
  };
  return { terminal, listeners, signals };
}

/** A TTY stdin: raw-mode calls are recorded, keys are written by the test. */
function ttyStdin() {
  const stdin = Object.assign(new PassThrough(), { isTTY: true, isRaw: false, rawCalls: [] as boolean[] });
  (stdin as unknown as { setRawMode(mode: boolean): void }).setRawMode = (mode: boolean) => {
    stdin.rawCalls.push(mode);
    stdin.isRaw = mode;
  };
  return stdin;
}

export type OnSleep = (count: number, signal: AbortSignal | undefined) => Promise<void> | void;

/** Each sleep moves `clock` instead of waiting; `sleeps` records what each was asked for (at most `maxSleeps`). */
export function setupBoard(url: string, onSleep: OnSleep, options: { env?: Record<string, string>; maxSleeps?: number } = {}) {
  const clock = { time: Date.UTC(2025, 0, 6, 14, 30, 0) };
  const test = createTestDeps({
    stdoutIsTTY: true, stdinIsTTY: true, now: () => clock.time,
    env: { MKT_BASE_URL: url, MKT_TOKEN: 'scripted-token', MKT_ORG: 'org_demo', FORCE_COLOR: '1', ...options.env },
  });
  const writes: string[] = [];
  const sleeps: number[] = [];
  const stdin = ttyStdin();
  test.deps.io.stdout = { write: (text) => void writes.push(text) };
  test.deps.io.stdin = stdin;
  test.deps.sleep = async (ms, signal) => {
    sleeps.push(ms);
    if (sleeps.length > (options.maxSleeps ?? 60)) throw new Error('the board did not stop');
    await onSleep(sleeps.length, signal);
    if (signal?.aborted) throw new AbortError();
    clock.time += ms;
  };
  return { deps: test.deps, writes, stdin, stderr: test.stderr, sleeps, clock };
}

/** A key written to a flowing stream may be handled within write(): the signal can be aborted already. */
export const untilAborted = (signal: AbortSignal | undefined) => new Promise<void>((resolve) => {
  if (signal === undefined || signal.aborted) resolve();
  else signal.addEventListener('abort', () => resolve(), { once: true });
});

export async function watchBoard(
  deps: Deps, terminal: WatchTerminal, args: Record<string, unknown> = {}, symbols = ['EURUSD'], history?: History,
): Promise<number> {
  const request: WatchRequest = { symbols, venue: undefined, batchSize: undefined, concurrency: undefined, maxAgeMs: undefined };
  const state: RunState = { exitCode: 0, cleanups: [] };
  try {
    return await watchQuotes(deps, request, { watch: true, interval: '1s', ...args }, state, terminal, history);
  } finally {
    for (const cleanup of state.cleanups) await cleanup();
  }
}
