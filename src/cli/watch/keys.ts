// Single key presses for the live board (q quits, Ctrl-Z suspends). Raw mode is needed to get a key
// without Enter; in raw mode the terminal no longer turns Ctrl-C into SIGINT nor Ctrl-Z into
// SIGTSTP, so they arrive here as \x03 and \x1a. The terminal's previous mode is put back by stop(),
// whatever ends the watch, and by suspend() while the process is stopped (job-control.ts).
import type { Readable } from 'node:stream';

interface MaybeTty {
  isTTY?: boolean;
  isRaw?: boolean;
  setRawMode?: (mode: boolean) => unknown;
}

/** q, Q, Ctrl-C (\x03) and Ctrl-D (\x04). */
export function isQuitKey(key: string): boolean {
  return key === 'q' || key === 'Q' || key === '\u0003' || key === '\u0004';
}

/** Ctrl-Z (\x1a), the terminal's usual suspend character. */
export function isSuspendKey(key: string): boolean {
  return key === '\u001a';
}

export interface KeyListener {
  /** Gives the terminal its previous mode back, for as long as the process is stopped. */
  suspend(): void;
  /**
   * Raw mode again, after suspend() or after anything else changed the mode while the process was
   * stopped (a shell puts its own mode back when a job stops, even on SIGSTOP).
   */
  resume(): void;
  /** Stops listening and gives the terminal its previous mode back; idempotent. */
  stop(): void;
}

export function listenForKeys(stdin: Readable, onKey: (key: string) => void): KeyListener {
  const tty = stdin as Readable & MaybeTty;
  const raw = tty.isTTY === true && typeof tty.setRawMode === 'function';
  const wasRaw = tty.isRaw === true;
  if (raw) tty.setRawMode!(true);
  const onData = (chunk: Buffer | string) => {
    const text = chunk.toString();
    // Arrow and function keys arrive as escape sequences; none of their letters is a command.
    if (text.startsWith('\u001b')) return;
    for (const key of text) onKey(key);
  };
  const onError = () => {};
  stdin.on('data', onData);
  stdin.on('error', onError);
  stdin.resume();
  let stopped = false;
  return {
    suspend() {
      if (raw && !stopped) tty.setRawMode!(wasRaw);
    },
    resume() {
      if (!raw || stopped) return;
      // Node (libuv) skips a change to the mode it believes the terminal is in, so a terminal put
      // back to cooked mode behind its back is only made raw again by leaving raw mode first.
      if (tty.isRaw === true) tty.setRawMode!(false);
      tty.setRawMode!(true);
    },
    stop() {
      if (stopped) return;
      stopped = true;
      stdin.off('data', onData);
      stdin.off('error', onError);
      if (raw) tty.setRawMode!(wasRaw);
      // A paused stdin no longer holds the event loop open, so the process can end.
      stdin.pause();
    },
  };
}
