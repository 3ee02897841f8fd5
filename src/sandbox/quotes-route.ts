// GET /v1/market/quotes, the hot path: the grant preamble (401, 400, 403, 429), then the query
// (400); see docs/sandbox.md. The body is built as text so prices keep their precision and trailing
// zeros (227.10).
import { Reject } from './errors.js';
import type { Route } from './exchange.js';
import { counted, requireGrant } from './grant.js';
import { trimSpaces } from './list-query.js';
import { sendOk } from './responses.js';
import { parseSymbolsQuery } from './symbols-query.js';

const VENUE_PATTERN = /^[A-Z0-9]{1,16}$/;

/** symbols (symbols-query.ts) and venue, a venue code. */
function parseQuery(query: string, maxSymbols: number): { symbols: string[]; venue: string | undefined } {
  const { symbols, params } = parseSymbolsQuery(query, maxSymbols, ['venue']);
  if (params.venue === undefined) return { symbols, venue: undefined };
  const venue = trimSpaces(params.venue).toUpperCase();
  if (!VENUE_PATTERN.test(venue)) throw new Reject('INVALID_REQUEST', 'venue must be a venue code of 1 to 16 letters or digits, e.g. XNAS');
  return { symbols, venue };
}

export const handleQuotes: Route = (ctx, ex) => {
  const grant = requireGrant(ctx, ex, 'market.read');
  counted(grant.headers, () => {
    const parsed = parseQuery(ex.query, ctx.options.maxSymbols);
    const { catalogue, book } = ctx;
    let body = '{"data":[';
    let first = true;
    for (const symbol of parsed.symbols) {
      const instrument = catalogue.get(symbol);
      if (instrument === undefined) continue;
      const venueIndex = parsed.venue === undefined ? 0 : instrument.venues.indexOf(parsed.venue);
      if (venueIndex < 0) continue;
      body += first ? book.quoteJson(instrument, venueIndex, grant.now) : `,${book.quoteJson(instrument, venueIndex, grant.now)}`;
      first = false;
    }
    sendOk(ex, `${body}]}`, grant.headers);
  });
};
