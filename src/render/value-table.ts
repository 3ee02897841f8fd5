// A valuation's table, for people: the positions (the columns asked for; cost and P&L only where a
// position has a cost), a Note where one could not be valued, then a table of totals, one line per
// currency and one for the whole in the base currency, with the rate each currency converts at;
// below, the instant the prices are as of, and where the rounded rows do not add up to the rounded
// total, a line that says so. Figures are as the valuation document writes them (by default each
// currency's minor units: valuation.ts rounds each once), grouped in thousands and aligned on the
// decimal point, never cut. Laid out by the one table engine (grid.ts): fitted to a terminal, or a
// block per line when the columns do not fit.
// On the board of a watch, a Change column in each table: how each figure in the base moved since
// it was first known (value-changes.ts), signed, with an arrow, so the direction survives no colour;
// and in a window too narrow for every column, the least needed are left out rather than each line
// becoming a block (the symbol and its value in the base stay), named below with how to see them, in
// words wrapped over lines, never cut.
import { Chalk, type ChalkInstance } from 'chalk';
import type { Valuation, ValuedPosition } from '../api/valuation.js';
import { printable } from '../shared/text.js';
import { addDecimals, alignDecimals, compactDecimal, groupThousands } from './decimal.js';
import type { TableOptions } from './fields.js';
import { BOX_FRAME, drawBox, layoutColumns, wrapWords, type Column } from './grid.js';
import { drawTable } from './table.js';
import { changeText, signedChange, type ValuationChange } from './value-changes.js';
import { totalRows, VALUE_FIELDS, type ValueFieldName } from './value-fields.js';

/**
 * A figure wider than this in plain notation is shown in exponent form when that is shorter (a
 * quantity of 1e999). Wide enough for a value converted at a 34-digit rate, which has no shorter form.
 */
const MAX_FIGURE_WIDTH = 80;

const COST_FIELDS: readonly ValueFieldName[] = ['cost', 'pnl', 'pnl_base'];

/**
 * On the board, which columns go first when the window is narrow (after the Note, which shrinks
 * first): lower first; the symbol and value_base never; a value in its own currency goes before the
 * currency, never shown without it. The one-shot table keeps every column.
 */
const DROP_ORDER: Readonly<Record<string, number>> = { cost: 2, rate: 2, pnl: 3, price: 4, quantity: 5, value: 6, currency: 7, pnl_base: 8, change: 9 };

/** What the board of a watch adds to the tables: the change of each figure in the base since it was first known. */
export interface ValueBoardView {
  change: ValuationChange;
}

/** A column of decimals: as written, grouped in thousands, aligned on the point; an empty cell where there is no figure. */
function figures(name: string, title: string, values: ReadonlyArray<string | null | undefined>, style?: Column['style']): Column {
  const cells = values.map((value) => (value === null || value === undefined || value === '' ? '' : groupThousands(compactDecimal(value, MAX_FIGURE_WIDTH))));
  // Exponent forms (rare) are written as they are; the others line up.
  const plain = cells.map((cell, row) => [cell, row] as const).filter(([cell]) => !/e/i.test(cell));
  const aligned = alignDecimals(plain.map(([cell]) => cell));
  plain.forEach(([, row], index) => {
    cells[row] = aligned[index]!;
  });
  return { name, title, align: 'right', cells, style };
}

/** Changes in the base: signed, aligned on the point, an arrow after (▲ up, ▼ down), green and red. */
function changeColumn(title: string, changes: ReadonlyArray<string | undefined>, chalk: ChalkInstance, ascii: boolean): Column {
  const directions = changes.map((change) => (change === undefined || /^[0.]+$/.test(change) ? 0 : change.startsWith('-') ? -1 : 1));
  const texts = changes.map((change) => (change === undefined ? '' : signedChange(groupThousands(compactDecimal(change, MAX_FIGURE_WIDTH)))));
  // Exponent forms (rare) are written as they are; the others line up.
  const plain = texts.map((text, row) => [text, row] as const).filter(([text]) => text !== '' && !/e/i.test(text));
  alignDecimals(plain.map(([text]) => text)).forEach((aligned, index) => {
    texts[plain[index]![1]] = aligned;
  });
  const [up, down] = ascii ? ['^', 'v'] : ['▲', '▼'];
  const mark = (row: number) => (directions[row]! > 0 ? up : directions[row]! < 0 ? down : ' ');
  return {
    name: 'change', title, align: 'right',
    cells: texts.map((text, row) => (changes[row] === undefined ? '' : `${text} ${mark(row)}`)),
    style: (padded, row) => (directions[row]! > 0 ? chalk.green(padded) : directions[row]! < 0 ? chalk.red(padded) : padded),
  };
}

function words(name: string, title: string, cells: string[], style?: Column['style']): Column {
  return { name, title, align: 'left', cells: cells.map((cell) => printable(cell)), style };
}

function positionNote(position: ValuedPosition, base: string): string {
  if (position.status === 'missing') return 'no quote';
  if (position.status === 'no_route') return `no rate from ${position.currency} to ${base}`;
  if (position.status === 'unusable') return position.reason ?? 'its quote cannot be right';
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
function positionColumns(valuation: Valuation, fields: readonly ValueFieldName[], chalk: ChalkInstance, ascii: boolean, change: ValuationChange | undefined): Column[] {
  const { base, positions } = valuation;
  const withCost = positions.some((position) => position.cost !== undefined);
  const titles: Partial<Record<ValueFieldName, string>> = { value_base: `Value ${base}`, pnl_base: `P&L ${base}` };
  const dim = (padded: string, row: number) => (positions[row]!.status === 'ok' ? padded : chalk.dim(padded));
  const columns = fields.filter((name) => withCost || !COST_FIELDS.includes(name)).map((name) => {
    const field = VALUE_FIELDS[name];
    const title = titles[name] ?? field.title;
    const values = positions.map((position) => field.read(position, 0));
    return field.kind === 'decimal' ? figures(name, title, values, dim) : words(name, title, values, dim);
  });
  const changes = change === undefined ? [] : [changeColumn(`Change ${base}`, change.positions.map((each) => (each === undefined ? undefined : changeText(each, valuation))), chalk, ascii)];
  return [...columns, ...changes, ...noteColumn(positions.map((position) => positionNote(position, base)), chalk.red, ascii)];
}

/** The totals' columns: each currency, then the whole in the base. */
function totalColumns(valuation: Valuation, chalk: ChalkInstance, ascii: boolean, change: ValuationChange | undefined): Column[] {
  const { base } = valuation;
  const rows = totalRows(valuation);
  const withCost = valuation.positions.some((position) => position.cost !== undefined);
  const left = new Map<string, number>();
  const wrong = new Map<string, number>();
  for (const position of valuation.positions) {
    if (position.status === 'missing') left.set(position.currency, (left.get(position.currency) ?? 0) + 1);
    // Not valued for its own quote; a currency whose rate cannot be used says so as no rate.
    if (position.status === 'unusable' && position.value === null) wrong.set(position.currency, (wrong.get(position.currency) ?? 0) + 1);
  }
  const unvalued = valuation.positions.filter((position) => position.status !== 'ok').length;
  const notes = rows.map((row) => {
    if (!row.incomplete) return '';
    if (row.row === 'total_base') return `incomplete: leaves out ${unvalued} position${unvalued === 1 ? '' : 's'}`;
    const missing = left.get(row.currency) ?? 0;
    const unusable = wrong.get(row.currency) ?? 0;
    const parts = missing > 0 ? [`${missing} without a quote`] : [];
    if (unusable > 0) parts.push(`${unusable} with a quote that cannot be right`);
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
    ...(change === undefined ? [] : [changeColumn(`Change ${base}`, rows.map((row) => {
      const each = row.row === 'total_base' ? change.total : change.totals.get(row.currency);
      return each === undefined ? undefined : changeText(each, valuation);
    }), chalk, ascii)]),
    ...noteColumn(notes, chalk.yellow, ascii),
  ];
}

/**
 * The positions' table, then the totals' table, a blank line between. With `board` (a watch's), each
 * has a Change column, and a window too narrow for every column leaves the least needed out, a line
 * naming them.
 */
export function renderValueTable(valuation: Valuation, options: TableOptions<ValueFieldName>, board?: ValueBoardView): string {
  const chalk = new Chalk({ level: options.color ? 1 : 0 });
  const draw = (columns: Column[]) => (board === undefined ? drawTable(columns, chalk, options) : fitTable(columns, chalk, options));
  const positions = draw(positionColumns(valuation, options.fields, chalk, options.ascii, board?.change));
  const totals = draw(totalColumns(valuation, chalk, options.ascii, board?.change));
  const width = options.columns !== undefined && options.columns > 0 ? options.columns - 1 : Infinity;
  const notes = [...asOfNote(valuation), ...roundingNotes(valuation)].flatMap((note) => wrapWords(note, width)).map((line) => `${chalk.dim(line)}\n`);
  return `${positions}\n${totals}${notes.join('')}`;
}

/** `Prices as of 2025-01-06T14:30:15Z (the oldest quote used)`, once. */
function asOfNote(valuation: Valuation): string[] {
  return valuation.as_of === null ? [] : [`Prices as of ${printable(valuation.as_of)} (the oldest quote used).`];
}

/**
 * Where the rows shown in the base do not add up to the total shown (each figure rounded once, the
 * total from the exact sum), a line that says so, for Value and P&L in the base.
 */
function roundingNotes(valuation: Valuation): string[] {
  const { base, positions } = valuation;
  const notes: string[] = [];
  const check = (title: string, rows: ReadonlyArray<string | null | undefined>, total: string | null) => {
    const shown = rows.filter((row): row is string => typeof row === 'string');
    if (total === null || shown.length === 0) return;
    const sum = addDecimals(shown);
    if (sum === undefined || sum.same(total)) return;
    notes.push(`The ${title} rows add up to ${groupThousands(sum.text)}; the total, ${groupThousands(total)} ${base}, is the exact sum rounded once (half-even), not a sum of rounded rows.`);
  };
  check(`Value ${base}`, positions.map((position) => position.value_base), valuation.total_base);
  check(`P&L ${base}`, positions.map((position) => position.pnl_base), valuation.total_pnl_base);
  return notes;
}

/** The board's table: the columns that fit the window, in their drop order, and a line naming those left out. */
function fitTable(columns: Column[], chalk: ChalkInstance, options: Pick<TableOptions, 'ascii' | 'columns'>): string {
  // A width of 0 is a terminal that does not know its own: drawn whole, as in a pipe.
  const width = options.columns !== undefined && options.columns > 0 ? options.columns : undefined;
  const ordered = columns.map((column) => (column.name !== undefined && DROP_ORDER[column.name] !== undefined ? { ...column, dropOrder: DROP_ORDER[column.name] } : column));
  const layout = layoutColumns(ordered, width, BOX_FRAME, { drop: true });
  const box = drawBox(layout, { ascii: options.ascii, title: (text) => chalk.bold(text), maxWidth: width });
  // Still too wide (a value wider than the window): every column, a block per line, as the one-shot table.
  if (layout.blocks !== undefined || layout.hidden.length === 0) return box;
  const titles = ordered.filter((column) => layout.hidden.includes(column)).map((column) => column.title).join(', ');
  // What is left out and how to see it, whole: over more lines rather than cut.
  const lines = wrapWords(`${titles} hidden; widen the window or use --fields`, Math.max(1, (width ?? Infinity) - 1));
  return `${box}${lines.map((line) => `${chalk.dim(line)}\n`).join('')}`;
}
