// A quotes body read strictly: `{data: [{symbol, bid, ask, mid, timestamp}]}`, prices kept as the
// exact decimal text the service sent, every timestamp an instant (iso-8601.ts). What is not a quote
// at all is a ResponseError naming the quote and what is wrong with it; a quote that parses but
// cannot be right is quote-checks.ts' to judge.
import { ResponseError } from './errors.js';
import { isTimestamp } from './iso-8601.js';
import { decimalText, JsonNumber } from './json.js';
import { displayUrl } from './response.js';
import { stripControl } from '../shared/text.js';
import type { Quote } from './types.js';

/** Validates a quotes body: `{data: [{symbol, bid, ask, mid, timestamp}]}`. Extra fields are ignored. */
export function parseQuotes(json: unknown, url: string): Quote[] {
  // The URL is parsed for a message only: once per batch is measurable at 100 batches.
  const fail = (what: string) => new ResponseError(`GET ${displayUrl(url)} returned ${what}`, {
    method: 'GET', url, status: 200, operation: 'getQuotes', problem: 'unexpected',
    hint: 'the service sent quotes the client cannot read; check baseUrl, or report it to the service',
  });
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw fail('a body that is not a JSON object');
  const data = (json as Record<string, unknown>).data;
  if (data === undefined) throw fail('a JSON object without a "data" field');
  if (!Array.isArray(data)) throw fail(`a "data" field that is not an array (${kind(data)})`);
  const quotes: Quote[] = new Array(data.length);
  for (let index = 0; index < data.length; index++) {
    const item: unknown = data[index];
    if (item === null || typeof item !== 'object' || Array.isArray(item)) throw fail(`quote ${index + 1} that is not an object (${kind(item)})`);
    const record = item as Record<string, unknown>;
    const symbol = record.symbol;
    if (typeof symbol !== 'string' || symbol.trim() === '') throw fail(`quote ${index + 1} without a symbol`);
    const bid = decimalText(record.bid);
    const ask = decimalText(record.ask);
    const mid = decimalText(record.mid);
    const timestamp = record.timestamp;
    // This loop runs 10,000 times for a long list: the messages are built only when one is needed.
    if (bid === undefined || ask === undefined || mid === undefined || typeof timestamp !== 'string' || !isTimestamp(timestamp)) {
      throw fail(`quote ${index + 1} (${printable(symbol)}) ${quoteProblem(record)}`);
    }
    quotes[index] = { symbol, bid, ask, mid, timestamp };
  }
  return quotes;
}

function quoteProblem(record: Record<string, unknown>): string {
  for (const field of ['bid', 'ask', 'mid'] as const) {
    const sent = record[field];
    if (decimalText(sent) === undefined) return sent === undefined ? `without ${field}` : `with a ${field} that is not a number (${kind(sent)})`;
  }
  const timestamp = record.timestamp;
  if (typeof timestamp !== 'string') return timestamp === undefined ? 'without a timestamp' : 'with a timestamp that is not a string';
  return `with a timestamp that is not ISO 8601 (${printable(timestamp)})`;
}

function kind(value: unknown): string {
  if (value instanceof JsonNumber) return value.source;
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `"${printable(value)}"`;
  return typeof value === 'object' ? 'an object' : String(value);
}

function printable(text: string): string {
  const clean = stripControl(text);
  return clean.length > 40 ? `${clean.slice(0, 40)}…` : clean;
}
