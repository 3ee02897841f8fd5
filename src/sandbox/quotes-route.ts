// GET /v1/market/quotes, the hot path. Checks run in the order authentication (401), organization
// header (400), authorization (403), rate limit (429), query validation (400); see docs/sandbox.md.
// The body is built as text so prices keep their precision and trailing zeros (227.10).
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { BEARER_CHALLENGE } from './auth-routes.js';
import type { SandboxContext } from './context.js';
import { sendError, JSON_CONTENT_TYPE } from './errors.js';
import { MAX_SYMBOL_LENGTH, ORGANIZATION_PATTERN } from '../shared/patterns.js';
import { quoteName } from './request-body.js';

export { MAX_SYMBOL_LENGTH };
const MISSING_CREDENTIALS = { 'WWW-Authenticate': BEARER_CHALLENGE };
const INVALID_TOKEN = { 'WWW-Authenticate': `${BEARER_CHALLENGE}, error="invalid_token", error_description="The access token is invalid or expired"` };
const INSUFFICIENT_SCOPE = { 'WWW-Authenticate': `${BEARER_CHALLENGE}, error="insufficient_scope", scope="market.read"` };
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

export function handleQuotes(ctx: SandboxContext, req: IncomingMessage, res: ServerResponse, requestId: string, query: string): void {
  const authorization = req.headers.authorization;
  if (authorization === undefined || authorization.length < 7 || authorization.slice(0, 7).toLowerCase() !== 'bearer ') {
    sendError(res, requestId, 'UNAUTHORIZED', 'missing credentials: send Authorization: Bearer <access token>', { headers: MISSING_CREDENTIALS });
    return;
  }
  const grant = ctx.tokens.lookup(authorization.slice(7).trim());
  if (grant === undefined) {
    sendError(res, requestId, 'UNAUTHORIZED', 'invalid or expired access token', { headers: INVALID_TOKEN });
    return;
  }
  const org = req.headers['x-organization-id'];
  if (typeof org !== 'string' || !ORGANIZATION_PATTERN.test(org)) {
    const message = org === undefined ? 'X-Organization-Id header is required' : 'X-Organization-Id must have the form org_<id>';
    sendError(res, requestId, 'INVALID_REQUEST', `${message}, <id> being 1 to 64 of A-Z, a-z, 0-9, _ or -`);
    return;
  }
  const orgAllowed = grant.organizationId === undefined ? grant.principal.orgs.has(org) : grant.organizationId === org;
  if (!orgAllowed) {
    sendError(res, requestId, 'FORBIDDEN', `this token may not act for organization ${org}`);
    return;
  }
  if (!grant.canReadMarket) {
    sendError(res, requestId, 'FORBIDDEN', 'this token lacks the market.read scope', { headers: INSUFFICIENT_SCOPE });
    return;
  }
  const now = ctx.now();
  const decision = ctx.limiter.admit(`${grant.principal.clientId}\n${org}`, grant.principal.limits, now);
  const limitHeaders: OutgoingHttpHeaders = {
    'RateLimit-Limit': String(decision.limit),
    'RateLimit-Remaining': String(decision.remaining),
    'RateLimit-Reset': String(decision.resetSeconds),
    'RateLimit-Policy': grant.principal.policy,
  };
  if (!decision.allowed) {
    limitHeaders['Retry-After'] = String(decision.resetSeconds);
    sendError(res, requestId, 'RATE_LIMITED', `too many market data requests; retry after ${decision.resetSeconds} s`, { headers: limitHeaders });
    return;
  }
  const parsed = parseQuery(query, ctx.options.maxSymbols);
  if ('error' in parsed) {
    sendError(res, requestId, 'INVALID_REQUEST', parsed.error, { headers: limitHeaders });
    return;
  }
  const { catalogue, book } = ctx;
  let body = '{"data":[';
  let first = true;
  for (const symbol of parsed.symbols) {
    const instrument = catalogue.get(symbol);
    if (instrument === undefined) continue;
    const venueIndex = parsed.venue === undefined ? 0 : instrument.venues.indexOf(parsed.venue);
    if (venueIndex < 0) continue;
    body += first ? book.quoteJson(instrument, venueIndex, now) : `,${book.quoteJson(instrument, venueIndex, now)}`;
    first = false;
  }
  body += ']}';
  limitHeaders['Content-Type'] = JSON_CONTENT_TYPE;
  // The body is ASCII (catalogue symbols, digits, ISO dates), so its length is its byte count.
  limitHeaders['Content-Length'] = String(body.length);
  limitHeaders['Cache-Control'] = 'no-store';
  limitHeaders['X-Content-Type-Options'] = 'nosniff';
  limitHeaders['X-Request-Id'] = requestId;
  res.writeHead(200, limitHeaders);
  res.end(body);
}
