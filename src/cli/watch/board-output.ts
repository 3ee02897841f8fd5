// The quotes' live board on a terminal: the quotes table with changed prices highlighted, a
// sparkline per symbol and status lines (render/board.ts), drawn in place on the alternate screen
// (live-screen.ts); redrawn on resize and, while the watch waits, once a second so ages grow; the
// screen and cursor given back by stop(), which leaves the last board on the normal screen when the
// watch ended by itself (with the line saying why, when --until held), and by suspend() for as long
// as the process is stopped (Ctrl-Z).
import type { Quote, UnusableQuote } from '../../api/index.js';
import { renderBoard, type BoardStatus } from '../../render/board.js';
import { quoteKeys, type QuoteChange } from '../../render/changes.js';
import { History } from '../../render/sparkline.js';
import type { Deps } from '../deps.js';
import { scrubSecrets } from '../credentials/secrets.js';
import type { Terminal } from '../output/terminal.js';
import type { QuoteFieldName } from '../../render/quote-fields.js';
import type { Suspendable } from './job-control.js';
import { createLiveScreen } from './live-screen.js';
import type { WatchTerminal } from './terminal.js';
import type { QuotePoll, WatchOutput } from './watch-output.js';

/** Mid prices kept per symbol for the sparkline: memory only, bounded. */
export const HISTORY_POINTS = 30;

export interface BoardOutputOptions {
  intervalMs: number;
  maxAgeMs: number | undefined;
  /** Show only the quotes whose prices moved at the latest poll (all of them at the first). */
  changesOnly: boolean;
  /** --fields: the board's columns, in order; the table's by default. */
  fields?: readonly QuoteFieldName[];
  /** The sparklines' memory; keyed by symbol, so only symbols asked for may reach it. */
  history?: History;
}

/**
 * `screen`: the run's terminal (colour, characters, clock, stdout); `terminal`: its live size and
 * resizes. `deps` only for the secrets to scrub from the retry line.
 */
export type BoardOutput<R = QuotePoll> = WatchOutput<R> & Suspendable;

export function createBoardOutput(deps: Deps, screen: Terminal, terminal: WatchTerminal, options: BoardOutputOptions): BoardOutput {
  const history = options.history ?? new History(HISTORY_POINTS);
  let data: readonly Quote[] = [];
  let changes: QuoteChange[] = [];
  let keys: string[] = [];
  let missing: readonly string[] = [];
  let unusable: readonly UnusableQuote[] = [];
  let unchanged = 0;
  let ignored = 0;
  const status: BoardStatus = {
    polls: 0, updatedAt: undefined, intervalMs: options.intervalMs, rateLimit: undefined, throttledUntil: undefined, problem: undefined,
  };
  /** The board's lines; every quote's when `rows` is undefined. */
  const frame = (rows: number | undefined) => renderBoard(
    { data, changes, history: keys.map((key) => history.get(key)), missing, status, unchanged, ignored },
    // A terminal that reports a width of 0 (script, some CI runners) is taken to be COLUMNS or 80 wide.
    { color: screen.color, ascii: screen.ascii, columns: screen.widthOf(terminal.size().columns) ?? 80, rows, now: screen.now(), maxAgeMs: options.maxAgeMs, unusable, fields: options.fields },
  );
  const live = createLiveScreen(deps, screen, terminal, frame);
  const draw = live.draw;

  return {
    start: live.start,
    update(poll) {
      const all = poll.result.data;
      const allKeys = quoteKeys(all);
      allKeys.forEach((key, index) => history.add(key, all[index]!.mid));
      const shown = options.changesOnly && poll.polls > 1 ? all.map((_quote, index) => index).filter((index) => poll.changes[index]?.changed) : undefined;
      data = shown === undefined ? all : shown.map((index) => all[index]!);
      changes = shown === undefined ? poll.changes : shown.map((index) => poll.changes[index]!);
      keys = shown === undefined ? allKeys : shown.map((index) => allKeys[index]!);
      unchanged = all.length - data.length;
      ignored = poll.ignored.length;
      missing = poll.result.missing;
      unusable = poll.result.unusable;
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
      // A diagnostic drawn with the data: scrubbed as stderr is (credentials/secrets.ts).
      status.problem = { message: scrubSecrets(deps, error.message), retryAt };
      draw();
    },
    tick: draw,
    suspend: live.suspend,
    resume: live.resume,
    stop(finished, ending) {
      if (!live.active) return;
      // A watch that ended by itself (--count, --until, an error) leaves its last quotes on the normal
      // screen, as `gh run watch` leaves its final state: drawn once more there, every row, no "q to
      // quit", and no retry or throttling that will not come (main says what ended it; the line
      // below the board says when --until held).
      Object.assign(status, { ended: true, problem: undefined, throttledUntil: undefined });
      const last = finished && status.updatedAt !== undefined ? frame(undefined) : [];
      live.stop(finished && ending !== undefined ? [...last, ending] : last);
    },
  };
}
