// GET /v1/market/quotes, the hot path: the grant preamble (401, 400, 403, 429), then the query
// (400); see docs/sandbox.md. The body is built as text so prices keep their precision and trailing
// zeros (227.10).
import { Reject } from './errors.js';
import type { Route } from './exchange.js';
import { counted, requireGrant } from './grant.js';
import { MAX_SYMBOL_LENGTH } from '../shared/patterns.js';
import { quoteName } from './request-body.js';
import { sendOk } from './responses.js';

export { MAX_SYMBOL_LENGTH };
const VENUE_PATTERN = /^[A-Z0-9]{1,16}$/;

type Query = { symbols: string[]; venue: string | undefined } | { error: string };

/** A symbol is 1 to 32 visible ASCII characters; the reason it is not, or undefined. */
function symbolProblem(symbol: string, position: number): string | undefined {
  if (symbol.length > MAX_SYMBOL_LENGTH) return `symbol ${position} is longer than ${MAX_SYMBOL_LENGTH} characters`;
  for (let i = 0; i < symbol.length; i++) {
    const c = symbol.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return `symbol ${position} contains a control character`;
    if (c > 0x7e || c === 0x20) return `symbol ${position} contains a character other than visible ASCII`;
  }
  return undefined;
}

/** Trims spaces only: a control character anywhere, tab or newline included, is an error. */
function trimSpaces(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text.charCodeAt(start) === 0x20) start++;
  while (end > start && text.charCodeAt(end - 1) === 0x20) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

export function parseQuery(query: string, maxSymbols: number): Query {
  let symbolsParam: string | undefined;
  let venueParam: string | undefined;
  for (const [name, value] of new URLSearchParams(query)) {
    if (name === 'symbols' || name === 'venue') {
      if ((name === 'symbols' ? symbolsParam : venueParam) !== undefined) return { error: `${name} is given more than once` };
      if (name === 'symbols') symbolsParam = value;
      else venueParam = value;
    } else {
      return { error: `unknown query parameter ${quoteName(name)}; allowed: symbols, venue` };
    }
  }
  if (symbolsParam === undefined) return { error: 'symbols is required' };
  const symbols: string[] = [];
  const seen = new Set<string>();
  let position = 0;
  for (const part of symbolsParam.split(',')) {
    position++;
    const symbol = trimSpaces(part);
    if (symbol === '') continue;
    const problem = symbolProblem(symbol, position);
    if (problem !== undefined) return { error: problem };
    const upper = symbol.toUpperCase();
    if (seen.has(upper)) continue;
    seen.add(upper);
    if (symbols.push(upper) > maxSymbols) {
      return { error: `too many symbols: at most ${maxSymbols} distinct symbols per request` };
    }
  }
  if (symbols.length === 0) return { error: 'symbols is required: give at least one symbol, e.g. symbols=EURUSD,AAPL' };
  let venue: string | undefined;
  if (venueParam !== undefined) {
    venue = trimSpaces(venueParam).toUpperCase();
    if (!VENUE_PATTERN.test(venue)) return { error: 'venue must be a venue code of 1 to 16 letters or digits, e.g. XNAS' };
  }
  return { symbols, venue };
}

export const handleQuotes: Route = (ctx, ex) => {
  const grant = requireGrant(ctx, ex, 'market.read');
  counted(grant.headers, () => {
    const parsed = parseQuery(ex.query, ctx.options.maxSymbols);
    if ('error' in parsed) throw new Reject('INVALID_REQUEST', parsed.error);
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
