// Quotes as text for pipes and files: JSON, NDJSON, CSV and TSV. Prices are written with exactly
// the digits the service sent, as JSON numbers, so this builds JSON text itself instead of calling
// JSON.stringify on floats.
import type { Quote } from '../api/types.js';
import { safeJson, stripControl } from './text.js';

export interface QuotesView {
  data: readonly Quote[];
  missing: readonly string[];
  /** Present with --max-age. */
  stale?: readonly string[];
}

// Symbols and timestamps are nearly always plain printable ASCII; those need no escaping, and
// skipping JSON.stringify for them matters at 10,000 quotes.
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
const q = (text: string) => (PLAIN.test(text) ? `"${text}"` : safeJson(text));

function quoteObject(quote: Quote): string {
  return `{"symbol":${q(quote.symbol)},"bid":${quote.bid},"ask":${quote.ask},"mid":${quote.mid},"timestamp":${q(quote.timestamp)}}`;
}

// The fields written, in this order, at every level: a Quote with more fields writes no more.
const FIELDS = ['data', 'missing', 'stale', 'symbol', 'bid', 'ask', 'mid', 'timestamp'];
// A price is a string in Quote and a number in the output: its quotes come off after
// JSON.stringify. Inside a string a quote is always escaped, so `bid": "` can only be the field; a
// price is a decimal checked by src/api/quotes.ts, with no quote or backslash in it.
const PRICE = /"(bid|ask|mid)": "([^"]*)"/g;

/**
 * `{"data": [...], "missing": [...]}` (and `"stale"` with --max-age), two-space indent. Built by
 * JSON.stringify, which at 10,000 quotes is several times faster than assembling the text here.
 */
export function renderJson(view: QuotesView): string {
  const value = view.stale === undefined ? { data: view.data, missing: view.missing } : view;
  return `${safeJson(value, 2, FIELDS).replace(PRICE, '"$1": $2')}\n`;
}

/** One quote per line. */
export function renderNdjson(data: readonly Quote[]): string {
  let text = '';
  for (const quote of data) text += `${quoteObject(quote)}\n`;
  return text;
}

const COLUMNS = ['symbol', 'bid', 'ask', 'mid', 'timestamp'] as const;

/** RFC 4180: CRLF line ends, fields with a comma, quote or line break quoted. */
export function renderCsv(data: readonly Quote[]): string {
  const field = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
  let text = `${COLUMNS.join(',')}\r\n`;
  for (const quote of data) text += `${COLUMNS.map((column) => field(stripControl(quote[column]))).join(',')}\r\n`;
  return text;
}

/** Tab-separated with a header line: no colour, no box, one quote per line. */
export function renderTsv(data: readonly Quote[]): string {
  let text = `${COLUMNS.join('\t')}\n`;
  for (const quote of data) text += `${COLUMNS.map((column) => stripControl(quote[column])).join('\t')}\n`;
  return text;
}
