// The watch on a terminal: the board drawn in place on the alternate screen, the cursor hidden,
// one write per frame (cursor home, each line cleared to its end, the rest of the screen cleared)
// so there is no flicker; redrawn on resize; the screen and cursor given back by stop().
import type { Quote } from '../../api/types.js';
import { renderBoard, type BoardStatus } from '../../render/board.js';
import { quoteKeys, type QuoteChange } from '../../render/changes.js';
import { History } from '../../render/sparkline.js';
import type { Deps } from '../deps.js';
import type { WatchTerminal } from './terminal.js';
import type { WatchOutput } from './watch-output.js';

const ENTER = '\u001b[?1049h\u001b[?25l'; // alternate screen on, cursor hidden
const LEAVE = '\u001b[?25h\u001b[?1049l'; // cursor shown, alternate screen off
const HOME = '\u001b[H';
const CLEAR_LINE_END = '\u001b[K';
const CLEAR_SCREEN_END = '\u001b[J';
/** Mid prices kept per symbol for the sparkline: memory only, bounded. */
export const HISTORY_POINTS = 30;

export interface BoardOutputOptions {
  color: boolean;
  intervalMs: number;
  maxAgeMs: number | undefined;
}

export function createBoardOutput(deps: Deps, terminal: WatchTerminal, options: BoardOutputOptions): WatchOutput {
  const history = new History(HISTORY_POINTS);
  let data: readonly Quote[] = [];
  let changes: QuoteChange[] = [];
  let keys: string[] = [];
  let missing: readonly string[] = [];
  const status: BoardStatus = {
    polls: 0, updatedAt: undefined, intervalMs: options.intervalMs, rateLimit: undefined, throttledUntil: undefined, problem: undefined,
  };
  let active = false;
  let unsubscribe = () => {};

  const draw = () => {
    if (!active) return;
    const { columns, rows } = terminal.size();
    const lines = renderBoard(
      { data, changes, history: keys.map((key) => history.get(key)), missing, status },
      { color: options.color, columns: columns ?? 80, rows, now: deps.now(), maxAgeMs: options.maxAgeMs },
    );
    // \r\n rather than \n: correct whether or not the terminal translates newlines in raw mode.
    deps.io.stdout.write(`${HOME}${lines.map((line) => `${line}${CLEAR_LINE_END}`).join('\r\n')}${CLEAR_SCREEN_END}`);
  };

  return {
    start() {
      active = true;
      deps.io.stdout.write(ENTER);
      unsubscribe = terminal.onResize(draw);
      draw();
    },
    update(poll) {
      data = poll.result.data;
      changes = poll.changes;
      keys = quoteKeys(data);
      keys.forEach((key, index) => history.add(key, data[index]!.mid));
      missing = poll.result.missing;
      status.polls = poll.polls;
      status.updatedAt = poll.at;
      status.rateLimit = poll.result.rateLimit;
      status.throttledUntil = poll.throttledUntil;
      status.problem = undefined;
      draw();
    },
    rateLimited(until) {
      status.throttledUntil = until;
      draw();
    },
    failed(error, retryAt) {
      status.problem = { message: error.message, retryAt };
      draw();
    },
    stop() {
      if (!active) return;
      active = false;
      unsubscribe();
      deps.io.stdout.write(LEAVE);
    },
  };
}
