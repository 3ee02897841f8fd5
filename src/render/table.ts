// The terminal table of any declared resource: a column per field, prices aligned on the decimal
// point with every digit, in a box (grid.ts). On a terminal it fits the width (free text cut, or a
// block per item when the columns do not fit side by side); in a pipe it is drawn whole. Colour
// only when the caller says so. Quotes' own table (quote-table.ts) is built from the same parts.
import { Chalk, type ChalkInstance } from 'chalk';
import { printable } from '../shared/text.js';
import { alignDecimals, compactDecimal } from './decimal.js';
import type { Field, TableOptions } from './fields.js';
import { BOX_FRAME, drawBox, layoutColumns, type Column } from './grid.js';

/**
 * A price wider than this in plain notation is shown in exponent form when that is shorter (one
 * quote of 1e999 would otherwise pad every row of its column to a thousand characters: 20,000
 * quotes made a 121 MB table), and a cell wider than this still (more significant digits than fit)
 * is written whole without widening its column. 24 holds 18 decimals of an instrument priced in the
 * thousands, or 15 integer digits and 8 decimals.
 */
export const MAX_PRICE_WIDTH = 24;

/** A field's column: a price's cells aligned on the point, the title, alignment and drop order declared. */
export function fieldColumn<N extends string>(field: Field<never, N>, cells: string[], style: Column['style']): Column & { name: N } {
  const price = field.kind === 'price' || field.kind === 'decimal';
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

/** Any declared resource's table: a column per field, a price as sent (in exponent form when shorter), no marks. */
export function fieldTable<T>(data: readonly T[], fields: readonly Field<T>[], options: Omit<TableOptions, 'fields'>): string {
  const cell = (field: Field<T>, item: T) => {
    const value = field.read(item, options.now);
    return field.kind === 'price' || field.kind === 'decimal' ? compactDecimal(value, MAX_PRICE_WIDTH) : printable(value);
  };
  const columns = fields.map((field) => fieldColumn(field, data.map((item) => cell(field, item)), undefined));
  return drawTable(columns, new Chalk({ level: options.color ? 1 : 0 }), options);
}

/** The columns in a box, fitted to the width: a block per item when they do not fit side by side. */
export function drawTable(columns: Column[], chalk: ChalkInstance, options: Pick<TableOptions, 'ascii' | 'columns'>): string {
  // A width of 0 is a terminal that does not know its own: drawn whole, as in a pipe.
  const width = options.columns !== undefined && options.columns > 0 ? options.columns : undefined;
  return drawBox(layoutColumns(columns, width, BOX_FRAME), { ascii: options.ascii, title: (text) => chalk.bold(text), maxWidth: width });
}
