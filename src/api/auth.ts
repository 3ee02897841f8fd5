// The two credential operations: POST /auth/cli-login (API key + organization) and
// POST /v1/auth/token (OAuth 2.0 client credentials). Both return a bearer token.
import { callEndpoint } from './endpoint.js';
import { ResponseError } from './errors.js';
import type { TransportOptions } from './request.js';
import { displayUrl } from './response.js';
import type { TokenResponse } from './types.js';

export const API_KEY_PATTERN = /^[^.\s]+\.\S+$/;

export async function cliLogin(http: TransportOptions, baseUrl: string, apiKey: string, organizationId: string): Promise<TokenResponse> {
  return postForToken(http, endpoint(baseUrl, '/auth/cli-login'), { api_key: apiKey, organization_id: organizationId }, organizationId);
}

export async function clientCredentials(http: TransportOptions, baseUrl: string, clientId: string, clientSecret: string): Promise<TokenResponse> {
  return postForToken(http, endpoint(baseUrl, '/v1/auth/token'), {
    client_id: clientId, client_secret: clientSecret, grant_type: 'client_credentials',
  });
}

async function postForToken(http: TransportOptions, url: URL, body: Record<string, string>, organizationId?: string): Promise<TokenResponse> {
  const { value } = await callEndpoint(http, {
    method: 'POST', url, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), idempotent: false,
    expected: 'a token response',
    read: (json, response) => parseTokenResponse(json, response),
    context: { organizationId },
  });
  return value;
}

/** RFC 6749 §5.1 `access_token`; also tolerated: `token`, and either inside a `data` wrapper. */
export function parseTokenResponse(json: unknown, where: { method: string; url: string; status: number }): TokenResponse {
  const record = unwrap(json);
  const accessToken = text(record?.access_token) ?? text(record?.token);
  const fail = (what: string) => new ResponseError(`${where.method} ${displayUrl(where.url)} returned ${what}`, {
    ...where, hint: 'check that the base URL points at the Market Data Service',
  });
  if (record === undefined) throw fail('a body that is not a JSON object; expected a token response');
  if (accessToken === undefined) throw fail('no access_token in its response');
  // A bearer token is visible ASCII (RFC 6750 §2.1); anything else would break the header, or a terminal.
  if (!/^[\x21-\x7e]+$/.test(accessToken)) throw fail('an access_token with characters a bearer token cannot have');
  const tokenType = text(record.token_type) ?? 'Bearer';
  if (tokenType.toLowerCase() !== 'bearer') throw fail(`a token of type "${tokenType.slice(0, 40)}"; only Bearer tokens are supported`);
  const rawExpires = record.expires_in;
  const expires = rawExpires === undefined || rawExpires === null ? undefined : Number(String(rawExpires));
  if (expires !== undefined && (!Number.isFinite(expires) || expires < 0)) throw fail('an expires_in that is not a number of seconds');
  return {
    accessToken,
    tokenType: 'Bearer',
    expiresIn: expires,
    scope: typeof record.scope === 'string' ? record.scope : undefined,
    organizationId: text(record.organization_id),
  };
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

/** The base URL joined with an absolute path, keeping any path prefix of the base. */
export function endpoint(baseUrl: string, path: string): URL {
  const base = new URL(baseUrl);
  const prefix = base.pathname.replace(/\/+$/, '');
  return new URL(`${base.origin}${prefix}${path}`);
}
