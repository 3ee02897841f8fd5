// Reading what the service sent back: error statuses to error classes, bodies to JSON, and the
// rate-limit headers. The spec does not show its error envelope, so several shapes are accepted.
import {
  ApiError, AuthError, ForbiddenError, InvalidRequestError, RateLimitError, ResponseError, ServerError,
} from './errors.js';
import { parseJsonExact } from './json.js';
import type { HttpResponse } from './request.js';
import { formatDuration } from '../shared/duration.js';
import { describeStatus } from './status-text.js';
import type { RateLimitInfo } from './types.js';

interface ErrorBody {
  code: string | undefined;
  message: string | undefined;
  requestId: string | undefined;
  body: unknown;
}

/**
 * `{"error": {"code", "message"}}`, `{"code", "message"}`, OAuth's `{"error", "error_description"}`,
 * or plain text.
 */
export function readErrorBody(response: HttpResponse): ErrorBody {
  const requestId = response.headers['x-request-id'];
  let body: unknown;
  try {
    body = JSON.parse(response.text);
  } catch {
    const text = response.text.trim();
    const plain = text !== '' && !/^\s*</.test(text) && text.length <= 500 ? text : undefined;
    return { code: undefined, message: plain, requestId, body: response.text };
  }
  if (body === null || typeof body !== 'object') return { code: undefined, message: undefined, requestId, body };
  const record = body as Record<string, unknown>;
  const nested = record.error;
  const id = stringOr(record.request_id) ?? requestId;
  if (nested !== null && typeof nested === 'object') {
    const inner = nested as Record<string, unknown>;
    return { code: stringOr(inner.code), message: stringOr(inner.message), requestId: id, body };
  }
  if (typeof nested === 'string') {
    // RFC 6749 §5.2 with the service's code beside it (the sandbox's token endpoint): the code wins.
    return { code: stringOr(record.code) ?? nested, message: stringOr(record.error_description) ?? stringOr(record.message), requestId: id, body };
  }
  return { code: stringOr(record.code), message: stringOr(record.message) ?? stringOr(record.detail), requestId: id, body };
}

function stringOr(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export interface ErrorContext {
  /** The organization the request was for, to name it in a 403. */
  organizationId?: string;
  /** The retry budget, to say why retrying stopped. */
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
      method, url, status, hint: 'set the base URL to the address the service really serves',
    });
  }
  const parsed = readErrorBody(response);
  const serviceSays = parsed.message ? `: ${parsed.message}` : '';
  const init = {
    status, method, url, body: parsed.body, requestId: parsed.requestId, retryAfterMs: response.retryAfterMs,
  };
  switch (status) {
    case 400:
      return new InvalidRequestError({ ...init, code: parsed.code ?? 'INVALID_REQUEST', message: `the service rejected the request (400${codeText(parsed.code)})${serviceSays}`,
        hint: 'check the symbols, the venue and the organization id' });
    case 401:
      return new AuthError({ ...init, code: parsed.code ?? 'UNAUTHORIZED', message: `not authenticated (401${codeText(parsed.code)})${serviceSays}`,
        hint: 'the credentials are missing, invalid or expired: run `mkt login` or `mkt token` to get a new token' });
    case 403:
      return new ForbiddenError({ ...init, code: parsed.code ?? 'FORBIDDEN', message: `forbidden (403${codeText(parsed.code)})${serviceSays}`,
        hint: `the token lacks the market.read scope or access to ${context.organizationId ?? 'the organization'}; check --org, or log in with a key that has them` });
    case 429:
      return rateLimited(response, init, parsed, context);
    default: {
      const Class = status >= 500 ? ServerError : ApiError;
      const attempts = response.attempts > 1 ? ` after ${response.attempts} attempts` : '';
      let hint = status >= 500 ? 'the service is having trouble; try again later' : status === 404 ? 'check the base URL' : undefined;
      let asked = '';
      if (status >= 500 && response.retryAfterMs !== undefined) {
        hint = `the service is having trouble; try again after ${tryAgainAt(response.retryAfterMs, context)}`;
        if (response.gaveUpOnBudget && context.maxWaitMs !== undefined && response.retryAfterMs > context.maxWaitMs) asked = `; the service asks to wait ${roundUpSeconds(response.retryAfterMs)}, longer than --max-wait ${formatDuration(context.maxWaitMs)}`;
      }
      return new Class({ ...init, code: parsed.code ?? `HTTP_${status}`, message: `${where} failed with ${describeStatus(status)}${attempts}${serviceSays}${asked}`, hint });
    }
  }
}

function rateLimited(
  response: HttpResponse, init: Omit<ConstructorParameters<typeof ApiError>[0], 'code' | 'message'>, parsed: ErrorBody, context: ErrorContext,
): RateLimitError {
  const wait = response.retryAfterMs;
  const attempts = `${response.attempts} attempt${response.attempts === 1 ? '' : 's'}`;
  let message = `rate limited (429${codeText(parsed.code)}) after ${attempts}`;
  let hint = 'wait a minute, or send fewer requests (a larger --batch-size, a lower --concurrency)';
  if (wait !== undefined) {
    if (response.gaveUpOnBudget && context.maxWaitMs !== undefined && wait > context.maxWaitMs) {
      message += `; the service asks to wait ${roundUpSeconds(wait)}, longer than --max-wait ${formatDuration(context.maxWaitMs)}`;
    }
    hint = `try again after ${tryAgainAt(wait, context)}`;
  }
  return new RateLimitError({ ...init, code: parsed.code ?? 'RATE_LIMITED', message, hint });
}

/** `14:03:07 UTC (in 42s)` */
function tryAgainAt(waitMs: number, context: ErrorContext): string {
  const at = new Date((context.now ?? Date.now)() + waitMs);
  return `${at.toISOString().slice(11, 19)} UTC (in ${roundUpSeconds(waitMs)})`;
}

/** Whole seconds, rounded up, as Retry-After counts them: `in 120s`. */
function roundUpSeconds(ms: number): string {
  return `${Math.ceil(ms / 1000)}s`;
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
  const where = `${method} ${displayUrl(url)}`;
  const type = response.headers['content-type'] ?? '';
  if (response.text.trim() === '') {
    throw new ResponseError(`${where} returned ${status} with an empty body; expected ${what}`, { method, url, status, hint: hintForUnusable });
  }
  if (/^\s*</.test(response.text) || /text\/html/i.test(type)) {
    throw new ResponseError(`${where} returned an HTML page (${type || 'no content type'}) instead of ${what}`, {
      method, url, status, hint: 'a proxy or the wrong server answered: check the base URL and HTTPS_PROXY/NO_PROXY',
    });
  }
  try {
    return parseJsonExact(response.text);
  } catch (error) {
    throw new ResponseError(`${where} returned a body that is not valid JSON (${(error as Error).message}); expected ${what}`, {
      method, url, status, cause: error, hint: hintForUnusable,
    });
  }
}

const hintForUnusable = 'the response may have been cut off or altered on the way; try again, and check the base URL';

/** Past this, a reset is a Unix time in seconds (as in GitHub's X-RateLimit-Reset), not seconds from now. */
const EPOCH_SECONDS = 1_000_000_000;

export function readRateLimit(headers: Record<string, string>, now: number = Date.now()): RateLimitInfo | undefined {
  const pick = (name: string) => {
    const value = headers[`ratelimit-${name}`] ?? headers[`x-ratelimit-${name}`];
    if (value === undefined || !/^\s*\d+\s*$/.test(value)) return undefined;
    return Number(value);
  };
  let resetSeconds = pick('reset');
  if (resetSeconds !== undefined && resetSeconds >= EPOCH_SECONDS) resetSeconds = Math.max(0, Math.ceil(resetSeconds - now / 1000));
  const info = { limit: pick('limit'), remaining: pick('remaining'), resetSeconds };
  if (info.limit === undefined && info.remaining === undefined && info.resetSeconds === undefined) return undefined;
  return info;
}
