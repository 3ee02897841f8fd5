// GET /v1/market/quotes, the data operation getQuotes of src/shared/operations.ts: the input checked
// by its descriptor (data-operation.ts), the token settled (bearer.ts), the symbols sent in batches
// (batches.ts) paced under the rate limit (pacer.ts), each answer read strictly (parse-quotes.ts)
// and the quotes put back in the order asked (merge-quotes.ts).
import { runBatches, uniqueInAnyCase } from './batches.js';
import { requireBearer } from './bearer.js';
import { checkNumber, invalid } from './check-options.js';
import { checkDataInput, dataInputs, dataQuery } from './data-operation.js';
import { bearerHints, callEndpoint, endpoint, withQuery, type EndpointCall } from './endpoint.js';
import { InvalidRequestError } from './errors.js';
import { mergeIndexed, type BatchResult, type QuoteIndex } from './merge-quotes.js';
import type { ClientOptions } from './options.js';
import { createPacer } from './pacer.js';
import { parseQuotes } from './parse-quotes.js';
import type { Transport } from './transport.js';
import type { DataInput, Quote, QuotesResult } from './types.js';
import { createWaitBudget } from './wait-budget.js';
import { DEFAULT_BATCH_SIZE, DEFAULT_CONCURRENCY, DEFAULT_MAX_WAIT_MS, MAX_BATCH_SIZE, MAX_CONCURRENCY } from '../shared/limits.js';
import { DATA_OPERATIONS } from '../shared/operations.js';

/**
 * Client.getQuotes' input: `symbols` (at least one; a symbol repeated in any case is asked once,
 * where it first appears), `venue`, and the call's own token and organization, as its descriptor
 * says (DataInput); and how the client sends them.
 */
export interface GetQuotesInput extends DataInput<'getQuotes'> {
  /**
   * Symbols per request. Default 100; left unset, it also shrinks to what the service says it takes
   * ("at most 10 symbols") at the cost of that first refused request.
   */
  batchSize?: number;
  /** Requests in flight at once. Default 4. */
  concurrency?: number;
  /** Called after each batch completes. */
  onProgress?: (done: number, total: number) => void;
}

const OPERATION = 'getQuotes';
const DESCRIPTOR = DATA_OPERATIONS[OPERATION];

/** Client.getQuotes: the checks, the token, then the batches. */
export async function getQuotes(options: ClientOptions & Transport, input: GetQuotesInput): Promise<QuotesResult> {
  return (await fetchQuotes(options, input)).result;
}

/** getQuotes' result, and the index of its quotes by symbol (a valuation's quote book reads it). */
export async function fetchQuotes(options: ClientOptions & Transport, input: GetQuotesInput): Promise<{ result: QuotesResult; index: QuoteIndex }> {
  const url = endpoint(options.baseUrl, DESCRIPTOR.path);
  const pending = requireBearer(options, input, { operation: OPERATION, url });
  checkQuotesInput(typeof input === 'object' && input !== null ? input : {});
  const bearer = await pending.open();

  const symbols = uniqueInAnyCase(input.symbols);
  const controller = new AbortController();
  // One maxWaitMs for the whole call: every batch's retries and the pacing draw from it.
  const waitBudget = options.waitBudget ?? createWaitBudget(options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS, options.now);
  const progress = { done: 0, total: 0 };
  const shared = { ...options, signal: controller.signal, waitBudget, progress };
  const pacer = createPacer(shared, { method: 'GET', url: url.href, operation: OPERATION, lessWork: 'ask for fewer symbols per call' });
  const call: Omit<EndpointCall<Quote[]>, 'url'> = {
    operation: OPERATION, pacer, bearer,
    expected: 'a JSON object with a data array of quotes',
    read: (json, response) => parseQuotes(json, response.url),
    // Ten thousand quotes are no debug line; an error's body still is.
    logResponseBody: false,
    tooLargeHint: 'request fewer symbols per call (a smaller batchSize)',
    hints: bearerHints({
      inputs: dataInputs(DESCRIPTOR), scope: DESCRIPTOR.scope, organizationId: bearer.organizationId,
      fewerRequests: 'a larger batchSize, a lower concurrency',
    }),
  };
  const results = await runBatches<BatchResult>({
    items: symbols,
    size: Math.max(1, input.batchSize ?? DEFAULT_BATCH_SIZE),
    concurrency: Math.max(1, input.concurrency ?? DEFAULT_CONCURRENCY),
    signal: options.signal,
    controller,
    progress,
    // Left unset, the batch size shrinks to what the service says it takes.
    resize: input.batchSize === undefined ? smallerBatch : undefined,
    onResize: (size, count) => options.onDebug?.(`* the service takes at most ${size} symbols per request: ${count} requests`),
    send: (batch) => fetchBatch(shared, { ...call, url: withQuery(url, dataQuery(DESCRIPTOR, { ...input, symbols: batch })) }),
    onDone: input.onProgress,
  });
  return mergeIndexed(symbols, results, (options.now ?? Date.now)());
}

function checkQuotesInput(input: { batchSize?: unknown; concurrency?: unknown; onProgress?: unknown }): void {
  checkDataInput(OPERATION, DESCRIPTOR, input);
  checkNumber('batchSize', input.batchSize, 1, MAX_BATCH_SIZE, true, OPERATION);
  checkNumber('concurrency', input.concurrency, 1, MAX_CONCURRENCY, true, OPERATION);
  if (input.onProgress !== undefined && typeof input.onProgress !== 'function') {
    throw invalid('onProgress must be a function', { option: 'onProgress', operation: OPERATION, expected: 'a function' });
  }
}

async function fetchBatch(transport: Transport, call: EndpointCall<Quote[]>): Promise<BatchResult> {
  try {
    const { value: quotes, attempts, rateLimit } = await callEndpoint(transport, call);
    return { quotes, attempts, rateLimit };
  } catch (error) {
    if (error instanceof InvalidRequestError) error.maxSymbols = statedMaxSymbols(error.serviceMessage ?? error.message);
    throw error;
  }
}

/**
 * The most symbols a 400 says one request takes ("too many symbols: at most 10 distinct symbols per
 * request", as the sandbox words it): read once, here, into InvalidRequestError.maxSymbols.
 */
function statedMaxSymbols(text: string): number | undefined {
  const stated = /\bat most (\d+)\b[^.;]*\bsymbols\b/i.exec(text);
  const size = stated ? Number(stated[1]) : 0;
  return size >= 1 && Number.isSafeInteger(size) ? size : undefined;
}

/** The batch size a refusal of the first batch states, if smaller than the batch sent. */
function smallerBatch(error: unknown, sent: number): number | undefined {
  const most = error instanceof InvalidRequestError ? error.maxSymbols : undefined;
  return most !== undefined && most < sent ? most : undefined;
}
