// The two credential operations: POST /auth/cli-login (API key + organization) and
// POST /v1/auth/token (OAuth 2.0 client credentials). Both return a bearer token.
import { checkCredentials, invalid } from './check-options.js';
import { callEndpoint, endpoint, type EndpointHints } from './endpoint.js';
import { ResponseError } from './errors.js';
import { JsonNumber } from './json.js';
import type { ClientOptions } from './options.js';
import type { Transport } from './transport.js';
import { displayUrl } from './response.js';
import { API_KEY_PATTERN } from '../shared/patterns.js';
import { MAX_EXPIRES_IN_SECONDS } from '../shared/limits.js';
import { BEARER_TOKEN_PATTERN } from '../shared/patterns.js';
import { printable, redactSecrets } from '../shared/text.js';
import type { ClientCredentialsInput, TokenResponse } from './types.js';

/** Client.cliLogin's input. */
export interface CliLoginInput {
  /** `<client_id>.<client_secret>`. */
  apiKey: string;
  /** `org_<id>`. */
  organizationId: string;
}

/** Client.cliLogin. */
export async function cliLogin(options: ClientOptions & Transport, input: CliLoginInput): Promise<TokenResponse> {
  const operation = 'cliLogin';
  if (typeof input?.apiKey !== 'string' || !API_KEY_PATTERN.test(input.apiKey)) {
    throw invalid('apiKey must have the form <client_id>.<client_secret>', {
      option: 'apiKey', operation, expected: 'the form <client_id>.<client_secret>', hint: 'copy the whole key, both parts joined by a dot',
    });
  }
  if (input.organizationId === undefined) throw invalid('cliLogin needs an organizationId', { option: 'organizationId', operation });
  checkCredentials(undefined, input.organizationId, operation);
  const { apiKey, organizationId } = input;
  // The key and, on its own, its secret part (a server might echo either).
  const secrets = [apiKey, apiKey.slice(apiKey.indexOf('.') + 1)];
  return postForToken(options, operation, endpoint(options.baseUrl, '/auth/cli-login'), { api_key: apiKey, organization_id: organizationId }, secrets, {
    invalid: 'check the apiKey and the organizationId',
    unauthorized: 'the service refused these credentials: check the apiKey and the organizationId',
    forbidden: `the API key may not act for ${organizationId}, or lacks a scope the service requires; check organizationId, or use a key that has them`,
    rateLimited: 'wait a minute before asking for another token',
  });
}

/** Client.clientCredentials. */
export async function clientCredentials(options: ClientOptions & Transport, input: ClientCredentialsInput): Promise<TokenResponse> {
  const operation = 'clientCredentials';
  if (typeof input?.clientId !== 'string' || input.clientId === '' || typeof input.clientSecret !== 'string' || input.clientSecret === '') {
    throw invalid('clientCredentials needs a clientId and a clientSecret, both non-empty strings', {
      option: typeof input?.clientId !== 'string' || input.clientId === '' ? 'clientId' : 'clientSecret', operation, expected: 'a non-empty string',
    });
  }
  if (input.scope !== undefined && typeof input.scope !== 'string') {
    throw invalid('clientCredentials scope must be a string of space-separated scopes, e.g. "market.read"', { option: 'scope', operation, expected: 'a string of space-separated scopes' });
  }
  const { clientId, clientSecret, scope } = input;
  return postForToken(options, operation, endpoint(options.baseUrl, '/v1/auth/token'), {
    client_id: clientId, client_secret: clientSecret, grant_type: 'client_credentials', ...(scope === undefined ? {} : { scope }),
  }, [clientSecret], {
    invalid: 'check the clientId, the clientSecret and the scope',
    unauthorized: 'the service refused these credentials: check the clientId and the clientSecret',
    forbidden: 'the client may not have the scope asked for; check the scope, or leave it out for all of the client\'s scopes',
    rateLimited: 'wait a minute before asking for another token',
  });
}

async function postForToken(
  transport: Transport, operation: string, url: URL, body: Record<string, string>, secrets: string[], hints: EndpointHints,
): Promise<TokenResponse> {
  const { value } = await callEndpoint(transport, {
    method: 'POST', url, operation, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), idempotent: false,
    expected: 'a token response',
    read: (json, response) => parseTokenResponse(json, response),
    secrets,
    hints,
  });
  return value;
}

/** RFC 6749 §5.1 `access_token`; also tolerated: `token`, and either inside a `data` wrapper. */
function parseTokenResponse(json: unknown, where: { method: string; url: string; status: number; operation: string }): TokenResponse {
  const record = unwrap(json);
  const accessToken = text(record?.access_token) ?? text(record?.token);
  // Nothing of the token it just sent may appear in a message.
  const fail = (what: string, hint = 'check that baseUrl points at the Market Data Service', problem: 'unexpected' | 'expired-token' = 'unexpected') =>
    new ResponseError(`${where.method} ${displayUrl(where.url)} returned ${redactSecrets(what, [accessToken])}`, {
      method: where.method, url: where.url, status: where.status, operation: where.operation, problem, hint,
    });
  if (record === undefined) throw fail('a body that is not a JSON object; expected a token response');
  if (accessToken === undefined) throw fail('no access_token in its response');
  // A bearer token is visible ASCII (RFC 6750 §2.1); anything else would break the header, or a terminal.
  if (!BEARER_TOKEN_PATTERN.test(accessToken)) throw fail('an access_token with characters a bearer token cannot have');
  const tokenType = text(record.token_type) ?? 'Bearer';
  if (tokenType.toLowerCase() !== 'bearer') throw fail(`a token of type ${printable(tokenType, { max: 40, quote: true })}; only Bearer tokens are supported`);
  const expiresIn = readExpiresIn(record.expires_in, fail);
  return {
    accessToken,
    tokenType: 'Bearer',
    expiresIn,
    scope: typeof record.scope === 'string' ? record.scope : undefined,
    organizationId: text(record.organization_id),
  };
}

/** expires_in as RFC 6749 §5.1 has it, a number of seconds (a numeric string is tolerated); not 0. */
function readExpiresIn(value: unknown, fail: (what: string, hint?: string, problem?: 'expired-token') => ResponseError): number | undefined {
  if (value === undefined || value === null) return undefined;
  const text = value instanceof JsonNumber ? value.source : typeof value === 'string' ? value.trim() : undefined;
  const seconds = text !== undefined && /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/.test(text) ? Number(text) : Number.NaN;
  if (Number.isNaN(seconds)) throw fail('an expires_in that is not a number of seconds');
  if (seconds <= 0) {
    throw fail(`expires_in ${text?.slice(0, 40)}: the service issued a token that has already expired`,
      'try again; if it persists, the service is at fault: report it', 'expired-token');
  }
  return Math.min(seconds, MAX_EXPIRES_IN_SECONDS);
}

function unwrap(json: unknown): Record<string, unknown> | undefined {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return undefined;
  const record = json as Record<string, unknown>;
  const data = record.data;
  if (record.access_token === undefined && record.token === undefined && data !== null && typeof data === 'object' && !Array.isArray(data)) {
    return data as Record<string, unknown>;
  }
  return record;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
