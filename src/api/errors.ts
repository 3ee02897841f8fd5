// Error classes of the client library. Each message reads on its own: what failed, where (method and
// URL, never a secret) and, in `hint`, the next step. The CLI maps these classes to exit codes in
// one place (src/cli/exit-codes.ts).

import { AbortError, MktError, type ErrorDetails } from '../shared/errors.js';

export { AbortError, MktError, type ErrorDetails };

export interface ApiErrorInit extends ErrorDetails {
  status: number;
  code: string;
  message: string;
  method: string;
  url: string;
  body?: unknown;
  requestId?: string;
  retryAfterMs?: number;
}

/** The service answered with an error status. `body` is the parsed error body (or its text). */
export class ApiError extends MktError {
  override name = 'ApiError';
  status: number;
  method: string;
  url: string;
  body: unknown;
  requestId: string | undefined;
  /** From Retry-After, when the service sent one. */
  retryAfterMs: number | undefined;

  constructor(init: ApiErrorInit) {
    super(init.code, init.message, init);
    this.status = init.status;
    this.method = init.method;
    this.url = init.url;
    this.body = init.body;
    this.requestId = init.requestId;
    this.retryAfterMs = init.retryAfterMs;
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

/** 429 after the retries the caller allowed. */
export class RateLimitError extends ApiError {
  override name = 'RateLimitError';
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

