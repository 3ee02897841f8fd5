// The board's hold on the terminal, for any watched resource: frames drawn in place on the
// alternate screen, the cursor hidden, one write per frame (cursor home, each line cleared to its
// end, the rest of the screen cleared) so there is no flicker; redrawn on resize; the screen and
// cursor given back by stop(), which can draw a last frame on the normal screen, and by suspend()
// for as long as the process is stopped (Ctrl-Z, job-control.ts). What a frame holds is the
// resource's (board-output.ts for quotes, document-outputs.ts for a resource drawn as its table).
import type { Deps } from '../deps.js';
import type { Terminal } from '../output/terminal.js';
import type { Suspendable } from './job-control.js';
import type { WatchTerminal } from './terminal.js';

const ENTER = '\u001b[?1049h\u001b[?25l'; // alternate screen on, cursor hidden
const LEAVE = '\u001b[?25h\u001b[?1049l'; // cursor shown, alternate screen off
const HOME = '\u001b[H';
const CLEAR_LINE_END = '\u001b[K';
const CLEAR_SCREEN_END = '\u001b[J';
/** The height taken when a terminal reports 0 rows (script, some CI runners). */
const DEFAULT_ROWS = 24;

export interface LiveScreen extends Suspendable {
  /** Between start() and stop(). */
  readonly active: boolean;
  start(): void;
  /** The current frame, unless stopped or suspended. */
  draw(): void;
  /** Gives the screen back; `last`: lines drawn once more on the normal screen, where they stay. */
  stop(last?: readonly string[]): void;
}

/** `frame(rows)`: the lines of a frame for a window `rows` high; undefined: a terminal that does not say (every line). */
export function createLiveScreen(deps: Deps, screen: Terminal, terminal: WatchTerminal, frame: (rows: number | undefined) => string[]): LiveScreen {
  let active = false;
  let suspended = false;
  let unsubscribe = () => {};
  const draw = () => {
    if (!active || suspended) return;
    const { rows } = terminal.size();
    const lines = frame(rows === 0 ? DEFAULT_ROWS : rows);
    // \r\n rather than \n: correct whether or not the terminal translates newlines in raw mode.
    screen.stdout.write(`${HOME}${lines.map((line) => `${line}${CLEAR_LINE_END}`).join('\r\n')}${CLEAR_SCREEN_END}`);
  };
  return {
    get active() {
      return active;
    },
    start() {
      active = true;
      screen.stdout.write(ENTER);
      unsubscribe = terminal.onResize(draw);
      draw();
    },
    draw,
    suspend() {
      if (!active || suspended) return;
      suspended = true;
      deps.io.stdout.write(LEAVE);
    },
    resume() {
      if (!active) return;
      suspended = false;
      // Also after a SIGCONT the board did not ask for: what the shell wrote is drawn over.
      deps.io.stdout.write(ENTER);
      draw();
    },
    stop(last = []) {
      if (!active) return;
      active = false;
      unsubscribe();
      screen.stdout.write(`${LEAVE}${last.map((line) => `${line}\r\n`).join('')}`);
    },
  };
}
