// One HTTP exchange with the service, with the policy a CLI in CI needs: a deadline per attempt that
// covers connect, headers and body; a cap on the response size; retries that honour Retry-After
// under a total waiting budget; redacted debug lines. Why not undici's RetryHandler: it resumes a
// body cut off mid-way with Range requests (a JSON API answers those with the whole body or not at
// all), clamps a long Retry-After to its maxTimeout and retries early instead of failing at once,
// reads Retry-After against the wall clock, has no total budget, waits on a timer no signal can
// cancel, and hides the attempts inside one dispatch, so a deadline and a size cap could only cover
// all attempts together, never each one (docs/networking.md).
import type { Dispatcher } from 'undici';
import { AbortError, NetworkError, ResponseError, TimeoutError } from './errors.js';
import { toNetworkError } from './network-error.js';
import { parseRetryAfter, readRateLimit } from './rate-limit-headers.js';
import { redactBody, redactHeaders } from './redact.js';
import { formatDuration } from '../shared/duration.js';
import {
  BACKOFF_BASE_MS, BACKOFF_CAP_MS, DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_MAX_WAIT_MS, DEFAULT_RETRIES, DEFAULT_TIMEOUT_MS, MAX_TIMER_MS,
} from '../shared/limits.js';
import { formatBytes } from '../shared/read-limited.js';
import { sleep } from '../shared/sleep.js';
import { runAfterResponse, runBeforeRequest } from './hooks.js';
import { describeStatus, statusLine } from './status-text.js';
import type { HttpRequest, HttpResponse, Transport } from './transport.js';
import { globalDispatcher } from './undici.js';
import { createWaitBudget } from './wait-budget.js';

const RETRY_STATUSES = new Set([429, 502, 503, 504]);
// Failures where the request may have reached the server are retried only for idempotent requests.
const RETRY_CODES_ANY = new Set(['ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE', 'ECONNABORTED']);
// Failures before anything was sent: safe to retry any request.
const RETRY_CODES_UNSENT = new Set(['ECONNREFUSED', 'EAI_AGAIN']);

export async function sendRequest(options: Transport, request: HttpRequest): Promise<HttpResponse> {
  const retries = Math.max(0, options.retries ?? DEFAULT_RETRIES);
  const now = options.now ?? Date.now;
  const budget = options.waitBudget ?? createWaitBudget(options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS, now);
  const random = options.random ?? Math.random;
  const wait = options.sleep ?? sleep;
  const dispatcher = options.dispatcher ?? (await globalDispatcher());
  const { pacer } = request;

  for (let attempt = 1; ; attempt++) {
    await pacer?.acquire();
    let outcome: HttpResponse | NetworkError;
    try {
      outcome = await attemptOnce(dispatcher, options, request, attempt, retries);
    } catch (error) {
      pacer?.release();
      if (!(error instanceof NetworkError) || error instanceof TimeoutError) throw error;
      outcome = error;
    }
    let retryAfterMs: number | undefined;
    if (!(outcome instanceof NetworkError)) {
      const at = now();
      outcome.rateLimit = readRateLimit(outcome.headers, at);
      retryAfterMs = parseRetryAfter(outcome.headers['retry-after'], at);
      // A 429 without Retry-After that says when the spent window resets asks for that long.
      const { remaining, resetSeconds } = outcome.rateLimit ?? {};
      if (outcome.status === 429 && retryAfterMs === undefined && remaining === 0 && resetSeconds !== undefined) retryAfterMs = resetSeconds * 1000;
      pacer?.release({ status: outcome.status, rateLimit: outcome.rateLimit, retryAfterMs });
    }
    if (!isRetryable(outcome, request.idempotent) || attempt > retries) return finish(outcome, attempt, retryAfterMs);
    const backoff = Math.round(random() * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1)));
    const waitMs = retryAfterMs ?? backoff;
    if (!budget.fits(waitMs)) return finish(outcome, attempt, retryAfterMs, true);
    // Nor is a wait worth starting when the rest of the call could not follow it within the budget.
    pacer?.check();
    budget.reserve(waitMs);

    const reason = outcome instanceof NetworkError ? shortReason(outcome.code) : describeStatus(outcome.status);
    const { done, total } = options.progress ?? { done: 0, total: 1 };
    options.onWait?.({ kind: 'retry', waitMs, reason, done, total, attempt: attempt + 1, retries });
    options.onDebug?.(`* waiting ${waitMs} ms before attempt ${attempt + 1} (${reason})`);
    try {
      await wait(waitMs, options.signal);
    } catch {
      throw new AbortError();
    }
  }
}

/**
 * Retry policy. GET: 429, 502, 503, 504 and connection failures. Anything else (the auth POSTs):
 * only failures where nothing reached the server, because a token request that did arrive may have
 * been honoured, and a service that answers 5xx or 429 to it has answered.
 */
export function isRetryable(outcome: { status: number } | { code: string }, idempotent: boolean): boolean {
  if ('code' in outcome) return RETRY_CODES_UNSENT.has(outcome.code) || (idempotent && RETRY_CODES_ANY.has(outcome.code));
  return idempotent && RETRY_STATUSES.has(outcome.status);
}

function finish(outcome: HttpResponse | NetworkError, attempts: number, retryAfterMs?: number, gaveUpOnBudget = false): HttpResponse {
  if (outcome instanceof NetworkError) {
    if (attempts === 1) throw outcome;
    // Same class, code, hint and cause; the message says that retrying did not help.
    throw new NetworkError(`${outcome.message}, after ${attempts} attempts`, {
      code: outcome.code, method: outcome.method, url: outcome.url, operation: outcome.operation, attempts, proxyStatus: outcome.proxyStatus,
      hint: outcome.hint, cause: outcome.cause,
    });
  }
  return { ...outcome, retryAfterMs, gaveUpOnBudget };
}

function shortReason(code: string): string {
  if (RETRY_CODES_UNSENT.has(code)) return code === 'ECONNREFUSED' ? 'connection refused' : 'temporary DNS failure';
  return 'connection reset';
}

async function attemptOnce(
  dispatcher: Dispatcher, options: Transport, request: HttpRequest, attempt: number, retries: number,
): Promise<HttpResponse> {
  const { method, url, operation } = request;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const debug = options.onDebug;
  const parent = options.signal;
  if (parent?.aborted) throw new AbortError();
  // Date.now, not performance.now: the performance global loads perf_hooks on first use.
  const started = Date.now();
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, Math.min(timeoutMs, MAX_TIMER_MS));
  const onParentAbort = () => controller.abort();
  parent?.addEventListener('abort', onParentAbort, { once: true });

  // What went wrong on the way, as the caller's abort, the deadline, or a NetworkError.
  const failed = (error: unknown): Error => {
    if (parent?.aborted) return new AbortError('interrupted', { cause: error });
    if (timedOut) {
      debug?.(`< timed out after ${timeoutMs} ms`);
      return new TimeoutError(`${method} ${url.origin}${url.pathname} did not complete within ${formatDuration(timeoutMs)}`, {
        code: 'TIMEOUT', method, url: url.href, operation, timeoutMs, cause: error,
        hint: 'the service or the network is slow or unreachable; raise timeoutMs, or try again',
      });
    }
    const networkError = toNetworkError(error, method, url, operation);
    debug?.(`< ${networkError.message}`);
    return networkError;
  };

  try {
    const given: Record<string, string> = { accept: 'application/json', ...request.headers };
    if (options.userAgent) given['user-agent'] = options.userAgent;
    // The hooks see (and may change) what is sent, before the debug lines show it. What a hook
    // throws fails the call as it is, as does the client's own refusal of a body too large.
    const { headers, request: hooked } = await runBeforeRequest(options.hooks, { method, url, operation, attempt }, given);
    if (debug) {
      debug(`* ${method} ${url.href} (attempt ${attempt} of ${request.idempotent ? retries + 1 : 'at most ' + (retries + 1)})`);
      for (const [name, value] of Object.entries(redactHeaders(headers))) debug(`> ${name}: ${value}`);
      if (request.body !== undefined) debug(`> ${redactBody(request.body, headers['content-type'])}`);
    }
    let response: Dispatcher.ResponseData;
    try {
      // request(), the API every undici dispatcher has, of any version: a caller's own, or the global
      // one that Node's fetch may have installed from Node's own copy of undici.
      response = await untilAborted(dispatcher.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method,
        headers,
        body: request.body,
        signal: controller.signal,
      }), controller.signal);
    } catch (error) {
      throw failed(error);
    }
    const responseHeaders = flattenHeaders(response.headers);
    const tooLargeError = () => tooLarge(request, maxBytes, response.statusCode);
    try {
      await runAfterResponse(options.hooks, hooked, { status: response.statusCode, headers: responseHeaders });
      const declared = Number(responseHeaders['content-length']);
      if (Number.isFinite(declared) && declared > maxBytes) throw tooLargeError();
    } catch (error) {
      discard(response.body);
      throw error;
    }
    let body: { text: string; size: number };
    try {
      body = await readBody(response.body, maxBytes, tooLargeError);
    } catch (error) {
      throw error instanceof ResponseError ? error : failed(error);
    }
    const { text, size } = body;
    if (debug) {
      debug(`< ${statusLine(response.statusCode)} in ${Date.now() - started} ms, ${size} bytes`);
      for (const [name, value] of Object.entries(responseHeaders)) {
        if (/^(x-)?ratelimit-|^retry-after$|^x-request-id$|^content-type$|^location$/.test(name)) debug(`< ${name}: ${value}`);
      }
      if (request.logResponseBody !== false || response.statusCode >= 400) {
        debug(`< ${redactBody(text.slice(0, 4096), responseHeaders['content-type'])}`);
      }
    }
    return {
      status: response.statusCode, headers: responseHeaders, text, method, url: url.href, operation,
      attempts: attempt, rateLimit: undefined, retryAfterMs: undefined, gaveUpOnBudget: false,
    };
  } finally {
    clearTimeout(timer);
    parent?.removeEventListener('abort', onParentAbort);
  }
}

/**
 * A body that will not be read, ended without a word: destroying a stream with no 'error' listener
 * makes the abort it reports an uncaught exception that ends the process, after the caller has long
 * had its error.
 */
function discard(body: NodeJS.ReadableStream & { destroy(): void }): void {
  body.on('error', () => {});
  body.destroy();
}

/**
 * `pending`, or a rejection as soon as `signal` aborts. undici honours a request's signal only once
 * the request is on a connection: while a dispatcher is still connecting (to a proxy that never
 * answers CONNECT, say) the deadline and Ctrl-C would wait for it. What comes later is
 * dropped.
 */
function untilAborted(pending: Promise<Dispatcher.ResponseData>, signal: AbortSignal): Promise<Dispatcher.ResponseData> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      pending.then((late) => discard(late.body), () => {});
      reject(signal.reason);
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    pending.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * The whole body as text, at most maxBytes of it. Through 'data' events rather than an async
 * iterator, whose promise per chunk costs more than the rest at 100 requests a run.
 */
function readBody(body: NodeJS.ReadableStream & { destroy(): void }, maxBytes: number, tooLargeError: () => Error): Promise<{ text: string; size: number }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    body.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) {
        chunks.push(chunk);
        return;
      }
      body.removeAllListeners('data');
      discard(body);
      reject(tooLargeError());
    });
    body.on('end', () => resolve({ text: Buffer.concat(chunks, size).toString('utf8'), size }));
    body.on('error', reject);
  });
}

function tooLarge(request: HttpRequest, maxBytes: number, status: number): ResponseError {
  const { method, url, operation } = request;
  const where = `${method} ${url.origin}${url.pathname}`;
  const check = 'check that baseUrl points at the Market Data Service';
  return new ResponseError(`the response to ${where} is larger than ${formatBytes(maxBytes)}; refusing to read it`, {
    method, url: url.href, status, operation, problem: 'too-large', maxResponseBytes: maxBytes,
    hint: request.tooLargeHint === undefined ? check : `${request.tooLargeHint}, or ${check}`,
  });
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

