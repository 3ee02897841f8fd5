// Routing and the safety net: every request gets an answer in the JSON envelope, and nothing a
// request does can make the server answer with a stack trace or HTML.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { handleCliLogin, handleToken, runRoute } from './auth-routes.js';
import { createContext, type SandboxContext } from './context.js';
import { sendError } from './errors.js';
import type { SandboxOptions } from './options.js';
import { handleQuotes } from './quotes-route.js';

/** Longest query string served; longer ones get 414 (the request line as a whole is capped at 16 KiB). */
export const MAX_QUERY_BYTES = 8 * 1024;

const ROUTES_HINT = 'the service has POST /v1/auth/token, POST /auth/cli-login and GET /v1/market/quotes';

function answerInternal(ctx: SandboxContext, res: ServerResponse, requestId: string, error: unknown): void {
  try {
    ctx.options.onError(error);
  } catch {
    // A failing error callback must not take the server down either.
  }
  if (res.headersSent || res.destroyed) {
    res.destroy();
    return;
  }
  sendError(res, requestId, 'INTERNAL', 'internal error', { close: true });
}

/** RFC 9112 §3.2.2: servers accept the absolute form (`GET http://host/path`) too; keep its path. */
function originForm(url: string): string {
  if (url.charCodeAt(0) === 0x2f) return url;
  const origin = /^https?:\/\/[^/?#]*/i.exec(url);
  if (origin === null) return url;
  const rest = url.slice(origin[0].length);
  return rest === '' || rest.charCodeAt(0) === 0x3f ? `/${rest}` : rest;
}

function route(ctx: SandboxContext, req: IncomingMessage, res: ServerResponse, requestId: string): void {
  const url = originForm(req.url ?? '/');
  const mark = url.indexOf('?');
  const path = mark < 0 ? url : url.slice(0, mark);
  if (mark >= 0 && url.length - mark - 1 > MAX_QUERY_BYTES) {
    sendError(res, requestId, 'URI_TOO_LONG', `query string is longer than ${MAX_QUERY_BYTES / 1024} KiB`);
    return;
  }
  const method = req.method;
  const onInternal = (error: unknown) => answerInternal(ctx, res, requestId, error);
  switch (path) {
    case '/v1/market/quotes':
      if (method !== 'GET') return methodNotAllowed(res, requestId, 'GET', path);
      return handleQuotes(ctx, req, res, requestId, mark < 0 ? '' : url.slice(mark + 1));
    case '/v1/auth/token':
      if (method !== 'POST') return methodNotAllowed(res, requestId, 'POST', path);
      return runRoute(handleToken, ctx, req, res, requestId, onInternal);
    case '/auth/cli-login':
      if (method !== 'POST') return methodNotAllowed(res, requestId, 'POST', path);
      return runRoute(handleCliLogin, ctx, req, res, requestId, onInternal);
    default:
      sendError(res, requestId, 'NOT_FOUND', `no such endpoint; ${ROUTES_HINT}`);
  }
}

function methodNotAllowed(res: ServerResponse, requestId: string, allow: string, path: string): void {
  sendError(res, requestId, 'METHOD_NOT_ALLOWED', `${path} accepts ${allow} only`, { headers: { Allow: allow } });
}

/** The request listener over an existing context (startSandbox shares the context with its socket-level handlers). */
export function createRequestListener(ctx: SandboxContext): RequestListener {
  return (req, res) => {
    const requestId = ctx.nextRequestId();
    try {
      route(ctx, req, res, requestId);
    } catch (error) {
      answerInternal(ctx, res, requestId, error);
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
