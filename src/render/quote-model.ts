// Quotes as a declared resource (fields.ts): their fields (quote-fields.ts), their JSON document
// (`data`, then `missing`, then `stale` with --max-age), and their own table (quote-table.ts: the
// spread, the age, marks for crossed, locked, stale and impossible quotes), and their checks
// (checks/quote-check-model.ts). renderersFor(QUOTE_MODEL) gives every format; the table is loaded,
// with chalk, only when one is drawn.
import type { Quote } from '../api/types.js';
import { QUOTE_CHECK_MODEL } from './checks/quote-check-model.js';
import type { FieldSet, TableOptions } from './fields.js';
import { QUOTE_FIELD_NAMES, QUOTE_FIELDS, QUOTE_SENT_FIELDS, QUOTE_TABLE_FIELDS, type QuoteFieldName, type QuotesDocument } from './quote-fields.js';

export type QuoteModel = FieldSet<Quote, QuoteFieldName, QuotesDocument>;

export interface QuoteModelOptions {
  /** Quotes older than this are marked stale in the table (--max-age). */
  maxAgeMs?: number;
}

/** Quotes' declaration for one run: the table marks quotes older than `maxAgeMs` as stale. */
export function quoteModel(options: QuoteModelOptions = {}): QuoteModel {
  return {
    fields: QUOTE_FIELDS,
    names: QUOTE_FIELD_NAMES,
    sent: QUOTE_SENT_FIELDS,
    table: QUOTE_TABLE_FIELDS,
    document: { items: 'data', after: ['missing', 'stale'] },
    async drawTable(document: QuotesDocument, table: TableOptions<QuoteFieldName>) {
      const { renderQuoteTable } = await import('./quote-table.js');
      return renderQuoteTable(document.data, { ...table, maxAgeMs: options.maxAgeMs, unusable: document.unusable });
    },
    checks: QUOTE_CHECK_MODEL,
  };
}

/** Quotes' declaration: their fields for --fields and completion, every format, a table without --max-age. */
export const QUOTE_MODEL: QuoteModel = quoteModel();
