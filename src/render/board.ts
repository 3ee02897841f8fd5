// The live board of `mkt quotes --watch`: the quotes table with changed prices highlighted (green up,
// red down, the changed digits bold and underlined), an arrow for the mid's direction (so the facts
// survive without colour), a sparkline of this session's mids, and a status line. Pure: a view and
// the terminal's size in, lines out; src/cli/watch draws them.
import { Chalk, type ChalkInstance } from 'chalk';
import type { Quote, RateLimitInfo } from '../api/types.js';
import { formatDuration } from '../shared/duration.js';
import { formatClock } from '../shared/time.js';
import { alignDecimals } from './decimal.js';
import type { PriceChange, QuoteChange } from './changes.js';
import { sparkline } from './sparkline.js';
import { quoteRows } from './table.js';
import { stripControl } from '../shared/text.js';

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
}

export interface BoardView {
  data: readonly Quote[];
  /** One per quote, in the same order. */
  changes: readonly QuoteChange[];
  /** Mid prices of this session per quote, oldest first. */
  history: ReadonlyArray<readonly string[]>;
  missing: readonly string[];
  status: BoardStatus;
}

export interface BoardOptions {
  color: boolean;
  columns: number;
  /** Terminal height; rows that do not fit are summarised in one line. */
  rows: number | undefined;
  now: number;
  maxAgeMs?: number;
}

interface Column {
  title: string;
  align: 'left' | 'right';
  plain: string[];
  styled: string[];
  /** Lower goes first when the terminal is too narrow; undefined: never dropped. */
  dropOrder?: number;
}

const GAP = '  ';

export function renderBoard(view: BoardView, options: BoardOptions): string[] {
  const chalk = new Chalk({ level: options.color ? 1 : 0 });
  // One column short of the edge: a line that fills the last column leaves the cursor in the
  // pending-wrap state, where some terminals then erase or wrap unexpectedly.
  const width = Math.max(20, options.columns - 1);
  const footer = renderFooter(view, chalk, width);
  if (view.data.length === 0) {
    const waiting = view.status.polls === 0 ? 'waiting for the first quotes…' : 'the service returned no quotes';
    return [chalk.dim(waiting), ...footer];
  }
  const columns = buildColumns(view, options, chalk);
  const layout = fitColumns(columns, width);
  let visibleRows = view.data.length;
  if (options.rows !== undefined) {
    const room = options.rows - 1 - footer.length;
    if (room < visibleRows) visibleRows = Math.max(0, room - 1);
  }
  const lines = [joinCells(layout, -1, chalk, width)];
  for (let row = 0; row < visibleRows; row++) lines.push(joinCells(layout, row, chalk, width));
  if (visibleRows < view.data.length) {
    lines.push(chalk.dim(truncateStyled(`… ${view.data.length - visibleRows} more; enlarge the window to see them`, width)));
  }
  // However small the terminal, a frame never scrolls the screen (which would make it jump).
  const frame = [...lines, ...footer];
  return options.rows === undefined ? frame : frame.slice(0, Math.max(1, options.rows));
}

function buildColumns(view: BoardView, options: BoardOptions, chalk: ChalkInstance): Column[] {
  const rows = quoteRows(view.data, { now: options.now, maxAgeMs: options.maxAgeMs });
  const stale = rows.map((row) => row.notes.includes('stale'));
  const dim = (text: string, index: number) => (stale[index] ? chalk.dim(text) : text);
  const price = (field: 'bid' | 'ask' | 'mid'): Column => {
    const plain = alignDecimals(rows.map((row) => row[field]));
    const styled = plain.map((cell, index) => dim(stylePrice(cell, view.changes[index]?.[field], chalk), index));
    return { title: field[0]!.toUpperCase() + field.slice(1), align: 'left', plain, styled };
  };
  const simple = (title: string, plain: string[], align: Column['align'], dropOrder?: number): Column =>
    ({ title, align, plain, styled: plain.map(dim), dropOrder });
  const arrows = view.changes.map((change) => ARROWS[change?.mid.direction ?? 'same']);
  const columns: Column[] = [
    simple('Symbol', rows.map((row) => row.symbol), 'left'),
    price('bid'),
    price('ask'),
    price('mid'),
    { title: '', align: 'left', plain: arrows, styled: arrows.map((arrow) => (arrow === '▲' ? chalk.green(arrow) : arrow === '▼' ? chalk.red(arrow) : arrow)) },
    simple('Spread', alignDecimals(rows.map((row) => row.spread)), 'left', 3),
    simple('Age', rows.map((row) => row.age), 'right', 2),
    simple('Trend', view.history.map((series) => sparkline(series)), 'left', 1),
  ];
  if (rows.some((row) => row.notes.length > 0)) {
    const notes = rows.map((row) => row.notes.join(', '));
    columns.push({ title: 'Note', align: 'left', plain: notes, styled: notes.map((note) => (note === '' ? note : chalk.yellow(note))), dropOrder: 4 });
  }
  return columns;
}

const ARROWS: Record<PriceChange['direction'], string> = { up: '▲', down: '▼', same: ' ', new: ' ' };

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

/** Drops columns (sparkline first) until the table fits; the sparkline shrinks before it goes. */
function fitColumns(columns: Column[], width: number): Column[] {
  let kept = columns;
  const total = (list: Column[]) => list.reduce((sum, column) => sum + columnWidth(column), 0) + GAP.length * (list.length - 1);
  const trend = kept.find((column) => column.title === 'Trend');
  if (trend && total(kept) > width) {
    const room = width - (total(kept) - columnWidth(trend));
    const points = Math.max(0, room) >= 8 ? room : 0;
    if (points > 0) {
      trend.plain = trend.plain.map((line) => line.slice(-points));
      trend.styled = trend.plain;
    }
  }
  const droppable = [...kept].filter((column) => column.dropOrder !== undefined).sort((a, b) => a.dropOrder! - b.dropOrder!);
  for (const column of droppable) {
    if (total(kept) <= width) break;
    kept = kept.filter((candidate) => candidate !== column);
  }
  return kept;
}

function columnWidth(column: Column): number {
  return Math.max(column.title.length, ...column.plain.map((text) => [...text].length));
}

function joinCells(columns: Column[], row: number, chalk: ChalkInstance, width: number): string {
  const cells = columns.map((column) => {
    const size = columnWidth(column);
    const plain = row < 0 ? column.title : column.plain[row] ?? '';
    const styled = row < 0 ? chalk.bold(column.title) : column.styled[row] ?? '';
    const pad = ' '.repeat(size - [...plain].length);
    return column.align === 'right' ? `${pad}${styled}` : `${styled}${pad}`;
  });
  return truncateStyled(cells.join(GAP).trimEnd(), width);
}

function renderFooter(view: BoardView, chalk: ChalkInstance, width: number): string[] {
  const { status } = view;
  const parts = [
    status.updatedAt === undefined ? 'no quotes yet' : `updated ${formatClock(status.updatedAt)}`,
    `poll ${status.polls}`,
    `every ${formatDuration(status.intervalMs)}`,
  ];
  const { limit, remaining } = status.rateLimit ?? {};
  if (remaining !== undefined) parts.push(limit === undefined ? `${remaining} requests left` : `${remaining}/${limit} left`);
  parts.push('q to quit');
  const lines = ['', chalk.dim(truncateStyled(parts.join(' · '), width))];
  if (view.missing.length > 0) {
    lines.push(chalk.yellow(truncateStyled(`no quote for ${view.missing.map(stripControl).join(', ')}`, width)));
  }
  if (status.throttledUntil !== undefined) {
    lines.push(chalk.yellow(truncateStyled(`throttled until ${formatClock(status.throttledUntil)} (rate limit)`, width)));
  }
  if (status.problem !== undefined) {
    // The retry time first: a long message is cut at the terminal's edge.
    lines.push(chalk.red(truncateStyled(`retrying at ${formatClock(status.problem.retryAt)}: ${stripControl(status.problem.message)}`, width)));
  }
  return lines;
}

const SGR = /^\u001b\[[0-9;]*m/;

/** Cuts text to `width` visible characters, skipping colour sequences; resets styles if it cut. */
export function truncateStyled(text: string, width: number): string {
  let visible = 0;
  let out = '';
  let styled = false;
  for (let i = 0; i < text.length;) {
    const escape = SGR.exec(text.slice(i, i + 32));
    if (escape) {
      out += escape[0];
      styled = true;
      i += escape[0].length;
      continue;
    }
    const char = String.fromCodePoint(text.codePointAt(i)!);
    if (visible === width) return styled ? `${out}\u001b[0m` : out;
    out += char;
    visible++;
    i += char.length;
  }
  return out;
}
