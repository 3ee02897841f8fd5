// The terminal table: prices aligned on the decimal point and padded to the instrument's precision
// (never rounded), the spread computed exactly, the age of each quote, and marks for crossed,
// locked and stale quotes and for quotes that cannot be right (quoteProblems). Colour only when
// the caller says so; the words carry the same facts. Laid out by the engine in grid.ts, which the
// watch board shares: on a terminal the table fits its width, in a pipe it is drawn whole. Any other
// declared resource gets the plain form (fieldTable): its fields' columns, prices aligned, no marks.
import { Chalk, type ChalkInstance } from 'chalk';
import { quoteProblems } from '../api/quote-checks.js';
import type { Quote } from '../api/types.js';
import { isStale } from '../shared/time.js';
import { alignDecimals, compactDecimal, compare, fractionDigits, padFraction, plainDecimal } from './decimal.js';
import { FIELD_NAMES, fieldsOf, formatQuoteAge, QUOTE_MODEL, TABLE_FIELDS, type Field, type FieldName } from './fields.js';
import { BOX_FRAME, drawBox, layoutColumns, type Column } from './grid.js';
import { cellText } from './quotes.js';

export interface TableOptions {
  color: boolean;
  /** Milliseconds since the epoch, for ages. */
  now: number;
  /** Quotes older than this are marked stale. */
  maxAgeMs?: number;
  /**
   * The terminal's width: the least needed columns are dropped to fit, then a block per quote. Undefined
   * or 0 (a pipe, a terminal that does not know): drawn whole.
   */
  columns?: number;
  /** Plain ASCII instead of box-drawing characters and `…` (TERM=dumb, a locale without UTF-8). */
  ascii?: boolean;
  /** The columns, in order (fields.ts); TABLE_FIELDS by default. */
  fields?: readonly FieldName[];
}

export type QuoteRow = Record<FieldName, string> & {
  notes: string[];
  stale: boolean;
  /** Crossed, locked, or a quote that cannot be right: more than stale. */
  alarming: boolean;
};

/**
 * A price wider than this in plain notation is shown in exponent form when that is shorter (one
 * quote of 1e999 would otherwise pad every row of its column to a thousand characters: 20,000
 * quotes made a 121 MB table), and a cell wider than this still (more significant digits than fit)
 * is written whole without widening its column. 24 holds 18 decimals of an instrument priced in the
 * thousands, or 15 integer digits and 8 decimals.
 */
export const MAX_PRICE_WIDTH = 24;

/** The facts of each row, before alignment and colour: every field's cell, as fields.ts reads it. */
export function quoteRows(data: readonly Quote[], options: Pick<TableOptions, 'now' | 'maxAgeMs'>): QuoteRow[] {
  const cell = (text: string) => compactDecimal(text, MAX_PRICE_WIDTH);
  const fields = fieldsOf(QUOTE_MODEL, FIELD_NAMES);
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
    const row = { notes, stale, alarming: order >= 0 || problems.length > 0 } as QuoteRow;
    for (const field of fields) {
      const value = field.read(quote, options.now);
      row[field.name] = field.kind === 'price' ? padded(plainDecimal(value)) : cellText(value);
    }
    return row;
  });
}

export { formatQuoteAge };

/** A column of the table or the board, named after its field (or `note`). */
export type NamedColumn = Column & { name: FieldName | 'note' };

export type PriceStyle = (field: FieldName, padded: string, row: number) => string;

/**
 * The columns both the table and the board show, one per field in `names` and a Note when a row
 * has one, aligned and styled: stale rows dimmed, notes in yellow (stale) or red (anything worse).
 * When the width is short, the fields go in their dropOrder (fields.ts: Age, then Spread, then
 * Mid), and the Note last, cut before it goes; Symbol, Bid and Ask always stay.
 */
export function quoteColumns(
  rows: readonly QuoteRow[], chalk: ChalkInstance, priceStyle?: PriceStyle, ascii = false, names: readonly FieldName[] = TABLE_FIELDS,
): NamedColumn[] {
  const dim = (text: string, row: number) => (rows[row]!.stale ? chalk.dim(text) : text);
  const columns: NamedColumn[] = fieldsOf(QUOTE_MODEL, names).map((field) => {
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

/** A field's column: a price's cells aligned on the point, the title, alignment and drop order declared. */
function fieldColumn<N extends string>(field: Field<never, N>, cells: string[], style: Column['style']): Column & { name: N } {
  const price = field.kind === 'price';
  const aligned = price ? alignDecimals(cells, MAX_PRICE_WIDTH) : cells;
  return {
    name: field.name,
    title: field.title,
    align: field.align,
    cells: aligned,
    style,
    dropOrder: field.dropOrder,
    // The aligned cells share one width; a price wider than MAX_PRICE_WIDTH does not set it.
    widest: price ? Math.max(0, ...aligned.filter((_cell, row) => cells[row]!.length <= MAX_PRICE_WIDTH).map((cell) => cell.length)) : undefined,
  };
}

export function renderTable(data: readonly Quote[], options: TableOptions): string {
  const chalk = new Chalk({ level: options.color ? 1 : 0 });
  return drawTable(quoteColumns(quoteRows(data, options), chalk, undefined, options.ascii === true, options.fields), chalk, options);
}

/** Any declared resource's table: a column per field, a price as sent (in exponent form when shorter), no marks. */
export function fieldTable<T>(data: readonly T[], fields: readonly Field<T>[], options: Omit<TableOptions, 'fields' | 'maxAgeMs'>): string {
  const cell = (field: Field<T>, item: T) => {
    const value = field.read(item, options.now);
    return field.kind === 'price' ? compactDecimal(value, MAX_PRICE_WIDTH) : cellText(value);
  };
  const columns = fields.map((field) => fieldColumn(field, data.map((item) => cell(field, item)), undefined));
  return drawTable(columns, new Chalk({ level: options.color ? 1 : 0 }), options);
}

function drawTable(columns: Column[], chalk: ChalkInstance, options: Pick<TableOptions, 'ascii' | 'columns'>): string {
  // A width of 0 is a terminal that does not know its own: drawn whole, as in a pipe.
  const width = options.columns !== undefined && options.columns > 0 ? options.columns : undefined;
  return drawBox(layoutColumns(columns, width, BOX_FRAME), { ascii: options.ascii === true, title: (text) => chalk.bold(text), maxWidth: width });
}
