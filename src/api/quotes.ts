// GET /v1/market/quotes: batching for long symbol lists, strict validation of what comes back, and
// prices kept as the exact decimal text the service sent.
import { AbortError, ResponseError } from './errors.js';
import { endpoint } from './auth.js';
import { callEndpoint, type Pacer } from './endpoint.js';
import { JsonNumber } from './json.js';
import { stripControl } from '../shared/text.js';
import { createRateBudget } from './rate-budget.js';
import { createWaitBudget, DEFAULTS, type TransportOptions } from './request.js';
import { displayUrl } from './response.js';
import type { Quote, QuotesResult, RateLimitInfo } from './types.js';

// JSON's number grammar: what a price may look like, as a number or a numeric string. The exponent
// is capped at three digits: 1e600000000 is valid JSON, and writing it out in plain notation for
// the table would take all the memory there is.
export const DECIMAL = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d{1,3})?$/;

export interface QuotesRequest {
  baseUrl: string;
  accessToken: string;
  organizationId: string;
  symbols: readonly string[];
  venue?: string;
  /** Symbols per request. Default 100. */
  batchSize?: number;
  /** Requests in flight at once. Default 4. */
  concurrency?: number;
  /** Called after each batch completes. */
  onProgress?: (done: number, total: number) => void;
}

export const DEFAULT_BATCH_SIZE = 100;
export const DEFAULT_CONCURRENCY = 4;

export async function getQuotes(http: TransportOptions, request: QuotesRequest): Promise<QuotesResult> {
  const batchSize = Math.max(1, request.batchSize ?? DEFAULT_BATCH_SIZE);
  const concurrency = Math.max(1, request.concurrency ?? DEFAULT_CONCURRENCY);
  const batches: string[][] = [];
  for (let i = 0; i < request.symbols.length; i += batchSize) batches.push(request.symbols.slice(i, i + batchSize));

  // One failed batch fails the whole call: abort the others rather than wait for them.
  const controller = new AbortController();
  const parent = http.signal;
  const onAbort = () => controller.abort();
  parent?.addEventListener('abort', onAbort, { once: true });
  // One maxWaitMs for the whole call: every batch's retries and the rate budget's waits spend from it.
  const waitBudget = http.waitBudget ?? createWaitBudget(http.maxWaitMs ?? DEFAULTS.maxWaitMs);
  const shared: TransportOptions = { ...http, signal: controller.signal, waitBudget };
  const pacer = createRateBudget(shared);

  const results: BatchResult[] = new Array(batches.length);
  let next = 0;
  let done = 0;
  let failure: unknown;
  const worker = async () => {
    while (failure === undefined && next < batches.length) {
      const index = next++;
      try {
        results[index] = await fetchBatch(shared, request, batches[index]!, pacer);
        request.onProgress?.(++done, batches.length);
      } catch (error) {
        if (failure === undefined) failure = parent?.aborted ? new AbortError() : error;
        controller.abort();
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, batches.length) }, worker));
  } finally {
    parent?.removeEventListener('abort', onAbort);
  }
  if (failure !== undefined) throw failure;
  return mergeBatches(request.symbols, results);
}

export interface BatchResult {
  quotes: Quote[];
  attempts: number;
  rateLimit: RateLimitInfo | undefined;
}

async function fetchBatch(http: TransportOptions, request: QuotesRequest, symbols: string[], pacer: Pacer): Promise<BatchResult> {
  const url = endpoint(request.baseUrl, '/v1/market/quotes');
  url.search = `symbols=${symbols.map(encodeURIComponent).join(',')}${request.venue ? `&venue=${encodeURIComponent(request.venue)}` : ''}`;
  const { value: quotes, attempts, rateLimit } = await callEndpoint(http, {
    method: 'GET',
    url,
    headers: { authorization: `Bearer ${request.accessToken}`, 'x-organization-id': request.organizationId },
    idempotent: true,
    expected: 'a JSON object with a data array of quotes',
    read: (json, response) => parseQuotes(json, response.url),
    context: { organizationId: request.organizationId },
    pacer,
  });
  return { quotes, attempts, rateLimit };
}

/** Validates a quotes body: `{data: [{symbol, bid, ask, mid, timestamp}]}`. Extra fields are ignored. */
export function parseQuotes(json: unknown, url: string): Quote[] {
  const where = `GET ${displayUrl(url)}`;
  const fail = (what: string) => new ResponseError(`${where} returned ${what}`, {
    method: 'GET', url, status: 200, hint: 'the service sent quotes mkt cannot read; check the base URL, or report it to the service',
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
    const bid = priceText(record.bid);
    const ask = priceText(record.ask);
    const mid = priceText(record.mid);
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
    if (priceText(sent) === undefined) return sent === undefined ? `without ${field}` : `with a ${field} that is not a number (${kind(sent)})`;
  }
  const timestamp = record.timestamp;
  if (typeof timestamp !== 'string') return timestamp === undefined ? 'without a timestamp' : 'with a timestamp that is not a string';
  return `with a timestamp that is not ISO 8601 (${printable(timestamp)})`;
}

/** The exact text of a price sent as a JSON number (already checked by the parser) or a numeric string. */
function priceText(value: unknown): string | undefined {
  const text = value instanceof JsonNumber ? value.source : typeof value === 'string' ? value.trim() : undefined;
  return text !== undefined && DECIMAL.test(text) ? text : undefined;
}


const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/;

/** ISO 8601 in form, and a date that exists. */
function isTimestamp(text: string): boolean {
  return ISO_8601.test(text) && !Number.isNaN(Date.parse(text));
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

const TAKEN: Quote[] = [];

/**
 * The batches' quotes in the user's order (exported for tests; not part of the library): each
 * requested symbol's quotes, in the order asked, then what the service sent unasked. A
 * requested symbol's entry becomes TAKEN, so that what is left, in the same order, is the unasked.
 */
export function mergeBatches(symbols: readonly string[], batches: readonly BatchResult[]): QuotesResult {
  const bySymbol = new Map<string, Quote[]>();
  for (const batch of batches) {
    for (const quote of batch.quotes) {
      const key = quote.symbol.toUpperCase();
      const list = bySymbol.get(key);
      if (list === undefined) bySymbol.set(key, [quote]);
      else list.push(quote);
    }
  }
  const data: Quote[] = [];
  const missing: string[] = [];
  for (const symbol of symbols) {
    const key = symbol.toUpperCase();
    const quotes = bySymbol.get(key);
    if (quotes === TAKEN) continue;
    if (quotes === undefined) missing.push(symbol);
    else for (const quote of quotes) data.push(quote);
    bySymbol.set(key, TAKEN);
  }
  for (const quotes of bySymbol.values()) if (quotes !== TAKEN) for (const quote of quotes) data.push(quote);
  const attempts = batches.reduce((sum, batch) => sum + batch.attempts, 0);
  return { data, missing, requests: batches.length, attempts, rateLimit: batches.at(-1)?.rateLimit };
}
