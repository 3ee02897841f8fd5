// The process's stdout as the watch sees it: its size, its resizes (for the board), and an output
// that can no longer be written: a reader that went away (`mkt quotes --watch | head -3`) or a
// failed write (`> /dev/full`); the watch must then end rather than poll forever into nothing. Also
// job control for the board: SIGTSTP, SIGCONT and stopping the process (job-control.ts). The IO
// interface has none of these, so the process implementation listens on process.stdout and
// process here; tests pass their own WatchTerminal and call its listeners.
import type { Deps } from '../deps.js';

interface TerminalSize {
  columns: number | undefined;
  rows: number | undefined;
}

export interface WatchTerminal {
  size(): TerminalSize;
  /** Calls `listener` after each resize; returns the unsubscribe function. */
  onResize(listener: () => void): () => void;
  /**
   * Calls `listener` when stdout can no longer be written: with undefined when its reader has gone
   * (EPIPE, the normal end of `| head`), with the error when a write failed (ENOSPC, EIO...).
   * Returns the unsubscribe function.
   */
  onOutputClosed(listener: (failure: Error | undefined) => void): () => void;
  /**
   * Calls `listener` on SIGTSTP (`kill -TSTP`, or Ctrl-Z while the terminal is not in raw mode)
   * instead of stopping the process; the listener is to put the terminal back and call
   * stopProcess(). Returns the unsubscribe function.
   */
  onSuspend(listener: () => void): () => void;
  /** Calls `listener` on SIGCONT (the shell's `fg` or `bg`, `kill -CONT`); returns the unsubscribe function. */
  onContinue(listener: () => void): () => void;
  /** Stops the process as an unhandled SIGTSTP does, returning once it is continued. */
  stopProcess(): void;
}

export function createProcessTerminal(deps: Deps): WatchTerminal {
  const stdout = process.stdout;
  // deps.io says what the command writes to; only when that is this process's own terminal do the
  // resize events (SIGWINCH, delivered by Node as 'resize') describe it.
  const real = deps.io.stdoutIsTTY && stdout.isTTY === true;
  return {
    size: () => ({
      columns: real ? stdout.columns ?? deps.io.columns : deps.io.columns,
      rows: real ? stdout.rows : undefined,
    }),
    onResize(listener) {
      if (!real) return () => {};
      stdout.on('resize', listener);
      return () => void stdout.off('resize', listener);
    },
    onOutputClosed(listener) {
      // createProcessDeps already keeps these from crashing the process; this ends the watch.
      const onError = (error: NodeJS.ErrnoException) => listener(error.code === 'EPIPE' ? undefined : error);
      stdout.on('error', onError);
      return () => void stdout.off('error', onError);
    },
    onSuspend: (listener) => listenForSignal(real, 'SIGTSTP', listener),
    onContinue: (listener) => listenForSignal(real, 'SIGCONT', listener),
    stopProcess() {
      if (!real || !jobControl) return;
      // With no listener left, Node gives SIGTSTP its default action back, which stops the whole
      // process inside kill(): the call returns once the shell continues the job (fg or bg). The
      // listeners are put back then; they are the watch's own (no other part of mkt handles SIGTSTP).
      const listeners = process.listeners('SIGTSTP');
      for (const listener of listeners) process.off('SIGTSTP', listener);
      try {
        process.kill(process.pid, 'SIGTSTP');
      } finally {
        for (const listener of listeners) process.on('SIGTSTP', listener);
      }
    },
  };
}

/** Job control's signals exist where POSIX does, not on Windows. */
const jobControl = process.platform !== 'win32';

function listenForSignal(real: boolean, signal: 'SIGTSTP' | 'SIGCONT', listener: () => void): () => void {
  if (!real || !jobControl) return () => {};
  const onSignal = () => listener();
  process.on(signal, onSignal);
  return () => void process.off(signal, onSignal);
}
