// POST /v1/auth/token (client credentials, JSON or OAuth form, client_secret_post or HTTP Basic)
// and POST /auth/cli-login (API key + organization). The body carries the credentials, so it is
// read and decoded first (413, 415, 400); then credentials (401), the organization and scope
// (403, cli-login only), and last everything else in the body (400). See docs/sandbox.md.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SandboxContext } from './context.js';
import { sendError, JSON_CONTENT_TYPE, type ErrorCode, type ErrorOptions } from './errors.js';
import type { Principal } from './principal-registry.js';
import { ORGANIZATION_PATTERN } from '../shared/patterns.js';
import { SCOPE_TOKEN_PATTERN } from './principals.js';
import { decodeFormBody, decodeJsonBody, mediaTypeOf, MAX_BODY_BYTES, quoteName, readBody, type Fields } from './request-body.js';

export const BEARER_CHALLENGE = 'Bearer realm="mkt-sandbox"';
const BASIC_CHALLENGE = 'Basic realm="mkt-sandbox", charset="UTF-8"';
const TOKEN_FIELDS = ['client_id', 'client_secret', 'grant_type', 'scope'];
const CLI_LOGIN_FIELDS = ['api_key', 'organization_id'];

/** Thrown inside a route to answer with an error; caught by runRoute. */
class Reject {
  constructor(
    readonly code: ErrorCode,
    readonly message: string,
    readonly options: ErrorOptions = {},
  ) {}
}

type Route = (ctx: SandboxContext, req: IncomingMessage, res: ServerResponse, requestId: string) => Promise<void>;

async function readFields(req: IncomingMessage, allowForm: boolean): Promise<{ fields: Fields; form: boolean } | undefined> {
  const declared = Number(req.headers['content-length']);
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  const media = mediaTypeOf(req.headers['content-type']);
  if (media !== 'json' && !(allowForm && media === 'form')) {
    const expected = allowForm ? 'application/json or application/x-www-form-urlencoded' : 'application/json';
    const what = media === 'missing' ? 'Content-Type is missing' : 'Content-Type is not supported';
    throw new Reject('UNSUPPORTED_MEDIA_TYPE', `${what}; send ${expected}`);
  }
  const result = await readBody(req);
  if (result.kind === 'aborted') return undefined;
  if (result.kind === 'too-large') throw tooLarge();
  const decoded = media === 'json' ? decodeJsonBody(result.body) : decodeFormBody(result.body);
  if (!decoded.ok) throw new Reject('INVALID_REQUEST', decoded.message);
  return { fields: decoded.fields, form: media === 'form' };
}

function tooLarge(): Reject {
  return new Reject('PAYLOAD_TOO_LARGE', `request body is larger than ${MAX_BODY_BYTES / 1024} KiB`, { close: true });
}

/** A field that must be a string when present; undefined when absent. */
function stringField(fields: Fields, name: string): string | undefined {
  const value = fields.get(name);
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new Reject('INVALID_REQUEST', `${name} must be a string`);
  return value;
}

function rejectUnknownFields(fields: Fields, allowed: readonly string[]): void {
  for (const name of fields.keys()) {
    if (!allowed.includes(name)) {
      throw new Reject('INVALID_REQUEST', `unknown field ${quoteName(name)}; allowed fields: ${allowed.join(', ')}`);
    }
  }
}

type BasicCredentials = { id: string; secret: string } | 'absent';

/** RFC 6749 §2.3.1: Basic with the form-urlencoded id and secret, as standard OAuth clients send. */
function basicCredentials(header: string | undefined): BasicCredentials {
  if (header === undefined) return 'absent';
  const invalid = new Reject('UNAUTHORIZED', 'the Authorization header must be HTTP Basic with the client id and secret', {
    oauthError: 'invalid_client',
    headers: { 'WWW-Authenticate': BASIC_CHALLENGE },
  });
  const match = /^basic +([A-Za-z0-9+/]+={0,2}) *$/i.exec(header);
  if (match === null) throw invalid;
  const decoded = Buffer.from(match[1] as string, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw invalid;
  try {
    const formDecode = (text: string) => decodeURIComponent(text.replace(/\+/g, ' '));
    return { id: formDecode(decoded.slice(0, colon)), secret: formDecode(decoded.slice(colon + 1)) };
  } catch {
    throw invalid;
  }
}

function tokenResponse(res: ServerResponse, requestId: string, body: Record<string, unknown>): void {
  const text = JSON.stringify(body);
  res.writeHead(200, {
    'Content-Type': JSON_CONTENT_TYPE,
    'Content-Length': Buffer.byteLength(text),
    // RFC 6749 §5.1: responses carrying tokens must not be cached.
    'Cache-Control': 'no-store',
    Pragma: 'no-cache',
    'X-Content-Type-Options': 'nosniff',
    'X-Request-Id': requestId,
  });
  res.end(text);
}

/** Scopes to grant: the principal's, narrowed to those asked for when `scope` is given (RFC 6749 §3.3). */
function grantedScopes(principal: Principal, requested: string | undefined): readonly string[] {
  if (requested === undefined || requested.trim() === '') return principal.scopes;
  const tokens = requested.split(' ').filter((token) => token !== '');
  if (!tokens.every((token) => SCOPE_TOKEN_PATTERN.test(token))) {
    throw new Reject('INVALID_REQUEST', 'scope must be space-separated scope names such as "market.read"', { oauthError: 'invalid_scope' });
  }
  return principal.scopes.filter((scope) => tokens.includes(scope));
}

export const handleToken: Route = async (ctx, req, res, requestId) => {
  const read = await readFields(req, true);
  if (read === undefined) return;
  const { fields, form } = read;
  const basic = basicCredentials(req.headers.authorization);
  const bodyId = stringField(fields, 'client_id');
  const bodySecret = stringField(fields, 'client_secret');
  if (basic !== 'absent' && (bodySecret !== undefined || (bodyId !== undefined && bodyId !== basic.id))) {
    throw new Reject('INVALID_REQUEST', 'send the client credentials either in the body or as HTTP Basic, not both', { oauthError: 'invalid_request' });
  }
  const challenge = { 'WWW-Authenticate': basic === 'absent' ? BEARER_CHALLENGE : BASIC_CHALLENGE };
  const clientId = basic === 'absent' ? bodyId : basic.id;
  const clientSecret = basic === 'absent' ? bodySecret : basic.secret;
  if (!clientId || !clientSecret) {
    throw new Reject('UNAUTHORIZED', 'client credentials are missing: send client_id and client_secret', { oauthError: 'invalid_client', headers: challenge });
  }
  const principal = ctx.principals.authenticate(clientId, clientSecret);
  if (principal === undefined) {
    throw new Reject('UNAUTHORIZED', 'invalid client credentials', { oauthError: 'invalid_client', headers: challenge });
  }
  // OAuth clients may send parameters this server does not know; RFC 6749 §3.2 says to ignore
  // them. The JSON form is this service's own, so an unknown field there is most likely a typo.
  if (!form) rejectUnknownFields(fields, TOKEN_FIELDS);
  const grantType = stringField(fields, 'grant_type');
  if (grantType === undefined || grantType === '') {
    throw new Reject('INVALID_REQUEST', 'grant_type is required; use "client_credentials"', { oauthError: 'invalid_request' });
  }
  if (grantType !== 'client_credentials') {
    throw new Reject('INVALID_REQUEST', 'unsupported grant_type; only "client_credentials" is supported', { oauthError: 'unsupported_grant_type' });
  }
  const scopes = grantedScopes(principal, stringField(fields, 'scope'));
  const token = ctx.tokens.issue(principal, scopes);
  tokenResponse(res, requestId, { access_token: token, token_type: 'Bearer', expires_in: ctx.tokens.ttl, scope: scopes.join(' ') });
};

export const handleCliLogin: Route = async (ctx, req, res, requestId) => {
  const read = await readFields(req, false);
  if (read === undefined) return;
  const { fields } = read;
  const challenge = { 'WWW-Authenticate': BEARER_CHALLENGE };
  const apiKey = stringField(fields, 'api_key');
  const organizationId = stringField(fields, 'organization_id');
  if (!apiKey) throw new Reject('UNAUTHORIZED', 'api_key is missing', { headers: challenge });
  const dot = apiKey.indexOf('.');
  if (dot <= 0 || dot === apiKey.length - 1) {
    throw new Reject('INVALID_REQUEST', 'api_key must have the form <client_id>.<client_secret>');
  }
  if (organizationId === undefined) throw new Reject('INVALID_REQUEST', 'organization_id is required (form org_<id>)');
  if (!ORGANIZATION_PATTERN.test(organizationId)) {
    throw new Reject('INVALID_REQUEST', 'organization_id must have the form org_<id>, <id> being 1 to 64 of A-Z, a-z, 0-9, _ or -');
  }
  const principal = ctx.principals.authenticate(apiKey.slice(0, dot), apiKey.slice(dot + 1));
  if (principal === undefined) throw new Reject('UNAUTHORIZED', 'invalid API key', { headers: challenge });
  if (!principal.orgs.has(organizationId)) {
    throw new Reject('FORBIDDEN', `this API key may not act for organization ${organizationId}`);
  }
  if (!principal.scopes.includes('market.read')) {
    throw new Reject('FORBIDDEN', 'this API key lacks the market.read scope');
  }
  rejectUnknownFields(fields, CLI_LOGIN_FIELDS);
  const token = ctx.tokens.issue(principal, principal.scopes, organizationId);
  tokenResponse(res, requestId, {
    access_token: token,
    token_type: 'Bearer',
    expires_in: ctx.tokens.ttl,
    scope: principal.scopes.join(' '),
    organization_id: organizationId,
  });
};

/** Runs an async route, turning a Reject into its error response and anything else into `onInternal`. */
export function runRoute(
  route: Route,
  ctx: SandboxContext,
  req: IncomingMessage,
  res: ServerResponse,
  requestId: string,
  onInternal: (error: unknown) => void,
): void {
  route(ctx, req, res, requestId).catch((error: unknown) => {
    if (!(error instanceof Reject)) return onInternal(error);
    if (res.headersSent || res.destroyed) return;
    sendError(res, requestId, error.code, error.message, error.options);
  });
}
