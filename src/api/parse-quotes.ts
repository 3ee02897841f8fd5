// A quotes body read strictly: `{data: [{symbol, bid, ask, mid, timestamp}]}` (read-items.ts), prices
// kept as the exact decimal text the service sent, every timestamp an instant (iso-8601.ts). What is
// not a quote at all is a ResponseError naming the quote and what is wrong with it; a quote that
// parses but cannot be right is quote-checks.ts' to judge.
import { isTimestamp } from './iso-8601.js';
import { decimalText } from './json.js';
import { notNumberKind, readItems, shortText, unexpectedBody, type JsonObject } from './read-items.js';
import type { Quote } from './types.js';

/** Validates a quotes body: `{data: [{symbol, bid, ask, mid, timestamp}]}`. Extra fields are ignored. */
export function parseQuotes(json: unknown, url: string): Quote[] {
  const source = { method: 'GET', url, operation: 'getQuotes' };
  const records = readItems(json, source, 'quote');
  const quotes: Quote[] = new Array(records.length);
  // This loop runs 10,000 times for a long list: no reader per item, and the messages are built
  // only when one is needed.
  for (let index = 0; index < records.length; index++) {
    const record = records[index]!;
    const symbol = record.symbol;
    if (typeof symbol !== 'string' || symbol.trim() === '') throw unexpectedBody(source, 'quote', `quote ${index + 1} without a symbol`);
    const bid = decimalText(record.bid);
    const ask = decimalText(record.ask);
    const mid = decimalText(record.mid);
    const timestamp = record.timestamp;
    if (bid === undefined || ask === undefined || mid === undefined || typeof timestamp !== 'string' || !isTimestamp(timestamp)) {
      throw unexpectedBody(source, 'quote', `quote ${index + 1} (${shortText(symbol)}) ${quoteProblem(record)}`);
    }
    quotes[index] = { symbol, bid, ask, mid, timestamp };
  }
  return quotes;
}

function quoteProblem(record: JsonObject): string {
  for (const field of ['bid', 'ask', 'mid'] as const) {
    const sent = record[field];
    if (decimalText(sent) === undefined) return sent === undefined ? `without ${field}` : `with a ${field} that is not a number (${notNumberKind(sent)})`;
  }
  const timestamp = record.timestamp;
  if (typeof timestamp !== 'string') return timestamp === undefined ? 'without a timestamp' : 'with a timestamp that is not a string';
  return `with a timestamp that is not ISO 8601 (${shortText(timestamp)})`;
}
