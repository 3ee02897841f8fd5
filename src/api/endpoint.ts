// The one skeleton every operation of the service goes through: send (pacing, retries, deadlines,
// size cap, hooks), turn an error status into its error class, refuse HTML and bodies that are not
// JSON, parse with exact numbers, and hand the value to the operation's validator. An operation
// with a bearer token has its 401 answered once, by a new token from the client's token source.
// Every secret the call holds is scrubbed by value from its debug lines and its errors, whatever
// the server echoed back. A new endpoint is its URL (endpoint()), its headers and body, its hints,
// its secrets, and that validator: nothing here knows any endpoint's path.
import type { Bearer } from './bearer.js';
import { AuthError } from './errors.js';
import { readJson, errorFromResponse, type EndpointHints } from './response.js';
import { scrubError } from './redact.js';
import { sendRequest } from './request.js';
import type { HttpRequest, HttpResponse, Transport } from './transport.js';
import { redactSecrets, stripControl } from '../shared/text.js';
import type { RateLimitInfo } from './types.js';

export type { EndpointHints };

/** The request (method, URL, headers, body, whether it may be retried, its pacer), and: */
export interface EndpointCall<T> extends HttpRequest {
  /** What a 2xx body should hold, for messages: "a token response". */
  expected: string;
  /** Checks the parsed body (numbers as JsonNumber) and makes the result. */
  read(json: unknown, response: HttpResponse): T;
  /**
   * The token, API key or client secret sent: never shown, whatever the server echoes. A list the
   * call's bearer adds to as a token source hands out new tokens.
   */
  secrets: readonly string[];
  /** What its errors' hints say: the endpoint's own words, its scope, its inputs. */
  hints: EndpointHints;
  /** For an operation that sends a bearer token: the Authorization and X-Organization-Id of each send. */
  bearer?: Bearer;
}

export interface EndpointResult<T> {
  value: T;
  attempts: number;
  rateLimit: RateLimitInfo | undefined;
}

export async function callEndpoint<T>(transport: Transport, call: EndpointCall<T>): Promise<EndpointResult<T>> {
  const { secrets, bearer } = call;
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

async function sendOnce<T>(options: Transport, call: EndpointCall<T>): Promise<EndpointResult<T>> {
  const response = await sendRequest(options, call);
  if (response.status < 200 || response.status >= 300) {
    const scrubbed = { ...response, text: redactSecrets(response.text, call.secrets) };
    throw errorFromResponse(scrubbed, { now: options.now, maxWaitMs: options.waitBudget?.maxMs ?? options.maxWaitMs, hints: call.hints });
  }
  const json = readJson(response, call.expected);
  return { value: call.read(json, response), attempts: response.attempts, rateLimit: response.rateLimit };
}

/** The base URL joined with an absolute path, keeping any path prefix of the base. */
export function endpoint(baseUrl: string, path: string): URL {
  const base = new URL(baseUrl);
  const prefix = base.pathname.replace(/\/+$/, '');
  return new URL(`${base.origin}${prefix}${path}`);
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
