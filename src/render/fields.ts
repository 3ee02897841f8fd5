// A quote's fields, declared once: what each is called, what kind of value it is, and how it is read
// from a quote. Every format reads this: tsv, csv, json and ndjson (formats.ts) write the fields the
// service sends, the table and the board (table.ts, board.ts) add the two they derive. A price is
// read as the text the service sent, never a float: the formats write its digits as they came.
import type { Quote } from '../api/types.js';
import { subtract } from './decimal.js';
import { CLOCK_SKEW_MS } from '../shared/limits.js';
import { formatAge } from '../shared/time.js';

/**
 * text: service text (a symbol); price: a decimal, as sent (a JSON number, aligned on its point in
 * the table); time: a timestamp or an age.
 */
export type FieldKind = 'text' | 'price' | 'time';

export const FIELD_NAMES = ['symbol', 'bid', 'ask', 'mid', 'timestamp', 'spread', 'age'] as const;
export type FieldName = (typeof FIELD_NAMES)[number];

export interface QuoteField {
  name: FieldName;
  /** The column's title in the table and on the board. */
  title: string;
  kind: FieldKind;
  /** Computed from the sent fields (spread, age): shown by the table and the board only. */
  derived: boolean;
  /** In the table and on the board. */
  align: 'left' | 'right';
  /** When the terminal is narrow, lower goes first; undefined: never dropped. */
  dropOrder?: number;
  /** The value as text: a sent field exactly as sent, a derived one computed exactly. */
  read(quote: Quote, now: number): string;
}

export const QUOTE_FIELDS: Readonly<Record<FieldName, QuoteField>> = {
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
export const SENT_FIELDS: readonly FieldName[] = ['symbol', 'bid', 'ask', 'mid', 'timestamp'];
/** The columns of the table and the board. */
export const TABLE_FIELDS: readonly FieldName[] = ['symbol', 'bid', 'ask', 'mid', 'spread', 'age'];

export function fieldsOf(names: readonly FieldName[]): QuoteField[] {
  return names.map((name) => QUOTE_FIELDS[name]);
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
