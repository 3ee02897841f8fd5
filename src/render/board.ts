// The live board of `mkt quotes --watch`: the quotes table with changed prices highlighted (green up,
// red down, the changed digits bold and underlined), an arrow for the mid's direction (so the facts
// survive without colour), a sparkline of this session's mids, and a status line. Pure: a view and
// the terminal's size in, lines out; src/cli/watch draws them. The columns are the table's
// (quote-table.ts), laid out by the same engine (grid.ts); in a window of fixed height, the board
// drops the least needed columns to fit its width, and names them in a line of their own.
import { Chalk, type ChalkInstance } from 'chalk';
import type { Quote, RateLimitInfo } from '../api/types.js';
import { formatDuration } from '../shared/duration.js';
import { formatClock } from '../shared/time.js';
import type { PriceChange, QuoteChange } from './changes.js';
import { printable } from '../shared/text.js';
import { drawBlocks, drawSpaced, layoutColumns, shorten, SPACED_FRAME, type Column, type Layout } from './grid.js';
import { ASCII_SPARK_LEVELS, SPARK_LEVELS, sparkline } from './sparkline.js';
import { QUOTE_TABLE_FIELDS, type QuoteFieldName } from './quote-fields.js';
import { quoteColumns, quoteRows } from './quote-table.js';

export interface BoardStatus {
  polls: number;
  /** When the latest quotes arrived. */
  updatedAt: number | undefined;
  intervalMs: number;
  rateLimit: RateLimitInfo | undefined;
  /** Polling is slowed down for the rate limit until then. */
  throttledUntil: number | undefined;
  /** The latest poll failed (a transient error) and is retried at `retryAt`. */
  problem: { message: string; retryAt: number } | undefined;
  /** The watch is over: the last frame, left on the screen, has no "q to quit". */
  ended?: boolean;
}

export interface BoardView {
  data: readonly Quote[];
  /** One per quote, in the same order. */
  changes: readonly QuoteChange[];
  /** Mid prices of this session per quote, oldest first. */
  history: ReadonlyArray<readonly string[]>;
  missing: readonly string[];
  status: BoardStatus;
  /** Quotes of the latest poll left out by --changes-only: their prices did not move. */
  unchanged?: number;
  /** Quotes of the latest poll for symbols not asked for, which the watch drops. */
  ignored?: number;
}

export interface BoardOptions {
  color: boolean;
  columns: number;
  /** Terminal height; rows that do not fit are summarised in one line. */
  rows: number | undefined;
  now: number;
  maxAgeMs?: number;
  /** Plain ASCII: no arrows, blocks, dots or ellipses (TERM=dumb, a locale without UTF-8). */
  ascii?: boolean;
  /** The columns, in order (quote-fields.ts); the table's by default. */
  fields?: readonly QuoteFieldName[];
}

interface Marks {
  up: string;
  down: string;
  ellipsis: string;
  separator: string;
  levels: string;
}

const UNICODE: Marks = { up: '▲', down: '▼', ellipsis: '…', separator: ' · ', levels: SPARK_LEVELS };
const ASCII: Marks = { up: '^', down: 'v', ellipsis: '...', separator: ' | ', levels: ASCII_SPARK_LEVELS };

export function renderBoard(view: BoardView, options: BoardOptions): string[] {
  const chalk = new Chalk({ level: options.color ? 1 : 0 });
  const marks = options.ascii ? ASCII : UNICODE;
  // One column short of the edge: a line that fills the last column leaves the cursor in the
  // pending-wrap state, where some terminals then erase or wrap unexpectedly. A terminal that does
  // not know its width is taken to have 80 columns.
  const width = Math.max(1, (options.columns > 0 ? options.columns : 80) - 1);
  const footer = renderFooter(view, chalk, width, marks);
  if (view.data.length === 0) {
    const waiting = view.status.polls === 0 ? `waiting for the first quotes${marks.ellipsis}`
      : (view.unchanged ?? 0) > 0 ? 'no price changed at the latest poll'
        : 'the service returned no quotes';
    return [chalk.dim(shorten(waiting, width, marks.ellipsis)), ...footer];
  }
  const room = options.rows === undefined ? undefined : options.rows - 1 - footer.length;
  // The rows that fit the height, with `spare` lines kept for words below them.
  const fitting = (spare: number) => (room !== undefined && room - spare < view.data.length ? Math.max(0, room - spare - 1) : view.data.length);
  // Only the rows on screen are laid out: a frame a second costs the same for 10 symbols or 10,000.
  const shown = (count: number): BoardView => (count === view.data.length ? view
    : { ...view, data: view.data.slice(0, count), changes: view.changes.slice(0, count), history: view.history.slice(0, count) });
  const lay = (count: number) => layoutColumns(buildColumns(shown(count), options, chalk, marks), width, SPACED_FRAME, { drop: true });
  let visibleRows = fitting(0);
  let layout = lay(visibleRows);
  // The line naming the columns left out takes a row's place when the height is short.
  if (room !== undefined && layout.blocks === undefined && hiddenFields(layout).length > 0 && fitting(1) < visibleRows) {
    visibleRows = fitting(1);
    layout = lay(visibleRows);
  }
  const title = (text: string) => chalk.bold(text);
  let lines: string[];
  let hidden = hiddenFields(layout);
  if (layout.blocks === undefined) {
    lines = drawSpaced(layout, visibleRows, { ascii: options.ascii === true, title, maxWidth: width });
  } else {
    // Too narrow for Symbol, Bid and Ask side by side: a block per quote, with what always stays.
    const kept = layout.blocks.filter((column) => column.dropOrder === undefined || column.name === 'note');
    hidden = layout.blocks.filter((column) => !kept.includes(column) && column.name !== undefined);
    const blocks = drawBlocks(kept, { maxWidth: width, title });
    lines = [];
    visibleRows = 0;
    for (const block of blocks) {
      const needed = lines.length + (lines.length === 0 ? 0 : 1) + block.length;
      // Room for the blocks and, if any are left out, the line that says so, and the hidden columns' line.
      if (room !== undefined && needed + (visibleRows + 1 < view.data.length ? 1 : 0) + (hidden.length > 0 ? 1 : 0) > room) break;
      if (lines.length > 0) lines.push('');
      lines.push(...block);
      visibleRows++;
    }
  }
  if (visibleRows < view.data.length) {
    lines.push(chalk.dim(shorten(`${marks.ellipsis} ${view.data.length - visibleRows} more; enlarge the window to see them`, width, marks.ellipsis)));
  }
  if (hidden.length > 0) {
    // Nothing is left out without a word: the columns the width could not hold, and how to see them.
    // In the order of the columns: the fields', then the Note.
    const order: readonly string[] = [...(options.fields ?? QUOTE_TABLE_FIELDS), 'note'];
    const titles = hidden.sort((a, b) => order.indexOf(a.name!) - order.indexOf(b.name!)).map((column) => column.title).join(', ');
    lines.push(chalk.dim(shorten(`${titles} hidden; widen the window or use --fields`, width, marks.ellipsis)));
  }
  // However small the terminal, a frame never scrolls the screen (which would make it jump).
  const frame = [...lines, ...footer];
  return options.rows === undefined ? frame : frame.slice(0, Math.max(1, options.rows));
}

function buildColumns(view: BoardView, options: BoardOptions, chalk: ChalkInstance, marks: Marks): Column[] {
  const rows = quoteRows(view.data, options);
  const columns: Column[] = quoteColumns(rows, chalk, (field, padded, row) => stylePrice(padded, priceChange(view.changes[row], field), chalk), options.ascii, options.fields);
  const arrows: Column = {
    title: '', align: 'left', cells: view.changes.map((change) => arrow(change?.mid.direction, marks)),
    style: (cell) => (cell === marks.up ? chalk.green(cell) : cell === marks.down ? chalk.red(cell) : cell),
  };
  const trend: Column = {
    title: 'Trend',
    align: 'left',
    cells: view.history.map((series) => sparkline(series, series.length, marks.levels)),
    style: (padded, row) => (rows[row]!.stale ? chalk.dim(padded) : padded),
    dropOrder: 1,
    // The latest points are the ones worth keeping.
    shrink: { minWidth: 8, cut: (text, width) => text.slice(-width) },
  };
  // The arrow beside the mid; the trend after the fields, before a Note.
  const mid = columns.findIndex((column) => column.name === 'mid');
  if (mid !== -1) columns.splice(mid + 1, 0, arrows);
  const note = columns.findIndex((column) => column.name === 'note');
  columns.splice(note === -1 ? columns.length : note, 0, trend);
  return columns;
}

/** The named columns (fields and the Note) the layout dropped; the Trend, a picture of the mids, is not one. */
function hiddenFields(layout: Layout): Column[] {
  return layout.hidden.filter((column) => column.name !== undefined);
}

function priceChange(change: QuoteChange | undefined, field: QuoteFieldName): PriceChange | undefined {
  return field === 'bid' || field === 'ask' || field === 'mid' ? change?.[field] : undefined;
}

function arrow(direction: PriceChange['direction'] | undefined, marks: Marks): string {
  return direction === 'up' ? marks.up : direction === 'down' ? marks.down : ' ';
}

/** The price in the direction's colour, the digits from the first changed one also bold and underlined. */
export function stylePrice(cell: string, change: PriceChange | undefined, chalk: ChalkInstance): string {
  if (change === undefined || (change.direction !== 'up' && change.direction !== 'down')) return cell;
  const paint = change.direction === 'up' ? chalk.green : chalk.red;
  const start = cell.length - cell.trimStart().length;
  const value = cell.trim();
  const end = start + value.length;
  const from = start + Math.min(change.from ?? 0, value.length);
  return `${cell.slice(0, start)}${paint(cell.slice(start, from))}${paint.bold.underline(cell.slice(from, end))}${cell.slice(end)}`;
}

function renderFooter(view: BoardView, chalk: ChalkInstance, width: number, marks: Marks): string[] {
  const { status } = view;
  const parts = [
    status.updatedAt === undefined ? 'no quotes yet' : `updated ${formatClock(status.updatedAt)}`,
    `poll ${status.polls}`,
    `every ${formatDuration(status.intervalMs)}`,
  ];
  const { limit, remaining } = status.rateLimit ?? {};
  if (remaining !== undefined) parts.push(limit === undefined ? `${remaining} requests left` : `${remaining}/${limit} left`);
  if (status.ended !== true) parts.push('q to quit');
  const lines = ['', chalk.dim(shorten(parts.join(marks.separator), width, marks.ellipsis))];
  const unchanged = view.unchanged ?? 0;
  if (unchanged > 0) lines.push(chalk.dim(shorten(`${plural(unchanged, 'quote')} without a price change hidden (--changes-only)`, width, marks.ellipsis)));
  if (view.missing.length > 0) {
    lines.push(chalk.yellow(shorten(`no quote for ${view.missing.map((symbol) => printable(symbol)).join(', ')}`, width, marks.ellipsis)));
  }
  const ignored = view.ignored ?? 0;
  if (ignored > 0) lines.push(chalk.yellow(shorten(`ignoring ${plural(ignored, 'quote')} for symbols not asked for`, width, marks.ellipsis)));
  if (status.throttledUntil !== undefined) {
    lines.push(chalk.yellow(shorten(`throttled until ${formatClock(status.throttledUntil)} (rate limit)`, width, marks.ellipsis)));
  }
  if (status.problem !== undefined) {
    // The retry time first: a long message is cut at the terminal's edge.
    lines.push(chalk.red(shorten(`retrying at ${formatClock(status.problem.retryAt)}: ${printable(status.problem.message)}`, width, marks.ellipsis)));
  }
  return lines;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
