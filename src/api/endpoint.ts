// The one skeleton every operation of the service goes through: send (pacing, retries, deadlines,
// size cap, hooks), turn an error status into its error class, refuse HTML and bodies that are not
// JSON, parse with exact numbers, and hand the value to the operation's validator. An operation
// with a bearer token has its 401 answered once, by a new token from the client's token source.
// Every secret the call holds is scrubbed by value from its debug lines and its errors, whatever
// the server echoed back. A new endpoint is its URL (endpoint(), with its query), its operation
// name, its bearer (bearer.ts), its hints and that validator (read-items.ts reads `{data: [...]}`);
// a GET with no headers of its own needs nothing else. Nothing here knows any endpoint's path.
import type { Bearer } from './bearer.js';
import { AuthError } from './errors.js';
import { readJson, errorFromResponse, type EndpointHints } from './response.js';
import { scrubError } from './redact.js';
import { sendRequest } from './request.js';
import type { HttpRequest, HttpResponse, Transport } from './transport.js';
import { redactSecrets, stripControl } from '../shared/text.js';
import type { RateLimitInfo } from './types.js';

export type { EndpointHints };

/**
 * The request and how its answer is read. What most endpoints leave out has a default: `method`
 * GET, `headers` none of the endpoint's own, `idempotent` true for a GET (retried on 429, 502, 503,
 * 504 and connection failures), `secrets` the bearer's tokens. A bearer call passes `url`,
 * `operation`, `bearer`, `expected`, `read` and `hints`; a call with a body (auth.ts) passes the
 * method, headers, body and its own secrets too.
 */
export interface EndpointCall<T> extends Omit<HttpRequest, 'method' | 'headers' | 'idempotent'> {
  /** Default GET. */
  method?: HttpRequest['method'];
  /** The endpoint's own headers (a content type); the bearer's are added to them. Default none. */
  headers?: Record<string, string>;
  /** Default: true for a GET, false otherwise. */
  idempotent?: boolean;
  /** What a 2xx body should hold, for messages: "a token response". */
  expected: string;
  /** Checks the parsed body (numbers as JsonNumber) and makes the result. */
  read(json: unknown, response: HttpResponse): T;
  /**
   * The API key or client secret sent: never shown, whatever the server echoes. Default: the
   * bearer's tokens, a list that grows as a token source hands out new ones.
   */
  secrets?: readonly string[];
  /** What its errors' hints say: the endpoint's own words, its scope, its inputs. */
  hints: EndpointHints;
  /** For an operation that sends a bearer token: the Authorization and X-Organization-Id of each send. */
  bearer?: Bearer;
}

/** An EndpointCall with its defaults filled in. */
type SentCall<T> = EndpointCall<T> & HttpRequest & { secrets: readonly string[] };

export interface EndpointResult<T> {
  value: T;
  attempts: number;
  rateLimit: RateLimitInfo | undefined;
}

export async function callEndpoint<T>(transport: Transport, given: EndpointCall<T>): Promise<EndpointResult<T>> {
  const method = given.method ?? 'GET';
  const { bearer } = given;
  const secrets = given.secrets ?? bearer?.secrets ?? [];
  const call: SentCall<T> = { ...given, method, headers: given.headers ?? {}, idempotent: given.idempotent ?? method === 'GET', secrets };
  const { onDebug } = transport;
  const options = onDebug === undefined ? transport : { ...transport, onDebug: (line: string) => onDebug(redactSecrets(stripControl(line), secrets)) };
  let attempts = 0;
  for (let renewed = false; ; renewed = true) {
    const token = bearer?.token;
    const request = bearer === undefined ? call : {
      ...call, headers: { ...call.headers, authorization: `Bearer ${token}`, 'x-organization-id': bearer.organizationId },
    };
    try {
      const result = await sendOnce(options, request);
      return { ...result, attempts: attempts + result.attempts };
    } catch (error) {
      if (renewed || bearer === undefined || token === undefined || !bearer.renewable || !(error instanceof AuthError) || error.status !== 401) {
        throw scrubError(error, secrets);
      }
      attempts += error.attempts;
      options.onDebug?.('* the service refused the token (401); asking the token source for another');
      let again: boolean;
      try {
        again = await bearer.renew(token);
      } catch (failure) {
        throw scrubError(failure, secrets);
      }
      if (!again) throw scrubError(error, secrets);
      options.onDebug?.('* asking once more, with the new token');
    }
  }
}

async function sendOnce<T>(options: Transport, call: SentCall<T>): Promise<EndpointResult<T>> {
  const response = await sendRequest(options, call);
  if (response.status < 200 || response.status >= 300) {
    const scrubbed = { ...response, text: redactSecrets(response.text, call.secrets) };
    throw errorFromResponse(scrubbed, { now: options.now, maxWaitMs: options.waitBudget?.maxMs ?? options.maxWaitMs, hints: call.hints });
  }
  const json = readJson(response, call.expected);
  return { value: call.read(json, response), attempts: response.attempts, rateLimit: response.rateLimit };
}

/** A query's parameters: a list is sent comma-separated, each item percent-encoded; undefined is left out. */
export type Query = Readonly<Record<string, string | readonly string[] | undefined>>;

/** The base URL joined with an absolute path, keeping any path prefix of the base; with `query`, its parameters in order. */
export function endpoint(baseUrl: string, path: string, query?: Query): URL {
  const base = new URL(baseUrl);
  const prefix = base.pathname.replace(/\/+$/, '');
  const url = new URL(`${base.origin}${prefix}${path}`);
  return query === undefined ? url : withQuery(url, query);
}

/** `url` with its query set to `query`'s parameters (endpoint() says how). */
export function withQuery(url: URL, query: Query): URL {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    const text = typeof value === 'string' ? encodeURIComponent(value) : value.map(encodeURIComponent).join(',');
    parts.push(`${encodeURIComponent(name)}=${text}`);
  }
  const next = new URL(url);
  next.search = parts.join('&');
  return next;
}

/**
 * The hints of an operation that sends a bearer token for an organization: `inputs` is what a 400
 * may be about, `scope` the scope it needs (if the service names one), `fewerRequests` how a caller
 * sends fewer.
 */
export function bearerHints(hints: { inputs: string; scope?: string; organizationId: string; fewerRequests?: string }): EndpointHints {
  const { inputs, scope, organizationId, fewerRequests } = hints;
  return {
    invalid: `check ${inputs}`,
    unauthorized: 'the access token is missing, invalid or expired: get a new one (cliLogin or clientCredentials) and pass it as accessToken',
    forbidden: scope === undefined
      ? `the token has no access to ${organizationId}; check organizationId, or get a token from a key that has it`
      : `the token lacks the ${scope} scope or access to ${organizationId}; check organizationId, or get a token from a key that has them`,
    rateLimited: `wait a minute, or send fewer requests${fewerRequests === undefined ? '' : ` (${fewerRequests})`}`,
  };
}
