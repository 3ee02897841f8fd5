// GET /v1/market/quotes: batching for long symbol lists, strict validation of what comes back, and
// prices kept as the exact decimal text the service sent.
import { AbortError, InvalidRequestError, ResponseError } from './errors.js';
import { checkQuotesInput } from './client-options.js';
import { callEndpoint, endpoint, requireBearer, type ClientContext } from './endpoint.js';
import { decimalText, JsonNumber } from './json.js';
import { stripControl } from '../shared/text.js';
import { DEFAULT_BATCH_SIZE, DEFAULT_CONCURRENCY, DEFAULT_MAX_WAIT_MS } from '../shared/limits.js';
import { createPacer } from './pacer.js';
import type { CallProgress, Pacer, TransportOptions } from './transport.js';
import { displayUrl } from './response.js';
import type { Quote, QuotesResult, RateLimitInfo } from './types.js';
import { createWaitBudget } from './wait-budget.js';

/** Client.getQuotes' input. */
export interface GetQuotesInput {
  /** Asked once each: a symbol repeated in any case is sent once, where it first appears. */
  symbols: readonly string[];
  venue?: string;
  /**
   * Symbols per request. Default 100; left unset, it also shrinks to what the service says it takes
   * ("at most 10 symbols") at the cost of that first refused request.
   */
  batchSize?: number;
  /** Requests in flight at once. Default 4. */
  concurrency?: number;
  /** Called after each batch completes. */
  onProgress?: (done: number, total: number) => void;
  /** The call's own token and organization; without them, createClient's. */
  accessToken?: string;
  organizationId?: string;
}

/** The input with the token and organization settled: what each batch sends. */
interface QuotesRequest extends GetQuotesInput {
  baseUrl: string;
  accessToken: string;
  organizationId: string;
}

/** Client.getQuotes: the guard, the checks, then the batches (fetchQuotes). */
export async function getQuotes(context: ClientContext, input: GetQuotesInput): Promise<QuotesResult> {
  const bearer = requireBearer(context, input, 'getQuotes', 'GET');
  checkQuotesInput(typeof input === 'object' && input !== null ? input : {});
  return fetchQuotes(context.http, { ...input, baseUrl: context.baseUrl, ...bearer });
}

async function fetchQuotes(http: TransportOptions, request: QuotesRequest): Promise<QuotesResult> {
  const symbols = uniqueSymbols(request.symbols);
  const concurrency = Math.max(1, request.concurrency ?? DEFAULT_CONCURRENCY);
  let batches = split(symbols, Math.max(1, request.batchSize ?? DEFAULT_BATCH_SIZE));

  // One failed batch fails the whole call: abort the others rather than wait for them.
  const controller = new AbortController();
  const parent = http.signal;
  const onAbort = () => controller.abort();
  parent?.addEventListener('abort', onAbort, { once: true });
  // One maxWaitMs for the whole call: every batch's retries and the pacing draw from it.
  const waitBudget = http.waitBudget ?? createWaitBudget(http.maxWaitMs ?? DEFAULT_MAX_WAIT_MS, http.now);
  const progress: CallProgress = { done: 0, total: batches.length };
  const shared = { ...http, signal: controller.signal, waitBudget, progress };
  const pacer = createPacer(shared, endpoint(request.baseUrl, '/v1/market/quotes').href);

  const results: BatchResult[] = [];
  const run = async (index: number) => {
    results[index] = await fetchBatch(shared, request, batches[index]!, pacer);
    progress.done++;
    request.onProgress?.(progress.done, batches.length);
  };
  // The first batch goes alone: its answer tells the rate limit before the others spend any of it,
  // and whether the service takes that many symbols at once.
  const first = async () => {
    for (;;) {
      try {
        return await run(0);
      } catch (error) {
        const size = request.batchSize === undefined ? statedBatchLimit(error, batches[0]!.length) : undefined;
        if (size === undefined) throw error;
        batches = split(symbols, size);
        progress.total = batches.length;
        http.onDebug?.(`* the service takes at most ${size} symbols per request: ${batches.length} requests`);
      }
    }
  };
  let next = 1;
  let failure: unknown;
  const worker = async () => {
    while (failure === undefined && next < batches.length) {
      const index = next++;
      try {
        await run(index);
      } catch (error) {
        failure ??= error;
        controller.abort();
      }
    }
  };
  try {
    if (batches.length > 0) await first();
    await Promise.all(Array.from({ length: Math.min(concurrency, batches.length - 1) }, worker));
  } catch (error) {
    failure ??= error;
  } finally {
    parent?.removeEventListener('abort', onAbort);
  }
  if (failure !== undefined) throw parent?.aborted ? new AbortError() : failure;
  return mergeBatches(symbols, results);
}

/** Each symbol once, in first-seen order; the same in another case is the same symbol. */
function uniqueSymbols(symbols: readonly string[]): string[] {
  const seen = new Set<string>();
  return symbols.filter((symbol) => {
    const key = symbol.toUpperCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function split(symbols: readonly string[], size: number): string[][] {
  const batches: string[][] = [];
  for (let i = 0; i < symbols.length; i += size) batches.push(symbols.slice(i, i + size));
  return batches;
}

/**
 * The batch size a 400 names when it refuses too many symbols ("too many symbols: at most 10
 * distinct symbols per request", as the sandbox words it), if smaller than the batch sent (the CLI's
 * hints read it too).
 */
export function statedBatchLimit(error: unknown, sent = Number.POSITIVE_INFINITY): number | undefined {
  if (!(error instanceof InvalidRequestError)) return undefined;
  const stated = /\bat most (\d+)\b[^.;]*\bsymbols\b/i.exec(error.message);
  const size = stated ? Number(stated[1]) : 0;
  return size >= 1 && size < sent ? size : undefined;
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
    secrets: [request.accessToken],
    context: { organizationId: request.organizationId },
    pacer,
  });
  return { quotes, attempts, rateLimit };
}

/** Validates a quotes body: `{data: [{symbol, bid, ask, mid, timestamp}]}`. Extra fields are ignored. */
export function parseQuotes(json: unknown, url: string): Quote[] {
  // The URL is parsed for a message only: once per batch is measurable at 100 batches.
  const fail = (what: string) => new ResponseError(`GET ${displayUrl(url)} returned ${what}`, {
    method: 'GET', url, status: 200, hint: 'the service sent quotes the client cannot read; check baseUrl, or report it to the service',
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


/**
 * ISO 8601 with every field in range: what Date.parse reads as an instant on every Node (the table's
 * ages and --max-age read it so). One pattern instead of the form and then Date.parse: Date.parse
 * costs twice the pattern, and at 10,000 quotes that is 3 ms. It takes a 31 February, as Date.parse
 * does; --strict refuses that (quote-checks.ts).
 */
const ISO_8601 = /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T(?:(?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d+)?)?|24:00(?::00(?:\.0+)?)?)(?:Z|[+-](?:[01]\d|2[0-3]):?[0-5]\d)$/;

function isTimestamp(text: string): boolean {
  return ISO_8601.test(text);
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

/**
 * The batches' quotes in the user's order (exported for tests; not part of the library): each
 * requested symbol's quotes, in the order asked, then what the service sent unasked, in the order
 * it came. Nearly every symbol gets exactly one quote, so that one goes into its requested place
 * and only a second quote for the same symbol starts a list.
 */
export function mergeBatches(symbols: readonly string[], batches: readonly BatchResult[]): QuotesResult {
  const asked: string[] = [];
  const place = new Map<string, number>();
  for (const symbol of symbols) {
    const key = symbol.toUpperCase();
    if (!place.has(key)) place.set(key, asked.push(symbol) - 1);
  }
  const first: (Quote | undefined)[] = new Array(asked.length).fill(undefined);
  const more = new Map<number, Quote[]>();
  const unasked = new Map<string, Quote[]>();
  for (const batch of batches) {
    for (const quote of batch.quotes) {
      const key = quote.symbol.toUpperCase();
      const at = place.get(key);
      if (at === undefined) append(unasked, key, quote);
      else if (first[at] === undefined) first[at] = quote;
      else append(more, at, quote);
    }
  }
  const data: Quote[] = [];
  const missing: string[] = [];
  for (let at = 0; at < asked.length; at++) {
    const quote = first[at];
    if (quote === undefined) {
      missing.push(asked[at]!);
      continue;
    }
    data.push(quote);
    const others = more.get(at);
    if (others !== undefined) data.push(...others);
  }
  for (const quotes of unasked.values()) data.push(...quotes);
  const attempts = batches.reduce((sum, batch) => sum + batch.attempts, 0);
  return { data, missing, requests: batches.length, attempts, rateLimit: batches.at(-1)?.rateLimit };
}

function append<K>(lists: Map<K, Quote[]>, key: K, quote: Quote): void {
  const list = lists.get(key);
  if (list === undefined) lists.set(key, [quote]);
  else list.push(quote);
}
