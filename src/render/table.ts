// The terminal table: prices aligned on the decimal point and padded to the instrument's precision
// (never rounded), the spread computed exactly, the age of each quote, and marks for crossed,
// locked and stale quotes. Colour only when the caller says so; the words carry the same facts.
import { Chalk } from 'chalk';
import Table from 'cli-table3';
import type { Quote } from '../api/types.js';
import { formatAge } from './age.js';
import { alignDecimals, compare, fractionDigits, padFraction, subtract } from './decimal.js';
import { stripControl } from './text.js';

export interface TableOptions {
  color: boolean;
  /** Milliseconds since the epoch, for ages. */
  now: number;
  /** Quotes older than this are marked stale. */
  maxAgeMs?: number;
}

export interface QuoteRow {
  symbol: string;
  bid: string;
  ask: string;
  mid: string;
  spread: string;
  age: string;
  notes: string[];
}

/** The facts of each row, before alignment and colour. */
export function quoteRows(data: readonly Quote[], options: Pick<TableOptions, 'now' | 'maxAgeMs'>): QuoteRow[] {
  return data.map((quote) => {
    const precision = Math.max(fractionDigits(quote.bid), fractionDigits(quote.ask));
    const order = compare(quote.bid, quote.ask);
    const ageMs = options.now - Date.parse(quote.timestamp);
    const notes: string[] = [];
    if (order > 0) notes.push('crossed');
    else if (order === 0) notes.push('locked');
    if (options.maxAgeMs !== undefined && ageMs > options.maxAgeMs) notes.push('stale');
    return {
      symbol: stripControl(quote.symbol),
      bid: padFraction(quote.bid, precision),
      ask: padFraction(quote.ask, precision),
      mid: padFraction(quote.mid, precision),
      spread: padFraction(subtract(quote.ask, quote.bid), precision),
      age: formatAge(ageMs),
      notes,
    };
  });
}

export function renderTable(data: readonly Quote[], options: TableOptions): string {
  const chalk = new Chalk({ level: options.color ? 1 : 0 });
  const rows = quoteRows(data, options);
  const columns = {
    bid: alignDecimals(rows.map((row) => row.bid)),
    ask: alignDecimals(rows.map((row) => row.ask)),
    mid: alignDecimals(rows.map((row) => row.mid)),
    spread: alignDecimals(rows.map((row) => row.spread)),
  };
  const withNotes = rows.some((row) => row.notes.length > 0);
  const head = ['Symbol', 'Bid', 'Ask', 'Mid', 'Spread', 'Age', ...(withNotes ? ['Note'] : [])];
  const table = new Table({
    head: head.map((title) => chalk.bold(title)),
    style: { head: [], border: [], compact: true, 'padding-left': 1, 'padding-right': 1 },
    colAligns: ['left', 'left', 'left', 'left', 'left', 'right', 'left'],
  });
  rows.forEach((row, index) => {
    const stale = row.notes.includes('stale');
    const paint = (text: string) => (stale ? chalk.dim(text) : text);
    const note = row.notes.map((word) => (word === 'stale' ? chalk.yellow(word) : chalk.red(word))).join(', ');
    table.push([
      paint(row.symbol),
      paint(columns.bid[index]!),
      paint(columns.ask[index]!),
      paint(columns.mid[index]!),
      paint(columns.spread[index]!),
      paint(row.age),
      ...(withNotes ? [note] : []),
    ]);
  });
  return `${table.toString()}\n`;
}
