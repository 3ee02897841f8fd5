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
function readErrorBody(response: HttpResponse): ErrorBody {
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

/** A member's text, cut at 500 characters with a mark (a secret cut there is still found: redactSecrets). */
function stringOr(value: unknown): string | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  return stripControl(value.length > 500 ? `${value.slice(0, 500)}…` : value);
}

/** What an endpoint's errors say about it: its hints come from the endpoint, never from its path. */
export interface EndpointHints {
  /** A 400: what to check. */
  invalid: string;
  /** A 401. */
  unauthorized: string;
  /** A 403. */
  forbidden: string;
  /** A 429 that named no time to come back: how to send fewer requests. */
  rateLimited: string;
}

export interface ErrorContext {
  hints: EndpointHints;
  /** The wait budget, to say why retrying stopped. */
  maxWaitMs?: number;
  now?: () => number;
}

/** The error for a non-2xx response. */
export function errorFromResponse(response: HttpResponse, context: ErrorContext): ApiError | ResponseError {
  const { status, method, url, operation } = response;
  const where = `${method} ${displayUrl(url)}`;
  if (status >= 300 && status < 400) {
    const location = response.headers.location ? displayUrl(response.headers.location) : undefined;
    return new ResponseError(`${where} answered ${status} redirecting to ${location ?? 'another address'}; redirects are not followed with credentials`, {
      method, url, status, operation, problem: 'redirect', location, hint: 'set baseUrl to the address the service really serves',
    });
  }
  const parsed = readErrorBody(response);
  const serviceSays = parsed.message ? `: ${parsed.message}` : '';
  const init = {
    status, method, url, operation, attempts: response.attempts, body: parsed.body, requestId: parsed.requestId,
    retryAfterMs: response.retryAfterMs, oauthError: parsed.oauthError, serviceCode: parsed.code, serviceMessage: parsed.message,
  };
  const { hints } = context;
  switch (status) {
    case 400:
      return new InvalidRequestError({ ...init, code: parsed.code ?? 'INVALID_REQUEST', message: `the service rejected the request (400${codeText(parsed.code)})${serviceSays}`,
        hint: hints.invalid });
    case 401:
      return new AuthError({ ...init, code: parsed.code ?? 'UNAUTHORIZED', message: `not authenticated (401${codeText(parsed.code)})${serviceSays}`, hint: hints.unauthorized });
    case 403:
      return new ForbiddenError({ ...init, code: parsed.code ?? 'FORBIDDEN', message: `forbidden (403${codeText(parsed.code)})${serviceSays}`, hint: hints.forbidden });
    case 429:
      return rateLimited(response, init, parsed, context);
    default: {
      const Class = status >= 500 ? ServerError : ApiError;
      const attempts = response.attempts > 1 ? ` after ${response.attempts} attempts` : '';
      let hint = status >= 500 ? 'the service is having trouble; try again later' : status === 404 ? 'check baseUrl' : undefined;
      let asked = '';
      let maxWaitMs: number | undefined;
      if (status >= 500 && response.retryAfterMs !== undefined) {
        hint = `the service is having trouble; try again after ${tryAgainAt(response.retryAfterMs, context)}`;
        maxWaitMs = pastBudget(response, context);
        if (maxWaitMs !== undefined) asked = `; ${asksLonger(response.retryAfterMs, maxWaitMs)}`;
      }
      return new Class({ ...init, code: parsed.code ?? `HTTP_${status}`, message: `${where} failed with ${describeStatus(status)}${attempts}${serviceSays}${asked}`, hint, maxWaitMs });
    }
  }
}

function rateLimited(response: HttpResponse, init: Omit<ApiErrorInit, 'code' | 'message'>, parsed: ErrorBody, context: ErrorContext): RateLimitError {
  const wait = response.retryAfterMs;
  const attempts = `${response.attempts} attempt${response.attempts === 1 ? '' : 's'}`;
  let message = `rate limited (429${codeText(parsed.code)}) after ${attempts}`;
  let hint = context.hints.rateLimited;
  const maxWaitMs = pastBudget(response, context);
  if (wait !== undefined) {
    if (maxWaitMs !== undefined) message += `; ${asksLonger(wait, maxWaitMs)}`;
    hint = `try again after ${tryAgainAt(wait, context)}`;
  }
  return new RateLimitError({ ...init, code: parsed.code ?? 'RATE_LIMITED', message, hint, maxWaitMs });
}

/** maxWaitMs, when retrying stopped because the wait the service asked for is longer than it. */
function pastBudget(response: HttpResponse, context: ErrorContext): number | undefined {
  const { retryAfterMs } = response;
  return response.gaveUpOnBudget && retryAfterMs !== undefined && context.maxWaitMs !== undefined && retryAfterMs > context.maxWaitMs
    ? context.maxWaitMs
    : undefined;
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
  const { method, url, status, operation } = response;
  // Parsed for a message only: once per response is measurable at 100 batches.
  const where = () => `${method} ${displayUrl(url)}`;
  const type = response.headers['content-type'] ?? '';
  if (response.text.trim() === '') {
    throw new ResponseError(`${where()} returned ${status} with an empty body; expected ${what}`, { method, url, status, operation, problem: 'empty', hint: hintForUnusable });
  }
  if (/^\s*</.test(response.text) || /text\/html/i.test(type)) {
    throw new ResponseError(`${where()} returned an HTML page (${stripControl(type).slice(0, 100) || 'no content type'}) instead of ${what}`, {
      method, url, status, operation, problem: 'html', hint: 'a proxy or the wrong server answered: check baseUrl, and the proxy of the dispatcher if it has one',
    });
  }
  try {
    return parseJsonExact(response.text);
  } catch (error) {
    throw new ResponseError(`${where()} returned a body that is not valid JSON (${(error as Error).message}); expected ${what}`, {
      method, url, status, operation, problem: 'not-json', cause: error, hint: hintForUnusable,
    });
  }
}

const hintForUnusable = 'the response may have been cut off or altered on the way; try again, and check baseUrl';
