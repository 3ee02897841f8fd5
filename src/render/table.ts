// The terminal table: prices aligned on the decimal point and padded to the instrument's precision
// (never rounded), the spread computed exactly, the age of each quote, and marks for crossed,
// locked and stale quotes and for quotes that cannot be right (quoteProblems). Colour only when
// the caller says so; the words carry the same facts. Laid out by the engine in grid.ts, which the
// watch board shares: on a terminal the table fits its width, in a pipe it is drawn whole.
import { Chalk, type ChalkInstance } from 'chalk';
import { quoteProblems } from '../api/quote-checks.js';
import type { Quote } from '../api/types.js';
import { formatAge, isStale } from '../shared/time.js';
import { alignDecimals, boundedDecimal, compare, fractionDigits, padFraction, plainDecimal, subtract } from './decimal.js';
import { BOX_FRAME, drawBox, layoutColumns, type Column } from './grid.js';
import { cellText } from './quotes.js';

export interface TableOptions {
  color: boolean;
  /** Milliseconds since the epoch, for ages. */
  now: number;
  /** Quotes older than this are marked stale. */
  maxAgeMs?: number;
  /** The terminal's width: the least needed columns are dropped to fit. Undefined (a pipe): drawn whole. */
  columns?: number;
  /** Plain ASCII instead of box-drawing characters and `…` (TERM=dumb, a locale without UTF-8). */
  ascii?: boolean;
}

export interface QuoteRow {
  symbol: string;
  bid: string;
  ask: string;
  mid: string;
  spread: string;
  age: string;
  notes: string[];
  stale: boolean;
  /** Crossed, locked, or a quote that cannot be right: more than stale. */
  alarming: boolean;
}

/**
 * A price cell is at most this wide: one quote of 1e999 would otherwise pad every row of its
 * column to a thousand characters (20,000 quotes made a 121 MB table). 24 holds 18 decimals of an
 * instrument priced in the thousands, or 15 integer digits and 8 decimals.
 */
export const MAX_PRICE_WIDTH = 24;

/** The facts of each row, before alignment and colour. */
export function quoteRows(data: readonly Quote[], options: Pick<TableOptions, 'now' | 'maxAgeMs' | 'ascii'>): QuoteRow[] {
  const ellipsis = options.ascii ? '...' : '…';
  const cell = (text: string) => boundedDecimal(text, MAX_PRICE_WIDTH, ellipsis);
  return data.map((quote) => {
    const bid = plainDecimal(quote.bid);
    const ask = plainDecimal(quote.ask);
    // Only prices shown in full set the precision the others are padded to.
    const precision = Math.max(...[bid, ask].map((price) => (price.length <= MAX_PRICE_WIDTH ? fractionDigits(price) : 0)));
    const padded = (price: string) => {
      const plain = padFraction(price, precision);
      return cell(plain.length <= MAX_PRICE_WIDTH ? plain : price);
    };
    const order = compare(bid, ask);
    const notes: string[] = [];
    if (order > 0) notes.push('crossed');
    else if (order === 0) notes.push('locked');
    const stale = options.maxAgeMs !== undefined && isStale(quote.timestamp, options.now, options.maxAgeMs);
    if (stale) notes.push('stale');
    const problems = quoteProblems(quote, options.now);
    notes.push(...problems);
    return {
      symbol: cellText(quote.symbol),
      bid: padded(bid),
      ask: padded(ask),
      mid: padded(plainDecimal(quote.mid)),
      spread: padded(subtract(ask, bid)),
      age: formatQuoteAge(options.now - Date.parse(quote.timestamp)),
      notes,
      stale,
      alarming: order >= 0 || problems.length > 0,
    };
  });
}

/**
 * A quote's age as it is drawn. Under 10 s in tenths (`0.8s`), under a minute in seconds, both
 * rounded up: an age never reads younger than it is, so a row marked stale under --max-age 500ms
 * reads `0.6s`, never `0s` or `0.5s`. Longer ages as formatAge writes them (`3m`, `2h 5m`, `3d`).
 */
export function formatQuoteAge(ms: number): string {
  if (Number.isNaN(ms)) return '?';
  if (ms <= 0) return '0s';
  if (ms < 10_000) return `${Math.ceil(ms / 100) / 10}s`;
  if (ms < 60_000) return `${Math.ceil(ms / 1000)}s`;
  return formatAge(ms);
}

export interface QuoteColumns {
  symbol: Column;
  bid: Column;
  ask: Column;
  mid: Column;
  spread: Column;
  age: Column;
  /** Only when a row has a note. */
  note: Column | undefined;
}

export type PriceStyle = (field: 'bid' | 'ask' | 'mid', padded: string, row: number) => string;

/**
 * The columns both the table and the board show, aligned and styled: stale rows dimmed, notes in
 * yellow (stale) or red (anything worse). When the width is short, Age goes first, then Spread,
 * then Mid (the facts of a Note weigh more than a price halfway between two shown), and the Note
 * last, cut before it goes; Symbol, Bid and Ask always stay.
 */
export function quoteColumns(rows: readonly QuoteRow[], chalk: ChalkInstance, priceStyle?: PriceStyle, ascii = false): QuoteColumns {
  const dim = (text: string, row: number) => (rows[row]!.stale ? chalk.dim(text) : text);
  const price = (field: 'bid' | 'ask' | 'mid', dropOrder?: number): Column => ({
    title: field[0]!.toUpperCase() + field.slice(1),
    align: 'left',
    cells: alignDecimals(rows.map((row) => row[field])),
    style: priceStyle === undefined ? dim : (padded, row) => dim(priceStyle(field, padded, row), row),
    dropOrder,
  });
  const ellipsis = ascii ? '...' : '…';
  const withNotes = rows.some((row) => row.notes.length > 0);
  return {
    symbol: { title: 'Symbol', align: 'left', cells: rows.map((row) => row.symbol), style: dim },
    bid: price('bid'),
    ask: price('ask'),
    mid: price('mid', 4),
    spread: { title: 'Spread', align: 'left', cells: alignDecimals(rows.map((row) => row.spread)), style: dim, dropOrder: 3 },
    age: { title: 'Age', align: 'right', cells: rows.map((row) => row.age), style: dim, dropOrder: 2 },
    note: withNotes ? {
      title: 'Note',
      align: 'left',
      cells: rows.map((row) => row.notes.join(', ')),
      style: (padded, row) => (rows[row]!.alarming ? chalk.red(padded) : rows[row]!.stale ? chalk.yellow(padded) : padded),
      dropOrder: 5,
      shrink: { minWidth: 12, cut: (text, width) => `${text.slice(0, width - ellipsis.length)}${ellipsis}` },
    } : undefined,
  };
}

export function renderTable(data: readonly Quote[], options: TableOptions): string {
  const chalk = new Chalk({ level: options.color ? 1 : 0 });
  const ascii = options.ascii === true;
  const { symbol, bid, ask, mid, spread, age, note } = quoteColumns(quoteRows(data, options), chalk, undefined, ascii);
  const columns = [symbol, bid, ask, mid, spread, age, ...(note === undefined ? [] : [note])];
  return drawBox(layoutColumns(columns, options.columns, BOX_FRAME), { ascii, title: (text) => chalk.bold(text), maxWidth: options.columns });
}
