// GET /v1/market/quotes: batching for long symbol lists, strict validation of what comes back, and
// prices kept as the exact decimal text the service sent.
import { AbortError, ResponseError } from './errors.js';
import { endpoint } from './auth.js';
import { JsonNumber } from './json.js';
import { stripControl } from '../render/text.js';
import { createRateBudget, type RateBudget } from './rate-budget.js';
import { createWaitBudget, DEFAULTS, sendRequest, type HttpOptions } from './request.js';
import { displayUrl, errorFromResponse, readJson, readRateLimit } from './response.js';
import type { Quote, QuotesResult, RateLimitInfo } from './types.js';

// JSON's number grammar: what a price may look like, as a number or a numeric string. The exponent
// is capped at three digits: 1e600000000 is valid JSON, and writing it out in plain notation for
// the table would take all the memory there is.
const NUMBER = '-?(?:0|[1-9]\\d*)(?:\\.\\d+)?(?:[eE][+-]?\\d{1,3})?';
export const DECIMAL = new RegExp(`^${NUMBER}$`);

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
  /**
   * Called with each batch's quotes as it arrives (batches arrive in any order; `index` is the
   * batch's place in the request). For callers that do their work while other batches are still on
   * the way; the result is still the whole, merged answer.
   */
  onBatch?: (index: number, quotes: readonly Quote[]) => void;
}

export const DEFAULT_BATCH_SIZE = 100;
export const DEFAULT_CONCURRENCY = 4;

export async function getQuotes(http: HttpOptions, request: QuotesRequest): Promise<QuotesResult> {
  const batchSize = Math.max(1, request.batchSize ?? DEFAULT_BATCH_SIZE);
  const concurrency = Math.max(1, request.concurrency ?? DEFAULT_CONCURRENCY);
  const batches: string[][] = [];
  for (let i = 0; i < request.symbols.length; i += batchSize) batches.push(request.symbols.slice(i, i + batchSize));

  // One failed batch fails the whole call: abort the others rather than wait for them.
  const controller = new AbortController();
  const parent = http.signal;
  const onAbort = () => controller.abort();
  parent?.addEventListener('abort', onAbort, { once: true });
  // One --max-wait for the whole call: every batch's retries and the rate budget's waits spend from it.
  const waitBudget = http.waitBudget ?? createWaitBudget(http.maxWaitMs ?? DEFAULTS.maxWaitMs);
  const shared: HttpOptions = { ...http, signal: controller.signal, waitBudget };
  const budget = createRateBudget(shared);

  const results: Array<BatchResult | undefined> = new Array(batches.length);
  // Whether the answers so far are in the order asked (see inOrder), checked as each arrives.
  const seen = new Set<string>();
  let ordered = true;
  let next = 0;
  let done = 0;
  let failure: unknown;
  const worker = async () => {
    while (failure === undefined && next < batches.length) {
      const index = next++;
      try {
        const result = await fetchBatch(shared, request, batches[index]!, budget);
        results[index] = result;
        ordered &&= answersInOrder(batches[index]!, result.quotes, seen);
        request.onBatch?.(index, result.quotes);
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
  return merge(request.symbols, results as BatchResult[], ordered);
}

export interface BatchResult {
  quotes: Quote[];
  attempts: number;
  rateLimit: RateLimitInfo | undefined;
}

async function fetchBatch(http: HttpOptions, request: QuotesRequest, symbols: string[], budget: RateBudget): Promise<BatchResult> {
  const url = endpoint(request.baseUrl, '/v1/market/quotes');
  url.search = `symbols=${symbols.map(encodeURIComponent).join(',')}${request.venue ? `&venue=${encodeURIComponent(request.venue)}` : ''}`;
  await budget.acquire();
  let response;
  try {
    response = await sendRequest(http, {
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${request.accessToken}`, 'x-organization-id': request.organizationId },
      idempotent: true,
    });
  } finally {
    budget.release();
  }
  const rateLimit = readRateLimit(response.headers, (http.now ?? Date.now)());
  budget.update(rateLimit);
  if (response.status < 200 || response.status >= 300) {
    // "asks to wait 5s, longer than --max-wait 2s" only when that one wait is longer; when the
    // earlier waits of this call used up the budget, the message keeps to the time to try again.
    const waitAlonePassesCap = http.maxWaitMs !== undefined && (response.retryAfterMs ?? 0) > http.maxWaitMs;
    throw errorFromResponse(response, {
      organizationId: request.organizationId, maxWaitMs: waitAlonePassesCap ? http.maxWaitMs : undefined, now: http.now,
    });
  }
  const html = /text\/html/i.test(response.headers['content-type'] ?? '');
  const quotes = (html ? undefined : readCompactQuotes(response.text))
    ?? parseQuotes(await readJson(response, 'a JSON object with a data array of quotes'), response.url);
  return { quotes, attempts: response.attempts, rateLimit };
}

// A string without escapes or control characters: its JSON text is its value.
const PLAIN_STRING = '"([^"\\\\\\u0000-\\u001f]*)"';
const COMPACT_QUOTE = new RegExp(
  `\\{"symbol":${PLAIN_STRING},"bid":(${NUMBER}),"ask":(${NUMBER}),"mid":(${NUMBER}),"timestamp":${PLAIN_STRING}\\}(,|\\]\\}[ \\t\\n\\r]*$)`, 'y');

/**
 * A quotes body exactly as JSON.stringify writes it (no spaces, no escapes, the five fields in
 * order, nothing else), read with one regular expression per quote: at 10,000 quotes, a third of the
 * time of parsing, scanning for the numbers' digits and validating (docs/benchmarks.md). Anything
 * else, or anything parseQuotes would object to, is undefined, and goes the general way, which has
 * the error messages. What comes out is what the general way gives (test/api/quotes.test.ts).
 */
export function readCompactQuotes(text: string): Quote[] | undefined {
  if (!text.startsWith('{"data":[')) return undefined;
  if (/^\{"data":\[\]\}[ \t\n\r]*$/.test(text)) return [];
  const quotes: Quote[] = [];
  COMPACT_QUOTE.lastIndex = 9;
  for (;;) {
    const match = COMPACT_QUOTE.exec(text);
    if (match === null) return undefined;
    // By index: destructuring goes through the iterator protocol, slow in code V8 has not optimised.
    const symbol = match[1]!;
    const timestamp = match[5]!;
    if (symbol.trim() === '' || !isTimestamp(timestamp)) return undefined;
    quotes.push({ symbol, bid: match[2]!, ask: match[3]!, mid: match[4]!, timestamp });
    if (match[6] !== ',') return quotes;
  }
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

/** The batches' quotes in the user's order (exported for tests; not part of the library). */
export function merge(symbols: readonly string[], batches: BatchResult[], ordered = inOrder(symbols, batches)): QuotesResult {
  const { data, missing } = ordered ? { data: batches.flatMap((batch) => batch.quotes), missing: [] } : mergeByRequest(symbols, batches);
  const last = batches.at(-1);
  return {
    data,
    missing,
    requests: batches.length,
    attempts: batches.reduce((sum, batch) => sum + batch.attempts, 0),
    rateLimit: last?.rateLimit,
  };
}

/**
 * What the service nearly always sends: one quote per symbol, in the order asked, none twice. Then
 * the quotes are already in the user's order, and mergeByRequest would build the same list slower.
 */
function inOrder(symbols: readonly string[], batches: BatchResult[]): boolean {
  const seen = new Set<string>();
  let at = 0;
  for (const batch of batches) {
    if (!answersInOrder(symbols.slice(at, at + batch.quotes.length), batch.quotes, seen)) return false;
    at += batch.quotes.length;
  }
  return at === symbols.length;
}

/** `quotes` answer `asked` one for one, in order, with no symbol in `seen`, to which they are added. */
function answersInOrder(asked: readonly string[], quotes: readonly Quote[], seen: Set<string>): boolean {
  if (quotes.length !== asked.length) return false;
  for (let i = 0; i < quotes.length; i++) {
    const symbol = quotes[i]!.symbol;
    const key = asked[i]!.toUpperCase();
    if ((symbol !== key && symbol.toUpperCase() !== key) || seen.has(key)) return false;
    seen.add(key);
  }
  return true;
}

/**
 * Each requested symbol's quotes, in the order asked, then what the service sent unasked. A
 * requested symbol's entry becomes TAKEN, so that what is left, in the same order, is the unasked.
 */
export function mergeByRequest(symbols: readonly string[], batches: BatchResult[]): { data: Quote[]; missing: string[] } {
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
  return { data, missing };
}
