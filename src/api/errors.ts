// Error classes of the client library. Each message reads on its own: what failed, where (method and
// URL, never a secret) and, in `hint`, the next step. The CLI maps these classes to exit codes in
// one place (src/cli/exit-codes.ts).

import { AbortError, MktError, type ErrorDetails } from '../shared/errors.js';

export { AbortError, MktError, type ErrorDetails };

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

/** A value passed to createClient or to one of its calls that cannot be used. */
export class OptionsError extends MktError {
  override name = 'OptionsError';

  constructor(code: 'INVALID_OPTIONS' | 'INSECURE_HTTP', message: string, details: ErrorDetails = {}) {
    super(code, message, details);
  }
}

export interface ApiErrorInit extends ErrorDetails {
  status: number;
  code: string;
  message: string;
  method: string;
  url: string;
  body?: unknown;
  requestId?: string;
  retryAfterMs?: number;
  oauthError?: string;
}

/** The service answered with an error status. `body` is the parsed error body (or its text). */
export class ApiError extends MktError {
  override name = 'ApiError';
  status: number;
  method: string;
  url: string;
  body: unknown;
  requestId: string | undefined;
  /**
   * How long to wait before trying again, in milliseconds: from Retry-After (or the rate-limit
   * reset) when the service sent one; at most a year.
   */
  retryAfterMs: number | undefined;
  /** The OAuth 2.0 error (RFC 6749 §5.2) of a token endpoint's refusal, e.g. `invalid_client`. */
  oauthError: string | undefined;

  constructor(init: ApiErrorInit) {
    super(init.code, init.message, init);
    this.status = init.status;
    this.method = init.method;
    this.url = init.url;
    this.body = init.body;
    this.requestId = init.requestId;
    this.retryAfterMs = init.retryAfterMs;
    this.oauthError = init.oauthError;
  }
}

/** 400: the service rejected the request as malformed. */
export class InvalidRequestError extends ApiError {
  override name = 'InvalidRequestError';
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
}

/** The request did not complete: refused, reset, DNS, TLS, timeout. */
export class NetworkError extends MktError {
  override name = 'NetworkError';
  declare code: NetworkErrorCode;
  method: string;
  url: string;

  constructor(message: string, init: NetworkErrorInit) {
    super(init.code ?? 'NETWORK', message, init);
    this.method = init.method;
    this.url = init.url;
  }
}

export class TimeoutError extends NetworkError {
  override name = 'TimeoutError';
}

/** A response the client cannot use: HTML instead of JSON, missing fields, a cut-off body. */
export class ResponseError extends MktError {
  override name = 'ResponseError';
  method: string;
  url: string;
  status: number;

  constructor(message: string, init: { method: string; url: string; status: number } & ErrorDetails) {
    super('INVALID_RESPONSE', message, init);
    this.method = init.method;
    this.url = init.url;
    this.status = init.status;
  }
}

