// Error classes of the client library. Each message reads on its own: what failed, where (method and
// URL, never a secret) and, in `hint`, the next step. Each also carries the facts behind its words
// (the option refused, the operation, the wait asked for, the limit the service stated), so that a
// program, and the CLI, can act on them or word them its own way without reading the sentences.
// The CLI maps these classes to exit codes in one place (src/cli/errors/exit-codes.ts).

import { AbortError, MktError, type ErrorDetails } from '../shared/errors.js';

export { AbortError, MktError };

/**
 * The codes of NetworkError: Node's and undici's own (`ECONNREFUSED` for a refused connection,
 * `ENOTFOUND` for a name that does not resolve, a TLS code for a certificate), `TIMEOUT` for an
 * attempt past timeoutMs, `PROXY` for a proxy's refusal, and `NETWORK` only when the failure had no
 * code at all. Another code Node gives passes through as it is.
 */
export type NetworkErrorCode =
  | 'ECONNREFUSED' | 'ENOTFOUND' | 'EAI_AGAIN' | 'ECONNRESET' | 'UND_ERR_SOCKET' | 'EPIPE' | 'ECONNABORTED'
  | 'UND_ERR_CONNECT_TIMEOUT' | 'DEPTH_ZERO_SELF_SIGNED_CERT' | 'SELF_SIGNED_CERT_IN_CHAIN'
  | 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' | 'UNABLE_TO_GET_ISSUER_CERT' | 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY'
  | 'CERT_HAS_EXPIRED' | 'ERR_TLS_CERT_ALTNAME_INVALID' | 'EPROTO' | 'ERR_SSL_WRONG_VERSION_NUMBER'
  | 'TIMEOUT' | 'PROXY' | 'NETWORK' | (string & {});

/**
 * Every `code` the library's errors carry. An ApiError has the service's own code when its body
 * gives one (`RATE_LIMITED`, `UNAUTHORIZED`, or any other it invents), else the one for its status.
 */
export type MktErrorCode =
  /** OptionsError: an option createClient or a call cannot use; plain http to another host. */
  | 'INVALID_OPTIONS' | 'INSECURE_HTTP'
  /** getQuotes without an accessToken or an organizationId. */
  | 'NOT_AUTHENTICATED'
  /** ApiError and its classes, when the service's body names no code. */
  | 'INVALID_REQUEST' | 'UNAUTHORIZED' | 'FORBIDDEN' | 'RATE_LIMITED' | `HTTP_${number}`
  /** ResponseError */
  | 'INVALID_RESPONSE'
  /** AbortError: the caller's signal aborted. */
  | 'INTERRUPTED'
  | NetworkErrorCode;

export interface OptionsErrorInit extends ErrorDetails {
  option: string;
  operation?: string;
  expected?: string;
  min?: number;
  max?: number;
}

/** A value passed to createClient or to one of its calls that cannot be used. */
export class OptionsError extends MktError {
  override name = 'OptionsError';
  /** The option or input refused: `timeoutMs`, `baseUrl`, `signal`, `symbols`, `batchSize`, `apiKey`... */
  option: string;
  /** The call whose input it is (`getQuotes`, `cliLogin`, `clientCredentials`); undefined for createClient's options. */
  operation: string | undefined;
  /** What the value must be, in words: `an integer from 1 to 2147483647`. */
  expected: string | undefined;
  /** The range a number must lie in, where it has one. */
  min: number | undefined;
  max: number | undefined;

  constructor(code: 'INVALID_OPTIONS' | 'INSECURE_HTTP', message: string, init: OptionsErrorInit) {
    super(code, message, init);
    this.option = init.option;
    this.operation = init.operation;
    this.expected = init.expected;
    this.min = init.min;
    this.max = init.max;
  }
}

export interface ApiErrorInit extends ErrorDetails {
  status: number;
  code: string;
  message: string;
  method: string;
  url: string;
  operation: string;
  attempts?: number;
  body?: unknown;
  requestId?: string;
  retryAfterMs?: number;
  oauthError?: string;
  serviceCode?: string;
  serviceMessage?: string;
  maxWaitMs?: number;
}

/** The service answered with an error status. `body` is the parsed error body (or its text). */
export class ApiError extends MktError {
  override name = 'ApiError';
  status: number;
  method: string;
  url: string;
  /** The client method that made the request: `getQuotes`, `cliLogin`, `clientCredentials`. */
  operation: string;
  /** Attempts made, retries included (0 when no request was sent). */
  attempts: number;
  body: unknown;
  requestId: string | undefined;
  /** The code the service's error body gave, if any (`code` falls back to one for the status). */
  serviceCode: string | undefined;
  /** What the service's error body said, control characters removed, at most 500 characters. */
  serviceMessage: string | undefined;
  /**
   * How long to wait before trying again, in milliseconds: from Retry-After (or the rate-limit
   * reset) when the service sent one; at most a year.
   */
  retryAfterMs: number | undefined;
  /**
   * Set when the client stopped because the wait asked for (retryAfterMs) or foreseen (a
   * RateLimitError's plan) is longer than maxWaitMs allows: the maxWaitMs it had.
   */
  maxWaitMs: number | undefined;
  /** The OAuth 2.0 error (RFC 6749 §5.2) of a token endpoint's refusal, e.g. `invalid_client`. */
  oauthError: string | undefined;

  constructor(init: ApiErrorInit) {
    super(init.code, init.message, init);
    this.status = init.status;
    this.method = init.method;
    this.url = init.url;
    this.operation = init.operation;
    this.attempts = init.attempts ?? (init.status === 0 ? 0 : 1);
    this.body = init.body;
    this.requestId = init.requestId;
    this.serviceCode = init.serviceCode;
    this.serviceMessage = init.serviceMessage;
    this.retryAfterMs = init.retryAfterMs;
    this.maxWaitMs = init.maxWaitMs;
    this.oauthError = init.oauthError;
  }
}

/** 400: the service rejected the request as malformed. */
export class InvalidRequestError extends ApiError {
  override name = 'InvalidRequestError';
  /**
   * getQuotes: the most symbols the service said one request takes ("at most 10 distinct symbols
   * per request"), when it said so; getQuotes has then already tried smaller batches if it could.
   */
  maxSymbols: number | undefined;

  constructor(init: ApiErrorInit & { maxSymbols?: number }) {
    super(init);
    this.maxSymbols = init.maxSymbols;
  }
}

/** 401, or no usable credentials at all: missing, invalid or expired. */
export class AuthError extends ApiError {
  override name = 'AuthError';
}

/** 403: authenticated, but without the organization or the scope. */
export class ForbiddenError extends ApiError {
  override name = 'ForbiddenError';
}

/**
 * What the client foresaw from the service's rate-limit headers: sending `requests` requests at
 * `limit` per `windowMs` means waiting `waitMs` in all, more than `maxWaitMs` allowed.
 */
export interface RateLimitPlan {
  /** The requests of the call (one per batch of symbols). */
  requests: number;
  /** Requests allowed per window. */
  limit: number;
  /**
   * The window's length, from RateLimit-Policy; without one, the longest time to a reset the
   * service announced (the window is at least that long).
   */
  windowMs: number;
  /** The waiting the call would need from now, for the rate limit alone. */
  waitMs: number;
  maxWaitMs: number;
  /** Requests the window still allowed when the client stopped. */
  remaining: number;
  /** Waiting already spent by the call: a maxWaitMs of waitMs plus this would have done. */
  spentMs: number;
}

/**
 * 429 after the retries the caller allowed (status 429), or a call the client did not start because
 * the rate limit announced would keep it waiting longer than maxWaitMs (status 0, `plan` set, no
 * request sent for it).
 */
export class RateLimitError extends ApiError {
  override name = 'RateLimitError';
  /** Set when the client foresaw the failure, before the requests that would have been refused. */
  plan: RateLimitPlan | undefined;

  constructor(init: ApiErrorInit & { plan?: RateLimitPlan }) {
    super(init);
    this.plan = init.plan;
  }
}

/** 5xx, after the retries for those that are retried. */
export class ServerError extends ApiError {
  override name = 'ServerError';
}

export interface NetworkErrorInit extends ErrorDetails {
  code?: string;
  method: string;
  url: string;
  operation: string;
  attempts?: number;
  proxyStatus?: number;
}

/** The request did not complete: refused, reset, DNS, TLS, timeout. */
export class NetworkError extends MktError {
  override name = 'NetworkError';
  declare code: NetworkErrorCode;
  method: string;
  url: string;
  /** The client method that made the request. */
  operation: string;
  /** Attempts made, retries included. */
  attempts: number;
  /** The status a proxy refused the connection with (407: it wants credentials), when one did. */
  proxyStatus: number | undefined;

  constructor(message: string, init: NetworkErrorInit) {
    super(init.code ?? 'NETWORK', message, init);
    this.method = init.method;
    this.url = init.url;
    this.operation = init.operation;
    this.attempts = init.attempts ?? 1;
    this.proxyStatus = init.proxyStatus;
  }
}

/** An attempt that did not complete within timeoutMs (not retried). */
export class TimeoutError extends NetworkError {
  override name = 'TimeoutError';
  /** The deadline it had. */
  timeoutMs: number;

  constructor(message: string, init: NetworkErrorInit & { timeoutMs: number }) {
    super(message, init);
    this.timeoutMs = init.timeoutMs;
  }
}

/**
 * Why a response could not be used: larger than maxResponseBytes, a redirect, an empty body, an
 * HTML page, a body that is not JSON, JSON that is not what the operation returns, or a token that
 * had already expired when it was issued.
 */
export type ResponseProblem = 'too-large' | 'redirect' | 'empty' | 'html' | 'not-json' | 'unexpected' | 'expired-token';

export interface ResponseErrorInit extends ErrorDetails {
  method: string;
  url: string;
  status: number;
  operation: string;
  problem: ResponseProblem;
  maxResponseBytes?: number;
  location?: string;
}

/** A response the client cannot use: HTML instead of JSON, missing fields, a cut-off body. */
export class ResponseError extends MktError {
  override name = 'ResponseError';
  method: string;
  url: string;
  status: number;
  /** The client method that made the request. */
  operation: string;
  problem: ResponseProblem;
  /** For `too-large`: the limit the response passed. */
  maxResponseBytes: number | undefined;
  /** For `redirect`: where the service redirected to (origin and path). */
  location: string | undefined;

  constructor(message: string, init: ResponseErrorInit) {
    super('INVALID_RESPONSE', message, init);
    this.method = init.method;
    this.url = init.url;
    this.status = init.status;
    this.operation = init.operation;
    this.problem = init.problem;
    this.maxResponseBytes = init.maxResponseBytes;
    this.location = init.location;
  }
}

