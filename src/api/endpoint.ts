// The one skeleton every operation of the service goes through: send (retries, deadlines, size cap),
// read the rate-limit headers, turn an error status into its error class, refuse HTML and bodies
// that are not JSON, parse with exact numbers, and hand the value to the operation's validator.
// A new endpoint is its URL, its headers and body, and that validator.
import { readJson, readRateLimit, errorFromResponse, type ErrorContext } from './response.js';
import { sendRequest, type HttpResponse, type TransportOptions } from './request.js';
import type { RateLimitInfo } from './types.js';

export interface EndpointCall<T> {
  method: 'GET' | 'POST';
  url: URL;
  headers: Record<string, string>;
  body?: string;
  /** Retried after 429, 5xx and resets (GET); otherwise only when nothing reached the service. */
  idempotent: boolean;
  /** What a 2xx body should hold, for messages: "a token response". */
  expected: string;
  /** Checks the parsed body (numbers as JsonNumber) and makes the result. */
  read(json: unknown, response: HttpResponse): T;
  /** What an error message may name: the organization, say. */
  context?: ErrorContext;
  /** Paces the call within the service's rate limit (src/api/rate-budget.ts). */
  pacer?: Pacer;
}

export interface Pacer {
  /** Resolves when the request may be sent. */
  acquire(): Promise<void>;
  /** The request is no longer in flight. */
  release(): void;
  /** What the response said of the rate limit. */
  update(info: RateLimitInfo | undefined): void;
}

export interface EndpointResult<T> {
  value: T;
  attempts: number;
  rateLimit: RateLimitInfo | undefined;
}

export async function callEndpoint<T>(http: TransportOptions, call: EndpointCall<T>): Promise<EndpointResult<T>> {
  await call.pacer?.acquire();
  let response: HttpResponse;
  try {
    response = await sendRequest(http, {
      method: call.method, url: call.url, headers: call.headers, body: call.body, idempotent: call.idempotent,
    });
  } finally {
    call.pacer?.release();
  }
  const rateLimit = readRateLimit(response.headers, (http.now ?? Date.now)());
  call.pacer?.update(rateLimit);
  if (response.status < 200 || response.status >= 300) throw errorFromResponse(response, { now: http.now, maxWaitMs: http.maxWaitMs, ...call.context });
  const json = readJson(response, call.expected);
  return { value: call.read(json, response), attempts: response.attempts, rateLimit };
}
