// The process's stdout as the watch sees it: its size, its resizes (for the board), and an output
// that can no longer be written: a reader that went away (`mkt quotes --watch | head -3`) or a
// failed write (`> /dev/full`); the watch must then end rather than poll forever into nothing. The
// IO interface has neither event, so the process implementation listens on process.stdout here;
// tests pass their own WatchTerminal and call its listeners.
import type { Deps } from '../deps.js';

export interface TerminalSize {
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
  };
}
