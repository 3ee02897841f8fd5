// Quotes as a watched resource (watched-resource.ts): a poll is one getQuotes of the symbols asked
// for, each quote compared with the previous poll's (render/changes.ts) for the board's highlights
// and --changes-only; the outputs are the quotes board (board-output.ts), the plain tables
// (plain-output.ts) and the NDJSON, CSV or TSV stream (stream-output.ts); --until is decided on the
// quotes of a poll, a symbol asked for with no quote failing what applies to it.
import { unusableBySymbol, type Quote } from '../../api/index.js';
import { createChangeTracker } from '../../render/changes.js';
import type { QuoteFieldName, QuotesDocument } from '../../render/quote-fields.js';
import { QUOTE_MODEL } from '../../render/quote-model.js';
import type { History } from '../../render/sparkline.js';
import { DEFAULT_CONCURRENCY } from '../../shared/limits.js';
import type { Deps } from '../deps.js';
import type { QuotesOptions } from '../options/quotes.js';
import type { RunState } from '../run-state.js';
import { createBoardOutput } from './board-output.js';
import { createPlainOutput } from './plain-output.js';
import { runWatch } from './run-watch.js';
import { createStreamOutput } from './stream-output.js';
import type { WatchTerminal } from './terminal.js';
import type { QuotePoll } from './watch-output.js';
import type { WatchedResource } from './watched-resource.js';
import type { WatchStream } from './watch-settings.js';

/** What runQuotes has already checked: the symbols (upper-cased) and the request options. */
export interface WatchRequest {
  symbols: string[];
  venue: string | undefined;
  batchSize: number | undefined;
  concurrency: number | undefined;
  maxAgeMs: number | undefined;
}

/** NDJSON, CSV and TSV grow a line per quote per poll; a JSON document cannot. */
const QUOTES_PIPE: WatchStream = {
  formats: ['ndjson', 'csv', 'tsv'],
  name: 'NDJSON',
  refusal: { reason: 'a JSON document cannot grow by a poll at a time', hint: 'use --format ndjson (a JSON object per quote per line), csv or tsv' },
};

/** `mkt quotes --watch`. `terminal`: the process's, or a test's; `history`: the board's sparkline memory (a test reads its size). */
export function watchQuotes(
  deps: Deps, request: WatchRequest, options: QuotesOptions, state: RunState, terminal?: WatchTerminal, history?: History,
): Promise<number> {
  return runWatch(deps, quotesWatched(request, options, history), options, state, terminal);
}

function quotesWatched(request: WatchRequest, options: QuotesOptions, history: History | undefined): WatchedResource<QuotePoll, Quote, QuotesDocument, QuoteFieldName> {
  const tracker = createChangeTracker();
  const changesOnly = options.changesOnly === true;
  return {
    model: QUOTE_MODEL,
    keys: request.symbols,
    pipe: QUOTES_PIPE,
    connections: request.concurrency ?? DEFAULT_CONCURRENCY,
    async poll(client) {
      const result = await client.getQuotes({
        symbols: request.symbols,
        venue: request.venue,
        batchSize: request.batchSize,
        concurrency: request.concurrency,
      });
      // A batch size the service stated (in a 400 the library answered by shrinking it) is kept for
      // the next polls, which would otherwise each begin with that refusal.
      request.batchSize ??= Math.ceil(request.symbols.length / Math.max(1, result.requests));
      // Quotes for symbols not asked for are the library's to leave out (result.unasked).
      return { result, ignored: result.unasked, changes: tracker.update(result.data) };
    },
    pacing: ({ result }) => ({ requests: result.requests, rateLimit: result.rateLimit }),
    subject: ({ result }) => ({ rows: result.data, document: result, keys: request.symbols, unusable: unusableBySymbol(result.unusable) }),
    createBoard: ({ deps, screen, terminal, settings }) => createBoardOutput(deps, screen, terminal, {
      intervalMs: settings.intervalMs, maxAgeMs: request.maxAgeMs, changesOnly, fields: settings.fields, history,
    }),
    createPlain: ({ screen, terminal, settings }) => createPlainOutput(screen, terminal, {
      intervalMs: settings.intervalMs, maxAgeMs: request.maxAgeMs, changesOnly, fields: settings.fields,
    }),
    createStream: ({ screen, settings }) => createStreamOutput(screen, { changesOnly, format: settings.format, fields: settings.fields }),
  };
}
