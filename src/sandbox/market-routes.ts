// Every /v1/market route: one for each data operation of src/shared/operations.ts, which the
// compiler holds MARKET_ROUTES to, each on the shared preamble: the grant (grant.ts: 401, 400, 403,
// 429), then the query read by the operation's descriptor (list-query.ts: 400), then its answer.
// Bodies are built as text, so that prices keep their precision and trailing zeros (227.10). See
// docs/sandbox.md.
import { DATA_OPERATIONS, type DataOperationId } from '../shared/operations.js';
import type { SandboxContext } from './context.js';
import type { Exchange, Route } from './exchange.js';
import { counted, requireGrant, type Grant } from './grant.js';
import { parseListQuery, type DataQuery } from './list-query.js';
import { sendOk } from './responses.js';

/** What a route answers once the request is admitted and its query read; `grant.headers` go on the answer. */
type MarketAnswer<Id extends DataOperationId> = (ctx: SandboxContext, ex: Exchange, grant: Grant, query: DataQuery<Id>) => void;

/** The route of operation `id`: the preamble, then `answer`. `maxItems`: the list's most, when the sandbox's options set it. */
function marketRoute<Id extends DataOperationId>(id: Id, answer: MarketAnswer<Id>, maxItems?: (ctx: SandboxContext) => number): Route {
  const operation = DATA_OPERATIONS[id];
  return (ctx, ex) => {
    const grant = requireGrant(ctx, ex, operation.scope);
    counted(grant.headers, () => answer(ctx, ex, grant, parseListQuery(ex.query, operation, maxItems?.(ctx))));
  };
}

export const MARKET_ROUTES: { readonly [Id in DataOperationId]: Route } = {
  // The hot path. The Quote has no venue: one quote per instrument, on its primary venue or on the
  // venue asked for; a venue none of the symbols trades on (one not in the catalogue included) leaves them out.
  getQuotes: marketRoute('getQuotes', (ctx, ex, grant, { items, params }) => {
    const venue = params.venue?.toUpperCase();
    const { catalogue, book } = ctx;
    let body = '{"data":[';
    let first = true;
    for (const symbol of items) {
      const instrument = catalogue.get(symbol);
      if (instrument === undefined) continue;
      const venueIndex = venue === undefined ? 0 : instrument.venues.indexOf(venue);
      if (venueIndex < 0) continue;
      body += first ? book.quoteJson(instrument, venueIndex, grant.now) : `,${book.quoteJson(instrument, venueIndex, grant.now)}`;
      first = false;
    }
    sendOk(ex, `${body}]}`, grant.headers);
  }, (ctx) => ctx.options.maxSymbols),
};
