// Routing and the safety net: every request gets an answer in JSON (the envelope, or RFC 6749's
// shape on the token endpoint), and nothing a request does can make the server answer with a stack
// trace or HTML. A route is a path, a method and a function; see exchange.ts and grant.ts.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { handleCliLogin, handleToken } from './auth-routes.js';
import { createContext, type SandboxContext } from './context.js';
import { Reject, sendError } from './errors.js';
import type { Exchange, Route } from './exchange.js';
import { handleHealth, handleOpenApiJson, handleOpenApiYaml } from './meta-routes.js';
import type { RequestLogEntry, SandboxOptions } from './options.js';
import { MARKET_ROUTES } from './market-routes.js';
import { DATA_OPERATIONS, type DataOperationId } from '../shared/operations.js';

/** Longest query string served; longer ones get 414 (the request line as a whole is capped at 16 KiB). */
export const MAX_QUERY_BYTES = 8 * 1024;

/** The token endpoint, whose errors have RFC 6749 §5.2's shape so that OAuth clients can read them. */
const TOKEN_PATH = '/v1/auth/token';

/**
 * Every route, by path: the data operations' (src/shared/operations.ts gives their paths and
 * methods), then the others. docs/openapi.yaml describes each (test/sandbox/openapi.test.ts holds
 * them to it).
 */
export const ROUTES: ReadonlyMap<string, { method: 'GET' | 'POST'; route: Route }> = new Map([
  ...Object.entries(DATA_OPERATIONS).map(([id, { path, method }]) => [path, { method, route: MARKET_ROUTES[id as DataOperationId] }] as const),
  [TOKEN_PATH, { method: 'POST', route: handleToken }],
  ['/auth/cli-login', { method: 'POST', route: handleCliLogin }],
  ['/healthz', { method: 'GET', route: handleHealth }],
  ['/openapi.yaml', { method: 'GET', route: handleOpenApiYaml }],
  ['/openapi.json', { method: 'GET', route: handleOpenApiJson }],
]);

const ROUTES_HINT = `the service has ${[...ROUTES].map(([path, { method }]) => `${method} ${path}`).join(', ')}`;

/** RFC 9112 §3.2.2: servers accept the absolute form (`GET http://host/path`) too; keep its path. */
function originForm(url: string): string {
  if (url.charCodeAt(0) === 0x2f) return url;
  const origin = /^https?:\/\/[^/?#]*/i.exec(url);
  if (origin === null) return url;
  const rest = url.slice(origin[0].length);
  return rest === '' || rest.charCodeAt(0) === 0x3f ? `/${rest}` : rest;
}

function createExchange(ctx: SandboxContext, req: IncomingMessage, res: ServerResponse): Exchange {
  const url = originForm(req.url ?? '/');
  const mark = url.indexOf('?');
  const path = mark < 0 ? url : url.slice(0, mark);
  return {
    req,
    res,
    id: ctx.nextRequestId(),
    path,
    query: mark < 0 ? '' : url.slice(mark + 1),
    errorStyle: path === TOKEN_PATH ? 'oauth' : 'envelope',
    clientId: undefined,
  };
}

function route(ctx: SandboxContext, ex: Exchange): void | Promise<void> {
  if (ex.query.length > MAX_QUERY_BYTES) throw new Reject('URI_TOO_LONG', `query string is longer than ${MAX_QUERY_BYTES / 1024} KiB`);
  const entry = ROUTES.get(ex.path);
  if (entry === undefined) throw new Reject('NOT_FOUND', `no such endpoint; ${ROUTES_HINT}`);
  if (ex.req.method !== entry.method) {
    throw new Reject('METHOD_NOT_ALLOWED', `${ex.path} accepts ${entry.method} only`, { headers: { Allow: entry.method } });
  }
  return entry.route(ctx, ex);
}

/** Answers a Reject as the route's error; anything else is a bug: 500, reported to onError. */
function fail(ctx: SandboxContext, ex: Exchange, error: unknown): void {
  const { res } = ex;
  if (error instanceof Reject) {
    if (!res.headersSent && !res.destroyed) sendError(res, ex.id, ex.errorStyle, error);
    return;
  }
  try {
    ctx.options.onError(error);
  } catch {
    // A failing error callback must not take the server down either.
  }
  if (res.headersSent || res.destroyed) {
    res.destroy();
    return;
  }
  sendError(res, ex.id, ex.errorStyle, new Reject('INTERNAL', 'internal error', { close: true }));
}

/** Reports a request to onRequest, if set; a failing log callback is reported to onError, not thrown. */
export function logRequest(ctx: SandboxContext, entry: RequestLogEntry): void {
  try {
    ctx.options.onRequest?.(entry);
  } catch (error) {
    ctx.options.onError(error);
  }
}

function logWhenDone(ctx: SandboxContext, ex: Exchange, time: number): void {
  const started = performance.now();
  ex.res.once('close', () => logRequest(ctx, {
    time,
    method: ex.req.method,
    path: ex.path,
    status: ex.res.headersSent ? ex.res.statusCode : 0,
    clientId: ex.clientId,
    durationMs: performance.now() - started,
    requestId: ex.id,
  }));
}

/** Answers `req` with `error` outside the routes (Node's own checks, e.g. an unknown Expect). */
export function rejectRequest(ctx: SandboxContext, req: IncomingMessage, res: ServerResponse, error: Reject): void {
  const ex = createExchange(ctx, req, res);
  if (ctx.options.onRequest !== undefined) logWhenDone(ctx, ex, ctx.now());
  sendError(res, ex.id, ex.errorStyle, error);
}

/** The request listener over an existing context (startSandbox shares the context with its socket-level handlers). */
export function createRequestListener(ctx: SandboxContext): RequestListener {
  return (req, res) => {
    const ex = createExchange(ctx, req, res);
    try {
      if (ctx.options.onRequest !== undefined) logWhenDone(ctx, ex, ctx.now());
      const pending = route(ctx, ex);
      if (pending !== undefined) pending.catch((error: unknown) => fail(ctx, ex, error));
    } catch (error) {
      fail(ctx, ex, error);
    }
  };
}

/**
 * The sandbox as a plain `(req, res)` listener, for mounting in your own node:http server.
 * Throws SandboxConfigError for invalid options.
 */
export function createSandboxHandler(options: SandboxOptions = {}): RequestListener {
  return createRequestListener(createContext(options));
}
