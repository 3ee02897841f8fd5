// Quotes' table: prices aligned on the decimal point and padded to the instrument's precision
// (never rounded), the spread computed exactly, the age of each quote, and marks for crossed,
// locked and stale quotes and for quotes that cannot be right (quoteProblems). Colour only when
// the caller says so; the words carry the same facts. Quotes' declaration draws its table with it
// (quote-model.ts); the watch board (board.ts) takes its columns. Laid out by the engine in grid.ts:
// on a terminal the table fits its width, in a pipe it is drawn whole.
import { Chalk, type ChalkInstance } from 'chalk';
import { quoteProblems } from '../api/quote-checks.js';
import type { Quote, UnusableQuote } from '../api/types.js';
import { isStale } from '../shared/time.js';
import { printable } from '../shared/text.js';
import { compactDecimal, compare, fractionDigits, padFraction, plainDecimal } from './decimal.js';
import { fieldsOf, type TableOptions } from './fields.js';
import type { Column } from './grid.js';
import { QUOTE_FIELD_NAMES, QUOTE_FIELDS, QUOTE_TABLE_FIELDS, type QuoteFieldName } from './quote-fields.js';
import { drawTable, fieldColumn, MAX_PRICE_WIDTH } from './table.js';

export interface QuoteTableOptions extends Pick<TableOptions, 'color' | 'now'>, Partial<Pick<TableOptions, 'columns' | 'ascii'>> {
  /** Quotes older than this are marked stale. */
  maxAgeMs?: number;
  /** The columns, in order; QUOTE_TABLE_FIELDS by default. */
  fields?: readonly QuoteFieldName[];
  /**
   * The library's verdict on the quotes (getQuotes' `unusable`): each such quote is marked with what
   * is wrong. Without it, each quote is judged here, as the library would (quoteProblems).
   */
  unusable?: readonly UnusableQuote[];
}

export type QuoteRow = Record<QuoteFieldName, string> & {
  notes: string[];
  stale: boolean;
  /** Crossed, locked, or a quote that cannot be right: more than stale. */
  alarming: boolean;
};

/** The facts of each row, before alignment and colour: every field's cell, as quote-fields.ts reads it. */
export function quoteRows(data: readonly Quote[], options: Pick<QuoteTableOptions, 'now' | 'maxAgeMs' | 'unusable'>): QuoteRow[] {
  const cell = (text: string) => compactDecimal(text, MAX_PRICE_WIDTH);
  const verdict = options.unusable === undefined ? undefined : new Map(options.unusable.map(({ symbol, problems }) => [symbol.toUpperCase(), problems]));
  const fields = fieldsOf({ fields: QUOTE_FIELDS }, QUOTE_FIELD_NAMES);
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
    const problems = verdict === undefined ? quoteProblems(quote, options.now) : verdict.get(quote.symbol.toUpperCase()) ?? [];
    notes.push(...problems);
    const row = { notes, stale, alarming: order >= 0 || problems.length > 0 } as QuoteRow;
    for (const field of fields) {
      const value = field.read(quote, options.now);
      row[field.name] = field.kind === 'price' ? padded(plainDecimal(value)) : printable(value);
    }
    return row;
  });
}

/** A column of the table or the board, named after its field (or `note`). */
export type NamedColumn = Column & { name: QuoteFieldName | 'note' };

export type PriceStyle = (field: QuoteFieldName, padded: string, row: number) => string;

/**
 * The columns both the table and the board show, one per field in `names` and a Note when a row
 * has one, aligned and styled: stale rows dimmed, notes in yellow (stale) or red (anything worse).
 * The Note is cut to fit before anything else gives. The table keeps every column (a block per quote
 * when they do not fit); the board too, unless its window is too short for the blocks, where it drops
 * them in their dropOrder (quote-fields.ts: Age, then Spread, then Mid, then the Note) and names
 * them; Symbol, Bid and Ask always stay.
 */
export function quoteColumns(
  rows: readonly QuoteRow[], chalk: ChalkInstance, priceStyle?: PriceStyle, ascii = false, names: readonly QuoteFieldName[] = QUOTE_TABLE_FIELDS,
): NamedColumn[] {
  const dim = (text: string, row: number) => (rows[row]!.stale ? chalk.dim(text) : text);
  const columns: NamedColumn[] = fieldsOf({ fields: QUOTE_FIELDS }, names).map((field) => {
    const styled = field.kind === 'price' && priceStyle !== undefined;
    return fieldColumn(field, rows.map((row) => row[field.name]), styled ? (padded, row) => dim(priceStyle(field.name, padded, row), row) : dim);
  });
  const ellipsis = ascii ? '...' : '…';
  if (rows.some((row) => row.notes.length > 0)) {
    columns.push({
      name: 'note',
      title: 'Note',
      align: 'left',
      cells: rows.map((row) => row.notes.join(', ')),
      style: (padded, row) => (rows[row]!.alarming ? chalk.red(padded) : rows[row]!.stale ? chalk.yellow(padded) : padded),
      dropOrder: 5,
      shrink: { minWidth: 12, cut: (text, width) => `${text.slice(0, Math.max(0, width - ellipsis.length))}${ellipsis}` },
    });
  }
  return columns;
}

/** Quotes' table: the columns of `fields` (the table's by default), and a Note when a row has one. */
export function renderQuoteTable(data: readonly Quote[], options: QuoteTableOptions): string {
  const chalk = new Chalk({ level: options.color ? 1 : 0 });
  const ascii = options.ascii === true;
  return drawTable(quoteColumns(quoteRows(data, options), chalk, undefined, ascii, options.fields), chalk, { ascii, columns: options.columns });
}
