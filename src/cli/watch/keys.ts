// Single key presses for the live board (q quits). Raw mode is needed to get a key without Enter;
// in raw mode the terminal no longer turns Ctrl-C into SIGINT, so it arrives here as \x03 and quits
// too. The terminal's previous mode is put back by the returned function, whatever ends the watch.
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

export function listenForKeys(stdin: Readable, onKey: (key: string) => void): () => void {
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
  let restored = false;
  return () => {
    if (restored) return;
    restored = true;
    stdin.off('data', onData);
    stdin.off('error', onError);
    if (raw) tty.setRawMode!(wasRaw);
    // A paused stdin no longer holds the event loop open, so the process can end.
    stdin.pause();
  };
}
