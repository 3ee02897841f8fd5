// POST /v1/auth/token (client credentials, JSON or OAuth form, client_secret_post or HTTP Basic)
// and POST /auth/cli-login (API key + organization). The body carries the credentials, so it is
// read and decoded first (413, 415, 400); then credentials (401), for cli-login the organization
// and scope (403), the client's token rate limit (429), and last everything else in the body
// (400). The token endpoint's errors have RFC 6749 §5.2's shape (the router picks it by path).
// See docs/sandbox.md.
import type { OutgoingHttpHeaders } from 'node:http';
import type { SandboxContext } from './context.js';
import { Reject } from './errors.js';
import type { Exchange, Route } from './exchange.js';
import { admitRate, BEARER_CHALLENGE, counted } from './grant.js';
import type { Principal } from './principal-registry.js';
import { ORGANIZATION_FORM, ORGANIZATION_PATTERN } from '../shared/patterns.js';
import { SCOPE_TOKEN_PATTERN } from './principals.js';
import { decodeFormBody, decodeJsonBody, mediaTypeOf, MAX_BODY_BYTES, quoteName, readBody, type Fields } from './request-body.js';
import { sendOk } from './responses.js';

const BASIC_CHALLENGE = 'Basic realm="mkt-sandbox", charset="UTF-8"';
const TOKEN_FIELDS = ['client_id', 'client_secret', 'grant_type', 'scope'];
const CLI_LOGIN_FIELDS = ['api_key', 'organization_id'];

/**
 * The body's fields, or undefined when the client went away. An empty body without a Content-Type
 * is no fields at all (`curl -u id:secret -X POST`), so that what is missing is named (401 or 400)
 * rather than the media type nobody sent.
 */
async function readFields(ex: Exchange, allowForm: boolean): Promise<{ fields: Fields; form: boolean } | undefined> {
  const { req } = ex;
  const declared = Number(req.headers['content-length']);
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  const media = mediaTypeOf(req.headers['content-type']);
  const expected = allowForm ? 'application/json or application/x-www-form-urlencoded' : 'application/json';
  if (media === 'other' || (media === 'form' && !allowForm)) throw new Reject('UNSUPPORTED_MEDIA_TYPE', `Content-Type is not supported; send ${expected}`);
  const result = await readBody(req);
  if (result.kind === 'aborted') return undefined;
  if (result.kind === 'too-large') throw tooLarge();
  if (media === 'missing') {
    if (result.body.length === 0) return { fields: new Map(), form: allowForm };
    throw new Reject('UNSUPPORTED_MEDIA_TYPE', `Content-Type is missing; send ${expected}`);
  }
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

/** HTTP Basic's client id, and its secret both as sent and form-decoded. */
interface BasicCredentials {
  id: string;
  raw: string;
  /** RFC 6749 §2.3.1's reading, undefined when the secret is not valid form encoding. */
  decoded: string | undefined;
}

function formDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/**
 * RFC 6749 §2.3.1 says to form-urlencode the id and secret before Basic; curl -u, requests and
 * authlib send them as they are. Client ids have no character the two readings differ on, so only
 * the secret is read both ways, and the client authenticates when either matches. Undefined
 * without an Authorization header; a 401 for one that is not Basic with an id and a secret.
 */
function basicCredentials(header: string | undefined): BasicCredentials | undefined {
  if (header === undefined) return undefined;
  const match = /^basic +([A-Za-z0-9+/]+={0,2}) *$/i.exec(header);
  const decoded = match === null ? '' : Buffer.from(match[1] as string, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) {
    throw new Reject('UNAUTHORIZED', 'the Authorization header must be HTTP Basic with the client id and secret', {
      headers: { 'WWW-Authenticate': BASIC_CHALLENGE },
    });
  }
  const raw = decoded.slice(colon + 1);
  return { id: formDecode(decoded.slice(0, colon)) ?? decoded.slice(0, colon), raw, decoded: formDecode(raw) };
}

function tokenResponse(ex: Exchange, body: Record<string, unknown>, rateHeaders: OutgoingHttpHeaders): void {
  // RFC 6749 §5.1: responses carrying tokens must not be cached; Pragma for HTTP/1.0 caches.
  sendOk(ex, JSON.stringify(body), { ...rateHeaders, Pragma: 'no-cache' });
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

/** The client's token rate limit (429), counted once the client is known. */
function admitToken(ctx: SandboxContext, ex: Exchange, principal: Principal) {
  ex.clientId = principal.clientId;
  return admitRate(ctx.tokenLimiter, principal.clientId, ctx.tokenLimits, ctx.tokenPolicy, ctx.now(), 'too many token requests for this client');
}

export const handleToken: Route = async (ctx, ex) => {
  const read = await readFields(ex, true);
  if (read === undefined) return;
  const { fields, form } = read;
  const basic = basicCredentials(ex.req.headers.authorization);
  const bodyId = stringField(fields, 'client_id');
  const bodySecret = stringField(fields, 'client_secret');
  if (basic !== undefined && bodySecret !== undefined) {
    throw new Reject('INVALID_REQUEST', 'send the client credentials either in the body or as HTTP Basic, not both');
  }
  if (basic !== undefined && bodyId !== undefined && bodyId !== basic.id) {
    throw new Reject('INVALID_REQUEST', 'the client_id in the body differs from the client id in HTTP Basic; send it in one place');
  }
  // RFC 6749 §5.2: a challenge only when the client authenticated with the Authorization header, in
  // the scheme it used. A client that sent its secret in the body gets the JSON error alone: OAuth
  // libraries (openid-client, oauth4webapi) read any challenge as a demand for that scheme and throw
  // before reading the body. See docs/sandbox.md.
  const challenge = basic === undefined ? {} : { 'WWW-Authenticate': BASIC_CHALLENGE };
  const clientId = basic === undefined ? bodyId : basic.id;
  const secrets = basic === undefined ? [bodySecret] : [basic.raw, basic.decoded];
  if (!clientId || !secrets[0]) {
    throw new Reject('UNAUTHORIZED', 'client credentials are missing: send client_id and client_secret', { headers: challenge });
  }
  let principal: Principal | undefined;
  for (const secret of secrets) if (secret !== undefined) principal ??= ctx.principals.authenticate(clientId, secret);
  if (principal === undefined) throw new Reject('UNAUTHORIZED', 'invalid client credentials', { headers: challenge });
  const rateHeaders = admitToken(ctx, ex, principal);
  counted(rateHeaders, () => {
    // OAuth clients may send parameters this server does not know; RFC 6749 §3.2 says to ignore
    // them. The JSON form is this service's own, so an unknown field there is most likely a typo.
    if (!form) rejectUnknownFields(fields, TOKEN_FIELDS);
    const grantType = stringField(fields, 'grant_type');
    if (grantType === undefined || grantType === '') throw new Reject('INVALID_REQUEST', 'grant_type is required; use "client_credentials"');
    if (grantType !== 'client_credentials') {
      throw new Reject('INVALID_REQUEST', 'unsupported grant_type; only "client_credentials" is supported', { oauthError: 'unsupported_grant_type' });
    }
    const scopes = grantedScopes(principal, stringField(fields, 'scope'));
    const token = ctx.tokens.issue(principal, scopes);
    tokenResponse(ex, { access_token: token, token_type: 'Bearer', expires_in: ctx.tokens.ttl, scope: scopes.join(' ') }, rateHeaders);
  });
};

export const handleCliLogin: Route = async (ctx, ex) => {
  const read = await readFields(ex, false);
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
  if (!ORGANIZATION_PATTERN.test(organizationId)) throw new Reject('INVALID_REQUEST', `organization_id must have the form ${ORGANIZATION_FORM}`);
  const principal = ctx.principals.authenticate(apiKey.slice(0, dot), apiKey.slice(dot + 1));
  if (principal === undefined) throw new Reject('UNAUTHORIZED', 'invalid API key', { headers: challenge });
  if (!principal.orgs.has(organizationId)) {
    throw new Reject('FORBIDDEN', `this API key may not act for organization ${organizationId}`);
  }
  if (!principal.scopes.includes('market.read')) {
    throw new Reject('FORBIDDEN', 'this API key lacks the market.read scope');
  }
  const rateHeaders = admitToken(ctx, ex, principal);
  counted(rateHeaders, () => {
    rejectUnknownFields(fields, CLI_LOGIN_FIELDS);
    const token = ctx.tokens.issue(principal, principal.scopes, organizationId);
    tokenResponse(ex, {
      access_token: token,
      token_type: 'Bearer',
      expires_in: ctx.tokens.ttl,
      scope: principal.scopes.join(' '),
      organization_id: organizationId,
    }, rateHeaders);
  });
};
