// The live board of `mkt quotes --watch`: the quotes table with changed prices highlighted (green up,
// red down, the changed digits bold and underlined), an arrow for the mid's direction (so the facts
// survive without colour), a sparkline of this session's mids, and a status line. Pure: a view and
// the terminal's size in, lines out; src/cli/watch draws them. The columns are the table's
// (quote-table.ts), laid out by the same engine (grid.ts), and where they do not fit side by side, a
// block per quote with every field, as the table. Only where neither fits the window's height does the
// board leave fields out, and then it names them and how to see them, in lines never cut (fitQuotes).
import { Chalk, type ChalkInstance } from 'chalk';
import type { Quote, RateLimitInfo, UnusableQuote } from '../api/types.js';
import { formatDuration } from '../shared/duration.js';
import { formatClock } from '../shared/time.js';
import type { PriceChange, QuoteChange } from './changes.js';
import { printable } from '../shared/text.js';
import { drawBlocks, drawSpaced, layoutColumns, screenRows, shorten, SPACED_FRAME, wrapWords, type Column, type Layout } from './grid.js';
import { ASCII_SPARK_LEVELS, SPARK_LEVELS, sparkline } from './sparkline.js';
import { QUOTE_TABLE_FIELDS, type QuoteFieldName } from './quote-fields.js';
import { quoteColumns, quoteRows, type QuoteRow } from './quote-table.js';

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
  /** The library's verdict on the quotes (getQuotes' `unusable`), which the board marks. */
  unusable?: readonly UnusableQuote[];
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
  // The frame may take every row: its last line is not followed by a newline, so it never scrolls.
  const room = options.rows === undefined ? undefined : options.rows - footer.length;
  const frame = [...fitQuotes(view, options, { chalk, marks, width, room }), ...footer];
  // However small the terminal, a frame never scrolls the screen (which would make it jump).
  return options.rows === undefined ? frame : frame.slice(0, Math.max(1, options.rows));
}

interface Fit {
  chalk: ChalkInstance;
  marks: Marks;
  /** The width of a line. */
  width: number;
  /** The lines the quotes may take; undefined: as many as they need (the last frame, left on the screen). */
  room: number | undefined;
}

/** One way to draw the quotes: its lines, how many quotes they show, how many fields they leave out. */
interface Fitted {
  lines: string[];
  shown: number;
  hidden: number;
}

/**
 * The quotes' lines, as the one-shot table draws them where it can: the columns side by side when
 * they fit the width; else a block per quote with every field, when the blocks fit the height. Only
 * when neither shows every quote are fields left out, the least needed first (dropOrder), choosing
 * what shows the most quotes, then the most fields, then the columns over the blocks. What is left
 * out is named, with how to see it, in lines that are never cut; rather than cut them, fewer quotes
 * are shown, and when not one quote fits, no field is left out: the line saying how many quotes do
 * not fit stands alone.
 */
function fitQuotes(view: BoardView, options: BoardOptions, fit: Fit): string[] {
  const { chalk, marks, width, room } = fit;
  const total = view.data.length;
  const title = (text: string) => chalk.bold(text);
  const more = (count: number) => [chalk.dim(shorten(`${marks.ellipsis} ${count} more; enlarge the window to see them`, width, marks.ellipsis))];
  // In the order of the columns: the fields', then the Note.
  const order: readonly string[] = [...(options.fields ?? QUOTE_TABLE_FIELDS), 'note'];
  const notice = (hidden: readonly Column[], advice: string) => (hidden.length === 0 ? [] : wrapWords(
    `${[...hidden].sort((a, b) => order.indexOf(a.name!) - order.indexOf(b.name!)).map((column) => column.title).join(', ')} hidden; ${advice}`, width,
  ).map((line) => chalk.dim(line)));
  // Only the quotes that can be on screen are laid out: a frame a second costs the same for 10 symbols or 10,000.
  // Each candidate lays out the first quotes again: their facts are read once, their columns built once per count.
  const facts = quoteRows(view.data.slice(0, room === undefined ? total : Math.max(1, room)), options);
  const built = new Map<number, Column[]>();
  const columnsOf = (count: number) => built.get(count)
    ?? built.set(count, buildColumns(firstQuotes(view, count), facts.slice(0, count), options, chalk, marks)).get(count)!;
  // A line wider than the window (a value written whole) takes more than one of its rows.
  const height = (lines: readonly string[]) => lines.reduce((sum, line) => sum + screenRows(line, width + 1), 0);
  const fits = (lines: readonly string[]) => room === undefined || height(lines) <= room;

  const side = (count: number): Fitted | undefined => {
    const layout = layoutColumns(columnsOf(count), width, SPACED_FRAME, { drop: true });
    if (layout.blocks !== undefined) return undefined;
    const hidden = hiddenFields(layout);
    const lines = [
      ...drawSpaced(layout, count, { ascii: options.ascii === true, title, maxWidth: width }),
      ...(count < total ? more(total - count) : []),
      ...notice(hidden, 'widen the window or use --fields'),
    ];
    return { lines, shown: count, hidden: hidden.length };
  };
  const blocks = (hide: ReadonlySet<string>, count: number): Fitted | undefined => {
    const columns = columnsOf(count);
    // The fields not hidden and the arrow beside the symbol; the Trend, a picture of the mids, is for the columns.
    const kept = columns.filter((column) => (column.name === undefined ? column.dropOrder === undefined : !hide.has(column.name)));
    const hidden = columns.filter((column) => column.name !== undefined && hide.has(column.name));
    const words = notice(hidden, 'enlarge the window or use --fields');
    const lines: string[] = [];
    let used = 0;
    let shown = 0;
    for (const block of drawBlocks(kept, { maxWidth: width, title })) {
      const added = room === undefined ? 0 : (shown === 0 ? 0 : 1) + height(block);
      // Below the blocks: the line saying how many quotes do not fit (one row, shortened), and the notice.
      if (room !== undefined && used + added + (shown + 1 < total ? 1 : 0) + words.length > room) break;
      if (shown > 0) lines.push('');
      lines.push(...block);
      used += added;
      shown++;
    }
    if (shown === 0) return undefined;
    // A quote that did not fit does not set the layout of those shown.
    if (shown < count) return blocks(hide, shown);
    return { lines: [...lines, ...(shown < total ? more(total - shown) : []), ...words], shown, hidden: hidden.length };
  };

  // The columns: every quote a line fits, fewer while the lines below them do not fit.
  let count = room === undefined ? total : Math.min(total, room - 1);
  let columns = count > 0 ? side(count) : undefined;
  while (columns !== undefined && !fits(columns.lines) && --count > 0) columns = side(count);
  const candidates: Fitted[] = columns !== undefined && count > 0 ? [columns] : [];
  // The blocks: every field, then without the least needed, until every quote fits. A block takes
  // two lines at least (the symbol and a field, a blank line between blocks).
  const droppable = columnsOf(Math.min(total, 1)).filter((column) => column.name !== undefined && column.name !== 'note' && column.dropOrder !== undefined)
    .sort((a, b) => a.dropOrder! - b.dropOrder!).map((column) => column.name!);
  const most = room === undefined ? total : Math.min(total, Math.floor((room + 1) / 2));
  for (let dropped = 0; dropped <= droppable.length && most > 0; dropped++) {
    // The blocks show `most` quotes at best: no use trying them when a way shows as many, leaving out as few.
    if (candidates.some((candidate) => candidate.shown >= most && candidate.hidden <= dropped)) break;
    const fitted = blocks(new Set(droppable.slice(0, dropped)), most);
    if (fitted !== undefined) candidates.push(fitted);
  }
  const best = candidates.reduce<Fitted | undefined>((chosen, candidate) => (chosen === undefined || candidate.shown > chosen.shown
    || (candidate.shown === chosen.shown && candidate.hidden < chosen.hidden) ? candidate : chosen), undefined);
  return best?.lines ?? more(total);
}

/** The view of the first `count` quotes. */
function firstQuotes(view: BoardView, count: number): BoardView {
  return count === view.data.length ? view
    : { ...view, data: view.data.slice(0, count), changes: view.changes.slice(0, count), history: view.history.slice(0, count) };
}

/** The board's columns for the quotes of `view`, whose facts are `rows` (quoteRows). */
function buildColumns(view: BoardView, rows: readonly QuoteRow[], options: BoardOptions, chalk: ChalkInstance, marks: Marks): Column[] {
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
