// Everything a command needs from the outside world, injected so that tests run the same code paths
// users hit: streams and TTY flags, the environment, the clock, the config store, the HTTP
// dispatcher, and the interrupt signal. Only createProcessDeps reads process.*.
import type { Dispatcher } from 'undici';
import type { ConfigStore } from '../config/store.js';
import { sleep } from '../shared/sleep.js';
import type { Env, IO } from './io.js';

export interface Deps {
  io: IO;
  env: Env;
  /** Milliseconds since the epoch. */
  now: () => number;
  config: ConfigStore;
  /** An HTTP dispatcher to use instead of the one built from the environment (tests). */
  dispatcher?: Dispatcher;
  /** Aborted on SIGINT/SIGTERM (and SIGHUP/SIGQUIT while a program is held: holdSignals). */
  signal: AbortSignal;
  /**
   * While a program mkt started runs (--exec): SIGHUP and SIGQUIT are caught too (SIGHUP and
   * SIGBREAK on Windows), the first signal of any of them aborting `signal`, and each signal after
   * the first goes to `onAgain` instead of ending mkt at once, so that nothing is left running
   * under PID 1. Returns what ends the hold.
   */
  holdSignals: (onAgain: (name: NodeJS.Signals) => void) => () => void;
  /** Resolves after `ms`, or rejects when `signal` aborts. */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random: () => number;
}

export interface ProcessDeps extends Deps {
  /** The command is done and its outcome decided: main calls it before it returns the exit code. */
  dispose(): void;
  /** A failure writing stdout (a full disk, say), for main to report; a closed pipe is not one. */
  outputError(): Error | undefined;
}

/** Caught besides SIGINT and SIGTERM while a program is held: a closed terminal, and Ctrl-\ (Ctrl-Break on Windows). */
const HELD_SIGNALS: readonly NodeJS.Signals[] = process.platform === 'win32' ? ['SIGHUP', 'SIGBREAK'] : ['SIGHUP', 'SIGQUIT'];

/** The real process: stdio, process.env, the system clock, SIGINT/SIGTERM. */
export async function createProcessDeps(): Promise<ProcessDeps> {
  const controller = new AbortController();
  const io: IO = {
    stdout: { write: (text) => void process.stdout.write(text) },
    stderr: { write: (text) => void process.stderr.write(text) },
    // process.stdin builds a stream on first touch (a few ms); most runs never read it.
    get stdin() {
      return process.stdin;
    },
    // node:tty costs ~2 ms to load on Node 20, and only login and `--symbols-file -` ask.
    get stdinIsTTY() {
      return process.getBuiltinModule('node:tty').isatty(0);
    },
    stdoutIsTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    columns: process.stdout.columns,
    prompt: async (question, options) => {
      const { promptOnTerminal } = await import('./credentials/prompt.js');
      return promptOnTerminal(question, options, controller.signal);
    },
  };
  // A piped reader that goes away (`mkt quotes | head -1`) is not an error worth a stack trace;
  // anything else is kept for main to report with an exit code.
  let outputError: Error | undefined;
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') outputError ??= error;
  });
  // A stderr that cannot be written (`2>&1 | true`) has nowhere to be reported: not a crash.
  process.stderr.on('error', () => {});
  // The first signal aborts what is under way (exit 130, nothing written); a second one ends the
  // process at once, unless a program mkt started is held (holdSignals): then it goes to the holder,
  // which ends the program first. Once the command is done its outcome stands: a signal while the
  // process winds down (closing connections, flushing output) is ignored, and only a second one ends
  // it, so that a login that wrote its token and said so never dies by the signal afterwards.
  let done = false;
  let ignored = false;
  const holders = new Set<(name: NodeJS.Signals) => void>();
  const onSignal = (name: NodeJS.Signals) => {
    if (!done && !controller.signal.aborted) {
      controller.abort(new InterruptSignal(name));
    } else if (holders.size > 0) {
      for (const holder of holders) holder(name);
    } else if (done && !ignored) {
      ignored = true;
    } else {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      process.kill(process.pid, name);
    }
  };
  // Node's signal watchers do not keep the process alive, so the handlers may stay to the end.
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // The others keep their default action (the end of mkt) but while a program is held.
  const holdSignals = (onAgain: (name: NodeJS.Signals) => void) => {
    if (holders.size === 0) for (const name of HELD_SIGNALS) process.on(name, onSignal);
    holders.add(onAgain);
    return () => {
      if (!holders.delete(onAgain) || holders.size > 0) return;
      for (const name of HELD_SIGNALS) process.off(name, onSignal);
    };
  };
  // The rest of the way out, past Node's 'exit' event, is bin/mkt.cjs's.
  const dispose = () => {
    done = true;
  };
  const env = process.env;
  const { ConfigStore, defaultConfigDir } = await import('../config/store.js');
  // Its warnings go where main points them: the run's diagnostics (output/diagnostics.ts).
  const config = new ConfigStore({ dir: env.MKT_CONFIG_DIR || defaultConfigDir(env), signal: controller.signal });
  return {
    io,
    env,
    now: () => Date.now(),
    config,
    signal: controller.signal,
    holdSignals,
    sleep,
    random: Math.random,
    dispose,
    outputError: () => outputError,
  };
}

/** The abort reason when a signal arrived. */
export class InterruptSignal extends Error {
  override name = 'InterruptSignal';
  readonly signalName: NodeJS.Signals;

  constructor(signalName: NodeJS.Signals) {
    super(`interrupted by ${signalName}`);
    this.signalName = signalName;
  }
}
