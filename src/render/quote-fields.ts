// Quotes' fields, declared once (fields.ts): the five the service sends and the two the table and
// the board derive (spread, age). The declaration as a whole, with quotes' JSON document and table,
// is quote-model.ts; the table itself is quote-table.ts.
import type { Quote, UnusableQuote } from '../api/types.js';
import { CLOCK_SKEW_MS } from '../shared/limits.js';
import { formatAge } from '../shared/time.js';
import { subtract } from './decimal.js';
import type { Field } from './fields.js';

export const QUOTE_FIELD_NAMES = ['symbol', 'bid', 'ask', 'mid', 'timestamp', 'spread', 'age'] as const;
export type QuoteFieldName = (typeof QUOTE_FIELD_NAMES)[number];
export type QuoteField = Field<Quote, QuoteFieldName>;

export const QUOTE_FIELDS: Readonly<Record<QuoteFieldName, QuoteField>> = {
  symbol: { name: 'symbol', title: 'Symbol', kind: 'text', derived: false, align: 'left', read: (quote) => quote.symbol },
  bid: { name: 'bid', title: 'Bid', kind: 'price', derived: false, align: 'left', read: (quote) => quote.bid },
  ask: { name: 'ask', title: 'Ask', kind: 'price', derived: false, align: 'left', read: (quote) => quote.ask },
  // The facts of a Note weigh more than a price halfway between two shown: Mid goes before it.
  mid: { name: 'mid', title: 'Mid', kind: 'price', derived: false, align: 'left', dropOrder: 4, read: (quote) => quote.mid },
  timestamp: { name: 'timestamp', title: 'Timestamp', kind: 'time', derived: false, align: 'left', dropOrder: 1, read: (quote) => quote.timestamp },
  spread: { name: 'spread', title: 'Spread', kind: 'price', derived: true, align: 'left', dropOrder: 3, read: (quote) => subtract(quote.ask, quote.bid) },
  age: { name: 'age', title: 'Age', kind: 'time', derived: true, align: 'right', dropOrder: 2, read: (quote, now) => formatQuoteAge(now - Date.parse(quote.timestamp)) },
};

/** What the service sends, in its order: the fields of tsv, csv, json and ndjson. */
export const QUOTE_SENT_FIELDS: readonly QuoteFieldName[] = ['symbol', 'bid', 'ask', 'mid', 'timestamp'];
/** The columns of the table and the board. */
export const QUOTE_TABLE_FIELDS: readonly QuoteFieldName[] = ['symbol', 'bid', 'ask', 'mid', 'spread', 'age'];

/**
 * What `mkt quotes` writes: the quotes, the symbols the service had none for, and with --max-age
 * the stale ones. A QuotesResult is one (its other members are not written).
 */
export interface QuotesDocument {
  readonly data: readonly Quote[];
  readonly missing: readonly string[];
  /** Present with --max-age. */
  readonly stale?: readonly string[];
  /** The library's verdict (getQuotes' `unusable`): the table marks them. Not written by the data formats. */
  readonly unusable?: readonly UnusableQuote[];
}

/**
 * A quote's age as it is drawn. Under 10 s in tenths (`0.8s`), under a minute in seconds, both
 * rounded up: an age never reads younger than it is, so a row marked stale under --max-age 500ms
 * reads `0.6s`, never `0s` or `0.5s`. Longer ages as formatAge writes them (`3m`, `2h 5m`, `3d`).
 * A timestamp ahead of the clock by less than the skew allowance reads `0s`; further ahead, `future`.
 */
export function formatQuoteAge(ms: number): string {
  if (Number.isNaN(ms)) return '?';
  if (ms < -CLOCK_SKEW_MS) return 'future';
  if (ms <= 0) return '0s';
  if (ms < 10_000) return `${Math.ceil(ms / 100) / 10}s`;
  if (ms < 60_000) return `${Math.ceil(ms / 1000)}s`;
  return formatAge(ms);
}
