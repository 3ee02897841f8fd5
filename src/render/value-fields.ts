// A valuation's fields, declared once (fields.ts): those of a position, read the same way from a
// currency's total and the total in the base, which tsv, csv and ndjson write as lines after the
// positions. The declaration as a whole, with its JSON document and table, is value-model.ts; the
// table itself is value-table.ts.
import type { CurrencyTotal, Valuation, ValuedPosition } from '../api/valuation.js';
import type { Field } from './fields.js';

/** A currency's total, or the total in the base currency, as a line of tsv, csv or ndjson. */
export interface ValueTotalRow {
  row: 'total' | 'total_base';
  /** The currency the figures are in: the positions' for a `total`, the base for `total_base`. */
  currency: string;
  /** The rate from `currency` to the base (a `total`'s), when there is one. */
  rate: string | null;
  value: string | null;
  value_base: string | null;
  pnl: string | null;
  pnl_base: string | null;
  incomplete: boolean;
  /** `incomplete` as the lines say it. */
  status: 'ok' | 'incomplete';
}

/** A line of a valuation: a position (the library's ValuedPosition), or a total. */
export type ValueRow = ValuedPosition | ValueTotalRow;

export const VALUE_FIELD_NAMES = ['row', 'symbol', 'quantity', 'currency', 'price', 'value', 'rate', 'value_base', 'cost', 'cost_total', 'pnl', 'pnl_base', 'status', 'timestamp', 'reason'] as const;
export type ValueFieldName = (typeof VALUE_FIELD_NAMES)[number];

/** Any line read as one shape: a total has no symbol, quantity, price or cost; a position no `row`. */
type AnyLine = Partial<ValuedPosition> & Partial<ValueTotalRow>;

/** A decimal field: the line's member of that name, or '' where it has none. */
function decimal(name: ValueFieldName & keyof AnyLine, title: string): Field<ValueRow, ValueFieldName> {
  // A plain member read: this runs for every figure of every line (100,000 times for 10,000 positions).
  return { name, title, kind: 'decimal', derived: false, align: 'right', read: (row) => ((row as AnyLine)[name] as string | null | undefined) ?? '' };
}

export const VALUE_FIELDS: Readonly<Record<ValueFieldName, Field<ValueRow, ValueFieldName>>> = {
  row: { name: 'row', title: 'Row', kind: 'text', derived: false, align: 'left', read: (row) => (row as AnyLine).row ?? 'position' },
  symbol: { name: 'symbol', title: 'Symbol', kind: 'text', derived: false, align: 'left', read: (row) => (row as AnyLine).symbol ?? '' },
  quantity: decimal('quantity', 'Quantity'),
  currency: { name: 'currency', title: 'Currency', kind: 'text', derived: false, align: 'left', read: (row) => row.currency },
  price: decimal('price', 'Price'),
  value: decimal('value', 'Value'),
  rate: decimal('rate', 'Rate'),
  value_base: decimal('value_base', 'Value (base)'),
  cost: decimal('cost', 'Cost'),
  // The lot's total cost, as given, where the positions give one (a broker's Cost Basis): its cost is then cost_total / quantity.
  cost_total: decimal('cost_total', 'Cost total'),
  pnl: decimal('pnl', 'P&L'),
  pnl_base: decimal('pnl_base', 'P&L (base)'),
  status: { name: 'status', title: 'Status', kind: 'text', derived: false, align: 'left', read: (row) => row.status },
  // The instrument's quote's timestamp as the service wrote it (null for cash, and with no quote).
  timestamp: { name: 'timestamp', title: 'As of', kind: 'time', nullable: true, derived: false, align: 'left', read: (row) => (row as AnyLine).timestamp ?? '' },
  // Why an `unusable` position was not valued (null otherwise).
  reason: { name: 'reason', title: 'Reason', kind: 'text', nullable: true, derived: false, align: 'left', read: (row) => (row as AnyLine).reason ?? '' },
};

/**
 * What tsv, csv and ndjson write unless --fields says otherwise: every field but `rate`, which is
 * each currency's (the JSON's `fx` and `totals` give it) and is there for --fields to ask for.
 */
export const VALUE_LINE_FIELDS: readonly ValueFieldName[] = VALUE_FIELD_NAMES.filter((name) => name !== 'rate');

/**
 * The fields of the JSON document's positions unless --fields says otherwise: those of the lines
 * but `row`, which only tells a position from a total, and the document keeps its totals apart.
 */
const VALUE_JSON_FIELDS: readonly ValueFieldName[] = VALUE_LINE_FIELDS.filter((name) => name !== 'row');

/** The fields `format` writes when --fields does not say: JSON's positions without `row`, the format's own otherwise. */
export function defaultValueFields(format: string): readonly ValueFieldName[] | undefined {
  return format === 'json' ? VALUE_JSON_FIELDS : undefined;
}

/** The columns of the table: a position's figures (cost and P&L only where a position has a cost); the table adds a Note. */
export const VALUE_TABLE_FIELDS: readonly ValueFieldName[] = ['symbol', 'quantity', 'currency', 'price', 'value', 'value_base', 'cost', 'pnl', 'pnl_base'];

/** Each currency's total, then the total in the base currency: the lines after the positions. */
export function totalRows(valuation: Valuation): ValueTotalRow[] {
  const rates = new Map<string, string | null>();
  for (const position of valuation.positions) if (!rates.has(position.currency)) rates.set(position.currency, position.rate);
  const rows: ValueTotalRow[] = valuation.totals.map((total: CurrencyTotal) => ({
    row: 'total',
    currency: total.currency,
    rate: rates.get(total.currency) ?? null,
    value: total.value,
    value_base: total.value_base,
    pnl: total.pnl ?? null,
    pnl_base: total.pnl_base ?? null,
    incomplete: total.incomplete,
    status: total.incomplete ? 'incomplete' : 'ok',
  }));
  rows.push({
    row: 'total_base', currency: valuation.base, rate: null, value: null, value_base: valuation.total_base,
    pnl: null, pnl_base: valuation.total_pnl_base, incomplete: valuation.incomplete, status: valuation.incomplete ? 'incomplete' : 'ok',
  });
  return rows;
}

