// A valuation's table, for people: the positions (the columns asked for; cost and P&L only where a
// position has a cost), a Note where one could not be valued, then a table of totals, one line per
// currency and one for the whole in the base currency, with the rate each currency converts at.
// Figures are aligned on the decimal point and written whole, every digit: a converted value can
// hold the 34 significant digits of a rate, and is never rounded or cut to fit. Laid out by the one
// table engine (grid.ts): fitted to a terminal, or a block per line when the columns do not fit.
import { Chalk, type ChalkInstance } from 'chalk';
import type { Valuation, ValuedPosition } from '../api/valuation.js';
import { printable } from '../shared/text.js';
import { alignDecimals, compactDecimal } from './decimal.js';
import type { TableOptions } from './fields.js';
import type { Column } from './grid.js';
import { drawTable } from './table.js';
import { totalRows, VALUE_FIELDS, type ValueFieldName } from './value-fields.js';

/**
 * A figure wider than this in plain notation is shown in exponent form when that is shorter (a
 * quantity of 1e999). Wide enough for a value converted at a 34-digit rate, which has no shorter form.
 */
const MAX_FIGURE_WIDTH = 80;

const COST_FIELDS: readonly ValueFieldName[] = ['cost', 'pnl', 'pnl_base'];

/** A column of decimals: exact, aligned on the point; an empty cell where there is no figure. */
function figures(name: string, title: string, values: ReadonlyArray<string | null | undefined>, style?: Column['style']): Column {
  const cells = values.map((value) => (value === null || value === undefined || value === '' ? '' : compactDecimal(value, MAX_FIGURE_WIDTH)));
  // Exponent forms (rare) are written as they are; the others line up.
  const plain = cells.map((cell, row) => [cell, row] as const).filter(([cell]) => !/e/i.test(cell));
  const aligned = alignDecimals(plain.map(([cell]) => cell));
  plain.forEach(([, row], index) => {
    cells[row] = aligned[index]!;
  });
  return { name, title, align: 'right', cells, style };
}

function words(name: string, title: string, cells: string[], style?: Column['style']): Column {
  return { name, title, align: 'left', cells: cells.map((cell) => printable(cell)), style };
}

function positionNote(position: ValuedPosition, base: string): string {
  if (position.status === 'missing') return 'no quote';
  if (position.status === 'no_route') return `no rate from ${position.currency} to ${base}`;
  return '';
}

/** A Note, when a line has one: free text, the one thing cut to fit a terminal (with an ellipsis). */
function noteColumn(notes: string[], color: (text: string) => string, ascii: boolean): Column[] {
  if (!notes.some((note) => note !== '')) return [];
  const ellipsis = ascii ? '...' : '…';
  return [{
    name: 'note', title: 'Note', align: 'left', cells: notes, style: (padded) => (padded.trim() === '' ? padded : color(padded)),
    dropOrder: 1, shrink: { minWidth: 12, cut: (text, width) => `${text.slice(0, Math.max(0, width - ellipsis.length))}${ellipsis}` },
  }];
}

/** The positions' columns, in the order of `fields`; the title of a figure in the base names the base. */
function positionColumns(valuation: Valuation, fields: readonly ValueFieldName[], chalk: ChalkInstance, ascii: boolean): Column[] {
  const { base, positions } = valuation;
  const withCost = valuation.total_pnl_base !== undefined;
  const titles: Partial<Record<ValueFieldName, string>> = { value_base: `Value ${base}`, pnl_base: `P&L ${base}` };
  const dim = (padded: string, row: number) => (positions[row]!.status === 'ok' ? padded : chalk.dim(padded));
  const columns = fields.filter((name) => withCost || !COST_FIELDS.includes(name)).map((name) => {
    const field = VALUE_FIELDS[name];
    const title = titles[name] ?? field.title;
    const values = positions.map((position) => field.read(position, 0));
    return field.kind === 'decimal' ? figures(name, title, values, dim) : words(name, title, values, dim);
  });
  return [...columns, ...noteColumn(positions.map((position) => positionNote(position, base)), chalk.red, ascii)];
}

/** The totals' columns: each currency, then the whole in the base. */
function totalColumns(valuation: Valuation, chalk: ChalkInstance, ascii: boolean): Column[] {
  const { base } = valuation;
  const rows = totalRows(valuation);
  const withCost = valuation.total_pnl_base !== undefined;
  const left = new Map<string, number>();
  for (const position of valuation.positions) if (position.status === 'missing') left.set(position.currency, (left.get(position.currency) ?? 0) + 1);
  const unvalued = valuation.positions.filter((position) => position.status !== 'ok').length;
  const notes = rows.map((row) => {
    if (!row.incomplete) return '';
    if (row.row === 'total_base') return `incomplete: leaves out ${unvalued} position${unvalued === 1 ? '' : 's'}`;
    const missing = left.get(row.currency) ?? 0;
    const parts = missing > 0 ? [`${missing} without a quote`] : [];
    if (row.value_base === null) parts.push(`no rate to ${base}`);
    return `incomplete: ${parts.join(', ')}`;
  });
  const bold = (padded: string, row: number) => (rows[row]!.row === 'total_base' ? chalk.bold(padded) : padded);
  return [
    words('symbol', 'Total', rows.map((row) => (row.row === 'total_base' ? `all, in ${base}` : row.currency)), bold),
    figures('rate', `Rate to ${base}`, rows.map((row) => row.rate)),
    figures('value', 'Value', rows.map((row) => row.value)),
    figures('value_base', `Value ${base}`, rows.map((row) => row.value_base), bold),
    ...(withCost ? [figures('pnl', 'P&L', rows.map((row) => row.pnl)), figures('pnl_base', `P&L ${base}`, rows.map((row) => row.pnl_base), bold)] : []),
    ...noteColumn(notes, chalk.yellow, ascii),
  ];
}

/** The positions' table, then the totals' table, a blank line between. */
export function renderValueTable(valuation: Valuation, options: TableOptions<ValueFieldName>): string {
  const chalk = new Chalk({ level: options.color ? 1 : 0 });
  const layout = { ascii: options.ascii, columns: options.columns };
  const positions = drawTable(positionColumns(valuation, options.fields, chalk, options.ascii), chalk, layout);
  const totals = drawTable(totalColumns(valuation, chalk, options.ascii), chalk, layout);
  return `${positions}\n${totals}`;
}
