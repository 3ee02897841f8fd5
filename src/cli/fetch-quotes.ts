// mkt quotes' one-shot fetch: getQuotes with the command's progress, and batches that fit the
// service. The spec does not say how many symbols one request may carry; a service that takes
// fewer than the default batch says so in its 400 ("at most 10 distinct symbols per request"), and
// a list that would fit in smaller batches is then sent in those, once, rather than fail.
import { DEFAULT_BATCH_SIZE, getQuotes, type QuotesRequest } from '../api/quotes.js';
import type { QuotesResult } from '../api/types.js';
import type { Deps } from './deps.js';
import { symbolLimitOf } from './explain.js';
import type { CliHttp } from './http.js';

export interface FetchOptions {
  /** The batch size was chosen by --batch-size: the service's limit is then the user's to meet. */
  batchSizeGiven: boolean;
  quiet: boolean | undefined;
}

export async function fetchQuotes(deps: Deps, http: CliHttp, request: QuotesRequest, options: FetchOptions): Promise<QuotesResult> {
  const progress = http.progress;
  const fetch = (batchSize: number | undefined) => getQuotes(http, { ...request, batchSize, onProgress: progress.onBatch });
  try {
    return await fetch(request.batchSize);
  } catch (error) {
    const limit = options.batchSizeGiven ? undefined : symbolLimitOf(error);
    const sent = Math.min(request.batchSize ?? DEFAULT_BATCH_SIZE, request.symbols.length);
    if (limit === undefined || limit >= sent) throw error;
    if (!options.quiet) deps.io.stderr.write(`note: the service takes at most ${limit} symbols in one request; sending batches of ${limit} (--batch-size ${limit} says so at once)\n`);
    return await fetch(limit);
  } finally {
    progress.stop();
  }
}
