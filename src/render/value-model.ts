// A valuation as a declared resource (fields.ts): the fields of a position (value-fields.ts), the
// JSON document (the library's Valuation: `base`, `price`, `positions`, then the totals, what is
// missing, the rates), and its own table (value-table.ts). In tsv, csv and ndjson the totals are
// lines too, after the positions: a `row` field says what each line is (`position`, `total` for a
// currency's, `total_base` for the whole in the base currency) and `status` whether its figures are
// whole (`ok`) or leave something out (`incomplete`), so that a script reads the totals from any format.
// Its checks (checks/value-check-model.ts) give `mkt value` --check, and --until and --exec on a watch.
import type { ExactPosition, ExactValuation, Valuation } from '../api/valuation.js';
import { valueCheckModel } from './checks/value-check-model.js';
import type { FieldSet, TableOptions } from './fields.js';
import { totalRows, VALUE_FIELD_NAMES, VALUE_FIELDS, VALUE_LINE_FIELDS, VALUE_TABLE_FIELDS, type ValueFieldName, type ValueRow } from './value-fields.js';

/** Its checks decide on the exact valuation, of which the document holds each figure rounded. */
export type ValueModel = FieldSet<ValueRow, ValueFieldName, Valuation, ExactPosition, ExactValuation>;

/**
 * A valuation's declaration for positions in `currencies` (the file's, read before any request):
 * its checks then know each `total_<currency>`. JSON: the Valuation as the library returns it, its
 * decimals written as numbers with every digit; tsv, csv and ndjson: the positions, then the totals
 * as lines.
 */
export function valueModel(currencies: readonly string[] = []): ValueModel {
  return { ...VALUE_DECLARATION, checks: valueCheckModel(currencies) };
}

const VALUE_DECLARATION: Omit<ValueModel, 'checks'> = {
  fields: VALUE_FIELDS,
  names: VALUE_FIELD_NAMES,
  sent: VALUE_LINE_FIELDS,
  table: VALUE_TABLE_FIELDS,
  document: {
    items: 'positions',
    before: ['base', 'price', 'precision', 'as_of'],
    after: [
      { name: 'total_base', kind: 'decimal' },
      { name: 'total_pnl_base', kind: 'decimal' },
      'incomplete',
      'missing',
      'no_route',
      'unusable',
      { name: 'totals', kind: 'decimal', members: ['value', 'value_base', 'pnl', 'pnl_base'] },
      { name: 'fx', kind: 'decimal', members: ['rate'] },
    ],
  },
  lines: (valuation) => [...valuation.positions, ...totalRows(valuation)],
  async drawTable(valuation: Valuation, table: TableOptions<ValueFieldName>) {
    const { renderValueTable } = await import('./value-table.js');
    return renderValueTable(valuation, table);
  },
};

/** A valuation's declaration before a file is read: its fields for --fields and completion, every format, its checks but `total_<currency>`. */
export const VALUE_MODEL: ValueModel = valueModel();
