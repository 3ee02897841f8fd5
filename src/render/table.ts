// The terminal table: prices aligned on the decimal point and padded to the instrument's precision
// (never rounded), the spread computed exactly, the age of each quote, and marks for crossed,
// locked and stale quotes. Colour only when the caller says so; the words carry the same facts.
// Drawn here rather than with cli-table3, whose layout grows faster than linearly with the rows:
// 0.3 s for 1,000 rows, 2 s for 4,000, 8 to 10 s for 10,000 (docs/benchmarks.md); this is linear.
import { Chalk } from 'chalk';
import type { Quote } from '../api/types.js';
import { formatAge, isStale } from '../shared/time.js';
import { alignDecimals, compare, fractionDigits, padFraction, plainDecimal, subtract } from './decimal.js';
import { stripControl } from '../shared/text.js';

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
    const bid = plainDecimal(quote.bid);
    const ask = plainDecimal(quote.ask);
    const precision = Math.max(fractionDigits(bid), fractionDigits(ask));
    const order = compare(bid, ask);
    const ageMs = options.now - Date.parse(quote.timestamp);
    const notes: string[] = [];
    if (order > 0) notes.push('crossed');
    else if (order === 0) notes.push('locked');
    if (options.maxAgeMs !== undefined && isStale(quote.timestamp, options.now, options.maxAgeMs)) notes.push('stale');
    return {
      symbol: stripControl(quote.symbol),
      bid: padFraction(bid, precision),
      ask: padFraction(ask, precision),
      mid: padFraction(quote.mid, precision),
      spread: padFraction(subtract(ask, bid), precision),
      age: formatAge(ageMs),
      notes,
    };
  });
}

export function renderTable(data: readonly Quote[], options: TableOptions): string {
  const chalk = new Chalk({ level: options.color ? 1 : 0 });
  const rows = quoteRows(data, options);
  const prices = (['bid', 'ask', 'mid', 'spread'] as const).map((field) => alignDecimals(rows.map((row) => row[field])));
  const withNotes = rows.some((row) => row.notes.length > 0);
  const head = ['Symbol', 'Bid', 'Ask', 'Mid', 'Spread', 'Age', ...(withNotes ? ['Note'] : [])];
  const align: Array<'left' | 'right'> = ['left', 'left', 'left', 'left', 'left', 'right', 'left'];
  // Plain text decides the widths; colour is added after padding, so escape codes never count.
  const cells = rows.map((row, index) => [
    row.symbol, prices[0]![index]!, prices[1]![index]!, prices[2]![index]!, prices[3]![index]!, row.age,
    ...(withNotes ? [row.notes.join(', ')] : []),
  ]);
  const widths = head.map((title, column) => cells.reduce((max, row) => Math.max(max, width(row[column]!)), width(title)));
  const pad = (text: string, column: number) => {
    const fill = ' '.repeat(widths[column]! - width(text));
    return align[column] === 'right' ? fill + text : text + fill;
  };
  const rule = (left: string, middle: string, right: string) => `${left}${widths.map((w) => '─'.repeat(w + 2)).join(middle)}${right}\n`;

  let text = rule('┌', '┬', '┐');
  text += `│ ${head.map((title, column) => chalk.bold(pad(title, column))).join(' │ ')} │\n`;
  text += rule('├', '┼', '┤');
  rows.forEach((row, index) => {
    const stale = row.notes.includes('stale');
    const line = cells[index]!.map((cell, column) => {
      const padded = pad(cell, column);
      if (column === 6) return row.notes.includes('stale') ? chalk.yellow(padded) : chalk.red(padded);
      return stale ? chalk.dim(padded) : padded;
    });
    text += `│ ${line.join(' │ ')} │\n`;
  });
  return text + rule('└', '┴', '┘');
}

const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * Terminal columns of plain text: one per code point (control characters are gone). Counted one by
 * one only when a surrogate pair is there: this runs for every cell, 70,000 times for 10,000 rows.
 */
function width(text: string): number {
  if (!SURROGATE.test(text)) return text.length;
  let count = 0;
  for (const _ of text) count++;
  return count;
}
