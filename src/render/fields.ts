// A resource's fields, declared once: what each is called, what kind of value it is, and how it is
// read from an item. Every format reads the declaration (a FieldSet): tsv, csv, json and ndjson
// (formats.ts) write the fields the service sends, the table adds the ones it derives. Quotes are
// the first resource declared here (QUOTE_MODEL); the board (board.ts) reads their fields too. A
// price is read as the text the service sent, never a float: the formats write its digits as they came.
import type { Quote } from '../api/types.js';
import { subtract } from './decimal.js';
import { CLOCK_SKEW_MS } from '../shared/limits.js';
import { formatAge } from '../shared/time.js';

/**
 * text: service text (a symbol); price: a decimal, as sent (a JSON number, aligned on its point in
 * the table); time: a timestamp or an age.
 */
export type FieldKind = 'text' | 'price' | 'time';

export interface Field<T, N extends string = string> {
  name: N;
  /** The column's title in the table and on the board. */
  title: string;
  kind: FieldKind;
  /** Computed from the sent fields (a quote's spread and age): shown by the table (and the board) only. */
  derived: boolean;
  /** In the table and on the board. */
  align: 'left' | 'right';
  /** When the terminal is narrow, lower goes first; undefined: never dropped. */
  dropOrder?: number;
  /** The value as text: a sent field exactly as sent, a derived one computed exactly. */
  read(item: T, now: number): string;
}

/** A resource's declaration: its fields by name, and which of them each kind of format writes. */
export interface FieldSet<T, N extends string = string> {
  fields: Readonly<Record<N, Field<T, N>>>;
  /** Every field, in the order --fields lists them. */
  names: readonly N[];
  /** What the service sends, in its order: the fields of tsv, csv, json and ndjson. */
  sent: readonly N[];
  /** The columns of the table. */
  table: readonly N[];
}

export function fieldsOf<T, N extends string>(set: FieldSet<T, N>, names: readonly N[]): Field<T, N>[] {
  return names.map((name) => set.fields[name]);
}

export const FIELD_NAMES = ['symbol', 'bid', 'ask', 'mid', 'timestamp', 'spread', 'age'] as const;
export type FieldName = (typeof FIELD_NAMES)[number];
export type QuoteField = Field<Quote, FieldName>;

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

export const QUOTE_MODEL: FieldSet<Quote, FieldName> = { fields: QUOTE_FIELDS, names: FIELD_NAMES, sent: SENT_FIELDS, table: TABLE_FIELDS };

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
