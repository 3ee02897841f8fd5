// Reading what the service sent back: error statuses to error classes and bodies to JSON. The spec
// does not show its error envelope, so several shapes are accepted. Messages and hints name the
// library's own options (maxWaitMs, batchSize...), never a command line's flags: the CLI words its own.
import {
  ApiError, AuthError, ForbiddenError, InvalidRequestError, RateLimitError, ResponseError, ServerError, type ApiErrorInit,
} from './errors.js';
import { parseJsonExact, withoutBom } from './json.js';
import type { HttpResponse } from './transport.js';
import { formatDuration, formatWait, tryAgainAt } from '../shared/duration.js';
import { stripControl } from '../shared/text.js';
import { describeStatus } from './status-text.js';

interface ErrorBody {
  code: string | undefined;
  message: string | undefined;
  requestId: string | undefined;
  oauthError: string | undefined;
  body: unknown;
}

/**
 * The service's `{"error": {"code", "message"}, "request_id"}`; OAuth's (RFC 6749 §5.2)
 * `{"error": "invalid_client", "error_description", "code", "request_id"}`, whose `code`, the
 * service's own, wins over the OAuth error; `{"code", "message"}`; or plain text.
 */
export function readErrorBody(response: HttpResponse): ErrorBody {
  const requestId = response.headers['x-request-id'];
  let body: unknown;
  try {
    body = JSON.parse(withoutBom(response.text));
  } catch {
    const text = response.text.trim();
    const plain = text !== '' && !/^\s*</.test(text) && text.length <= 500 ? stripControl(text) : undefined;
    return { code: undefined, message: plain, requestId, oauthError: undefined, body: response.text };
  }
  if (body === null || typeof body !== 'object') return { code: undefined, message: undefined, requestId, oauthError: undefined, body };
  const record = body as Record<string, unknown>;
  const nested = record.error;
  const id = stringOr(record.request_id) ?? requestId;
  if (nested !== null && typeof nested === 'object') {
    const inner = nested as Record<string, unknown>;
    return { code: stringOr(inner.code), message: stringOr(inner.message), requestId: id, oauthError: stringOr(inner.oauth_error), body };
  }
  if (typeof nested === 'string' && nested !== '') {
    const message = stringOr(record.error_description) ?? stringOr(record.message);
    return { code: stringOr(record.code) ?? nested, message, requestId: id, oauthError: nested, body };
  }
  return { code: stringOr(record.code), message: stringOr(record.message) ?? stringOr(record.detail), requestId: id, oauthError: undefined, body };
}

function stringOr(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? stripControl(value.slice(0, 500)) : undefined;
}

export interface ErrorContext {
  /** The organization the request was for, to name it in a 403. */
  organizationId?: string;
  /** A token request (cliLogin, clientCredentials) rather than a data request: other hints. */
  token?: boolean;
  /** The wait budget, to say why retrying stopped. */
  maxWaitMs?: number;
  now?: () => number;
}

/** The error for a non-2xx response. */
export function errorFromResponse(response: HttpResponse, context: ErrorContext = {}): ApiError | ResponseError {
  const { status, method, url } = response;
  const where = `${method} ${displayUrl(url)}`;
  if (status >= 300 && status < 400) {
    const location = response.headers.location;
    return new ResponseError(`${where} answered ${status} redirecting to ${location ? displayUrl(location) : 'another address'}; redirects are not followed with credentials`, {
      method, url, status, hint: 'set baseUrl to the address the service really serves',
    });
  }
  const parsed = readErrorBody(response);
  const serviceSays = parsed.message ? `: ${parsed.message}` : '';
  const init = {
    status, method, url, body: parsed.body, requestId: parsed.requestId, retryAfterMs: response.retryAfterMs, oauthError: parsed.oauthError,
  };
  switch (status) {
    case 400:
      return new InvalidRequestError({ ...init, code: parsed.code ?? 'INVALID_REQUEST', message: `the service rejected the request (400${codeText(parsed.code)})${serviceSays}`,
        hint: context.token ? 'check the API key or the client id and secret, and the organizationId' : 'check the symbols, the venue and the organizationId' });
    case 401:
      return new AuthError({ ...init, code: parsed.code ?? 'UNAUTHORIZED', message: `not authenticated (401${codeText(parsed.code)})${serviceSays}`,
        hint: context.token
          ? 'the service refused these credentials: check the API key, or the client id and secret'
          : 'the access token is missing, invalid or expired: get a new one (cliLogin or clientCredentials) and pass it as accessToken' });
    case 403:
      return new ForbiddenError({ ...init, code: parsed.code ?? 'FORBIDDEN', message: `forbidden (403${codeText(parsed.code)})${serviceSays}`,
        hint: `the token lacks the market.read scope or access to ${context.organizationId ?? 'the organization'}; check organizationId, or get a token from a key that has them` });
    case 429:
      return rateLimited(response, init, parsed, context);
    default: {
      const Class = status >= 500 ? ServerError : ApiError;
      const attempts = response.attempts > 1 ? ` after ${response.attempts} attempts` : '';
      let hint = status >= 500 ? 'the service is having trouble; try again later' : status === 404 ? 'check baseUrl' : undefined;
      let asked = '';
      if (status >= 500 && response.retryAfterMs !== undefined) {
        hint = `the service is having trouble; try again after ${tryAgainAt(response.retryAfterMs, context)}`;
        if (response.gaveUpOnBudget && context.maxWaitMs !== undefined && response.retryAfterMs > context.maxWaitMs) asked = `; ${asksLonger(response.retryAfterMs, context.maxWaitMs)}`;
      }
      return new Class({ ...init, code: parsed.code ?? `HTTP_${status}`, message: `${where} failed with ${describeStatus(status)}${attempts}${serviceSays}${asked}`, hint });
    }
  }
}

function rateLimited(response: HttpResponse, init: Omit<ApiErrorInit, 'code' | 'message'>, parsed: ErrorBody, context: ErrorContext): RateLimitError {
  const wait = response.retryAfterMs;
  const attempts = `${response.attempts} attempt${response.attempts === 1 ? '' : 's'}`;
  let message = `rate limited (429${codeText(parsed.code)}) after ${attempts}`;
  let hint = 'wait a minute, or send fewer requests (a larger batchSize, a lower concurrency)';
  if (wait !== undefined) {
    if (response.gaveUpOnBudget && context.maxWaitMs !== undefined && wait > context.maxWaitMs) message += `; ${asksLonger(wait, context.maxWaitMs)}`;
    hint = `try again after ${tryAgainAt(wait, context)}`;
  }
  return new RateLimitError({ ...init, code: parsed.code ?? 'RATE_LIMITED', message, hint });
}

function asksLonger(waitMs: number, maxWaitMs: number): string {
  return `the service asks to wait ${formatWait(waitMs)}, longer than maxWaitMs (${formatDuration(maxWaitMs)})`;
}


function codeText(code: string | undefined): string {
  return code ? ` ${code}` : '';
}

/** Origin and path only: a query string could carry anything. */
export function displayUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return url.slice(0, 200);
  }
}

/** A 2xx body as JSON with exact numbers; anything else is a response the client cannot use. */
export function readJson(response: HttpResponse, what: string): unknown {
  const { method, url, status } = response;
  // Parsed for a message only: once per response is measurable at 100 batches.
  const where = () => `${method} ${displayUrl(url)}`;
  const type = response.headers['content-type'] ?? '';
  if (response.text.trim() === '') {
    throw new ResponseError(`${where()} returned ${status} with an empty body; expected ${what}`, { method, url, status, hint: hintForUnusable });
  }
  if (/^\s*</.test(response.text) || /text\/html/i.test(type)) {
    throw new ResponseError(`${where()} returned an HTML page (${stripControl(type).slice(0, 100) || 'no content type'}) instead of ${what}`, {
      method, url, status, hint: 'a proxy or the wrong server answered: check baseUrl, and the proxy of the dispatcher if it has one',
    });
  }
  try {
    return parseJsonExact(response.text);
  } catch (error) {
    throw new ResponseError(`${where()} returned a body that is not valid JSON (${(error as Error).message}); expected ${what}`, {
      method, url, status, cause: error, hint: hintForUnusable,
    });
  }
}

const hintForUnusable = 'the response may have been cut off or altered on the way; try again, and check baseUrl';
