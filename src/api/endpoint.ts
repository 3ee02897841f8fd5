// The one skeleton every operation of the service goes through: send (pacing, retries, deadlines,
// size cap), turn an error status into its error class, refuse HTML and bodies that are not JSON,
// parse with exact numbers, and hand the value to the operation's validator. Every secret the call
// holds is scrubbed by value from its debug lines and its errors, whatever the server echoed back.
// A new endpoint is its URL (endpoint()), its headers and body, its secrets, and that validator.
import { checkCredentials } from './client-options.js';
import { AuthError } from './errors.js';
import { readJson, errorFromResponse, type ErrorContext } from './response.js';
import { scrubError } from './redact.js';
import { sendRequest } from './request.js';
import type { HttpRequest, HttpResponse, TransportOptions } from './transport.js';
import { redactSecrets, stripControl } from '../shared/text.js';
import type { RateLimitInfo } from './types.js';

/** The request (method, URL, headers, body, whether it may be retried, its pacer), and: */
export interface EndpointCall<T> extends HttpRequest {
  /** What a 2xx body should hold, for messages: "a token response". */
  expected: string;
  /** Checks the parsed body (numbers as JsonNumber) and makes the result. */
  read(json: unknown, response: HttpResponse): T;
  /** The token, API key or client secret sent: never shown, whatever the server echoes. */
  secrets: readonly string[];
  /** What an error message may name: the organization, say. */
  context?: ErrorContext;
}

export interface EndpointResult<T> {
  value: T;
  attempts: number;
  rateLimit: RateLimitInfo | undefined;
}

export async function callEndpoint<T>(http: TransportOptions, call: EndpointCall<T>): Promise<EndpointResult<T>> {
  const { secrets } = call;
  const { onDebug } = http;
  const options = onDebug === undefined ? http : { ...http, onDebug: (line: string) => onDebug(redactSecrets(stripControl(line), secrets)) };
  try {
    const response = await sendRequest(options, call);
    if (response.status < 200 || response.status >= 300) {
      const scrubbed = { ...response, text: redactSecrets(response.text, secrets) };
      throw errorFromResponse(scrubbed, { now: http.now, maxWaitMs: http.waitBudget?.maxMs ?? http.maxWaitMs, ...call.context });
    }
    const json = readJson(response, call.expected);
    return { value: call.read(json, response), attempts: response.attempts, rateLimit: response.rateLimit };
  } catch (error) {
    throw scrubError(error, secrets);
  }
}

/** The base URL joined with an absolute path, keeping any path prefix of the base. */
export function endpoint(baseUrl: string, path: string): URL {
  const base = new URL(baseUrl);
  const prefix = base.pathname.replace(/\/+$/, '');
  return new URL(`${base.origin}${prefix}${path}`);
}

/** What every operation of one client shares: where it sends, how, and the token and organization given to createClient. */
export interface ClientContext {
  baseUrl: string;
  http: TransportOptions;
  accessToken?: string;
  organizationId?: string;
}

/**
 * The token and organization an authenticated operation sends: the call's own, else createClient's.
 * Neither: an AuthError (status 0, NOT_AUTHENTICATED) before any request; unusable: an OptionsError.
 */
export function requireBearer(
  context: ClientContext, input: { accessToken?: string; organizationId?: string } | undefined, operation: string, method: 'GET' | 'POST',
): { accessToken: string; organizationId: string } {
  const accessToken = input?.accessToken ?? context.accessToken;
  const organizationId = input?.organizationId ?? context.organizationId;
  if (!accessToken || !organizationId) {
    throw new AuthError({
      status: 0, code: 'NOT_AUTHENTICATED', method, url: context.baseUrl,
      message: `${operation} needs ${accessToken ? 'an organizationId' : 'an accessToken'}`,
      hint: `pass it to createClient or to ${operation}`,
    });
  }
  checkCredentials(accessToken, organizationId);
  return { accessToken, organizationId };
}
