// The two credential endpoints: POST /v1/auth/token and POST /auth/cli-login.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BUILT_IN_CLIENTS, DEFAULT_LIMITS, DEMO } from '../../src/sandbox/index.js';
import { PrincipalRegistry } from '../../src/sandbox/principal-registry.js';
import { TokenStore } from '../../src/sandbox/tokens.js';
import {
  cliLogin, envelopeCode, getQuotes, getToken, oauthErrorCode, postForm, postJson, startTestSandbox, type TestSandbox,
} from '../helpers/sandbox.js';

const SPECIAL = { client_id: 'special', client_secret: 'p@ss:w+rd/%.x', orgs: ['org_special', 'org_second'], scopes: ['market.read', 'ref.read'] };
const DOTTY = { client_id: 'dotty', client_secret: 'a.b.c', orgs: ['org_dotty'], scopes: ['market.read'] };

let sb: TestSandbox;
let tokenUrl: string;
let loginUrl: string;
beforeEach(async () => {
  sb = await startTestSandbox({ clients: [SPECIAL, DOTTY], tokenTtlSeconds: 60 });
  tokenUrl = `${sb.url}/v1/auth/token`;
  loginUrl = `${sb.url}/auth/cli-login`;
});
afterEach(() => sb.close());

function basic(id: string, secret: string): string {
  // RFC 6749 §2.3.1: each part form-urlencoded before base64.
  const encode = (text: string) => encodeURIComponent(text).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${encode(id)}:${encode(secret)}`).toString('base64')}`;
}

describe('POST /v1/auth/token', () => {
  it('issues an RFC 6749 §5.1 token for the spec\'s JSON body, not cacheable', async () => {
    const response = await postJson(tokenUrl, { client_id: 'demo', client_secret: 'demo-secret', grant_type: 'client_credentials' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('pragma')).toBe('no-cache');
    expect(response.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{20}$/);
    const body = response.json as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'scope', 'token_type']);
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 60, scope: 'market.read' });
    // 32 random bytes in base64url: 256 bits, opaque.
    expect(body.access_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('issues a different token on every request', async () => {
    const tokens = await Promise.all([1, 2, 3].map(() => getToken(sb.url)));
    expect(new Set(tokens).size).toBe(3);
  });

  it('accepts the standard OAuth form with client_secret_post', async () => {
    const response = await postForm(tokenUrl, { grant_type: 'client_credentials', client_id: 'demo', client_secret: 'demo-secret' });
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({ token_type: 'Bearer', scope: 'market.read' });
  });

  it('accepts HTTP Basic client authentication with form-urlencoded id and secret', async () => {
    const response = await postForm(tokenUrl, { grant_type: 'client_credentials' }, { authorization: basic(SPECIAL.client_id, SPECIAL.client_secret) });
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({ scope: 'market.read ref.read' });
  });

  it('accepts HTTP Basic with a JSON body too, and a matching client_id in the body', async () => {
    const response = await postJson(tokenUrl, { grant_type: 'client_credentials', client_id: 'demo' }, { authorization: basic('demo', 'demo-secret') });
    expect(response.status).toBe(200);
  });

  it('ignores unknown form parameters (RFC 6749 §3.2) and narrows to a requested scope', async () => {
    const response = await postForm(tokenUrl, {
      grant_type: 'client_credentials', client_id: SPECIAL.client_id, client_secret: SPECIAL.client_secret, scope: 'market.read', audience: 'x',
    });
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({ scope: 'market.read' });
  });

  it('grants no scope the client lacks, so the token then gets 403 on quotes', async () => {
    const response = await postJson(tokenUrl, { client_id: 'demo', client_secret: 'demo-secret', grant_type: 'client_credentials', scope: 'admin' });
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({ scope: '' });
    const quotes = await getQuotes(sb.url, (response.json as { access_token: string }).access_token, 'symbols=EURUSD');
    expect(quotes.status).toBe(403);
  });

  it('issues the noscope client a token with an empty scope', async () => {
    const response = await postJson(tokenUrl, { client_id: 'noscope', client_secret: 'noscope-secret', grant_type: 'client_credentials' });
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({ scope: '', token_type: 'Bearer' });
  });

  it.each([
    ['a wrong secret', { client_id: 'demo', client_secret: 'nope', grant_type: 'client_credentials' }],
    ['an unknown client', { client_id: 'ghost', client_secret: 'demo-secret', grant_type: 'client_credentials' }],
    ['no client_id', { client_secret: 'demo-secret', grant_type: 'client_credentials' }],
    ['no client_secret', { client_id: 'demo', grant_type: 'client_credentials' }],
    ['empty credentials', { client_id: '', client_secret: '', grant_type: 'client_credentials' }],
    ['no fields at all', {}],
    ['bad credentials and a bad grant_type (authentication first)', { client_id: 'demo', client_secret: 'x', grant_type: 'password' }],
    ['the secret of another client', { client_id: 'demo', client_secret: 'noscope-secret', grant_type: 'client_credentials' }],
  ])('answers %s with 401 UNAUTHORIZED, invalid_client, and no challenge (the client did not use HTTP Basic)', async (_name, body) => {
    const response = await postJson(tokenUrl, body);
    expect(response.status).toBe(401);
    expect(oauthErrorCode(response.json)).toBe('UNAUTHORIZED');
    expect(response.json).toMatchObject({ error: 'invalid_client' });
    expect(response.headers.get('www-authenticate')).toBeNull();
  });

  it.each([
    ['a wrong secret', basic('demo', 'wrong')],
    ['not base64', 'Basic !!!!'],
    ['no colon', `Basic ${Buffer.from('demo').toString('base64')}`],
    ['another scheme', 'Bearer abc'],
    ['a broken percent-encoding', `Basic ${Buffer.from('demo:%E0%A4%A').toString('base64')}`],
  ])('answers Basic authentication with %s with 401 and a Basic challenge', async (_name, authorization) => {
    const response = await postForm(tokenUrl, { grant_type: 'client_credentials' }, { authorization });
    expect(response.status).toBe(401);
    expect(oauthErrorCode(response.json)).toBe('UNAUTHORIZED');
    expect(response.json).toMatchObject({ error: 'invalid_client' });
    expect(response.headers.get('www-authenticate')).toMatch(/^Basic realm="mkt-sandbox"/);
  });

  it('answers every token endpoint error in RFC 6749 §5.2\'s shape, with the service\'s code and request id', async () => {
    const response = await postForm(tokenUrl, { grant_type: 'client_credentials', client_id: 'demo', client_secret: 'wrong' });
    expect(response.status).toBe(401);
    const body = response.json as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['code', 'error', 'error_description', 'request_id']);
    expect(body).toMatchObject({ error: 'invalid_client', error_description: 'invalid client credentials', code: 'UNAUTHORIZED' });
    expect(response.headers.get('x-request-id')).toBe(body.request_id);
  });

  it.each([
    ['a plus sign', 'a+b=c'],
    ['a percent sign', 'p@ss:w+rd/%.x'],
    ['what reads as a percent-escape', '100%25'],
  ])('accepts a secret with %s sent over HTTP Basic unencoded, as curl -u, requests and authlib send it', async (_name, secret) => {
    const other = await startTestSandbox({ clients: [{ client_id: 'raw', client_secret: secret, orgs: ['org_raw'], scopes: ['market.read'] }] });
    try {
      const authorization = `Basic ${Buffer.from(`raw:${secret}`).toString('base64')}`;
      const response = await postForm(`${other.url}/v1/auth/token`, { grant_type: 'client_credentials' }, { authorization });
      expect(response.status).toBe(200);
      // And form-encoded, as RFC 6749 §2.3.1 has it.
      expect((await postForm(`${other.url}/v1/auth/token`, { grant_type: 'client_credentials' }, { authorization: basic('raw', secret) })).status).toBe(200);
    } finally {
      await other.close();
    }
  });

  it('answers HTTP Basic with an empty body and no Content-Type with 400 invalid_request, naming grant_type', async () => {
    const response = await fetch(tokenUrl, { method: 'POST', headers: { authorization: basic('demo', 'demo-secret') } });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_request', code: 'INVALID_REQUEST', error_description: expect.stringContaining('grant_type is required') });
    const wrong = await fetch(tokenUrl, { method: 'POST', headers: { authorization: basic('demo', 'wrong') } });
    expect(wrong.status).toBe(401);
  });

  it('says that a body client_id differs from the one in HTTP Basic', async () => {
    const response = await postForm(tokenUrl, { grant_type: 'client_credentials', client_id: 'noscope' }, { authorization: basic('demo', 'demo-secret') });
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ error: 'invalid_request', error_description: expect.stringContaining('differs') });
  });

  it('refuses two client authentication methods in one request (RFC 6749 §2.3)', async () => {
    const response = await postForm(tokenUrl, { grant_type: 'client_credentials', client_secret: 'demo-secret' }, { authorization: basic('demo', 'demo-secret') });
    expect(response.status).toBe(400);
    expect(oauthErrorCode(response.json)).toBe('INVALID_REQUEST');
    expect(response.json).toMatchObject({ error: 'invalid_request', error_description: expect.stringContaining('not both') });
  });

  it.each([
    ['missing', undefined, 'invalid_request'],
    ['empty', '', 'invalid_request'],
    ['password', 'password', 'unsupported_grant_type'],
    ['authorization_code', 'authorization_code', 'unsupported_grant_type'],
    ['differently cased', 'CLIENT_CREDENTIALS', 'unsupported_grant_type'],
  ])('answers grant_type %s with 400 INVALID_REQUEST (%s)', async (_name, grantType, oauthError) => {
    const body: Record<string, unknown> = { client_id: 'demo', client_secret: 'demo-secret' };
    if (grantType !== undefined) body.grant_type = grantType;
    const response = await postJson(tokenUrl, body);
    expect(response.status).toBe(400);
    expect(oauthErrorCode(response.json)).toBe('INVALID_REQUEST');
    expect(response.json).toMatchObject({ error: oauthError });
  });

  it('lets a client-credentials token act for any organization of its client', async () => {
    const token = await getToken(sb.url, SPECIAL.client_id, SPECIAL.client_secret);
    expect((await getQuotes(sb.url, token, 'symbols=EURUSD', 'org_special')).status).toBe(200);
    expect((await getQuotes(sb.url, token, 'symbols=EURUSD', 'org_second')).status).toBe(200);
    expect((await getQuotes(sb.url, token, 'symbols=EURUSD', 'org_demo')).status).toBe(403);
  });
});

describe('POST /auth/cli-login', () => {
  it('issues a token bound to the organization', async () => {
    const response = await postJson(loginUrl, { api_key: DEMO.apiKey, organization_id: DEMO.org });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = response.json as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'organization_id', 'scope', 'token_type']);
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 60, scope: 'market.read', organization_id: 'org_demo' });
    expect(body.access_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await getQuotes(sb.url, body.access_token as string, 'symbols=EURUSD')).status).toBe(200);
  });

  it('splits the API key at the first dot, so secrets may contain dots', async () => {
    const token = await cliLogin(sb.url, 'dotty.a.b.c', 'org_dotty');
    expect((await getQuotes(sb.url, token, 'symbols=AAPL', 'org_dotty')).status).toBe(200);
  });

  it('refuses a cli-login token for another organization, even one its client may use', async () => {
    const token = await cliLogin(sb.url, `${SPECIAL.client_id}.${SPECIAL.client_secret}`, 'org_special');
    expect((await getQuotes(sb.url, token, 'symbols=EURUSD', 'org_special')).status).toBe(200);
    const other = await getQuotes(sb.url, token, 'symbols=EURUSD', 'org_second');
    expect(other.status).toBe(403);
    expect(envelopeCode(other.json)).toBe('FORBIDDEN');
  });

  it.each([
    ['a wrong secret', { api_key: 'demo.wrong', organization_id: 'org_demo' }, 401, 'UNAUTHORIZED'],
    ['an unknown client', { api_key: 'ghost.demo-secret', organization_id: 'org_demo' }, 401, 'UNAUTHORIZED'],
    ['no api_key', { organization_id: 'org_demo' }, 401, 'UNAUTHORIZED'],
    ['an empty api_key', { api_key: '', organization_id: 'org_demo' }, 401, 'UNAUTHORIZED'],
    ['an api_key without a dot', { api_key: 'demodemo-secret', organization_id: 'org_demo' }, 400, 'INVALID_REQUEST'],
    ['an api_key with nothing before the dot', { api_key: '.demo-secret', organization_id: 'org_demo' }, 400, 'INVALID_REQUEST'],
    ['an api_key with nothing after the dot', { api_key: 'demo.', organization_id: 'org_demo' }, 400, 'INVALID_REQUEST'],
    ['an api_key that is a number', { api_key: 42, organization_id: 'org_demo' }, 400, 'INVALID_REQUEST'],
    ['no organization_id', { api_key: DEMO.apiKey }, 400, 'INVALID_REQUEST'],
    ['an organization_id that is an object', { api_key: DEMO.apiKey, organization_id: {} }, 400, 'INVALID_REQUEST'],
    ['an organization_id not of the form org_<id>', { api_key: DEMO.apiKey, organization_id: 'demo' }, 400, 'INVALID_REQUEST'],
    ['an organization the client may not use', { api_key: DEMO.apiKey, organization_id: 'org_other' }, 403, 'FORBIDDEN'],
    ['a client without market.read', { api_key: 'noscope.noscope-secret', organization_id: 'org_demo' }, 403, 'FORBIDDEN'],
    ['an unknown field', { api_key: DEMO.apiKey, organization_id: 'org_demo', scope: 'market.read' }, 400, 'INVALID_REQUEST'],
    ['bad credentials and an unknown field (authentication first)', { api_key: 'demo.x', organization_id: 'org_demo', extra: 1 }, 401, 'UNAUTHORIZED'],
  ])('answers %s with %i %s', async (_name, body, status, code) => {
    const response = await postJson(loginUrl, body);
    expect(response.status).toBe(status);
    expect(envelopeCode(response.json)).toBe(code);
    if (status === 401) expect(response.headers.get('www-authenticate')).toMatch(/^Bearer /);
  });
});

describe('token churn', () => {
  it('keeps each client\'s tokens apart: 100,000 tokens of one client evict none of another\'s', () => {
    const clock = { now: 0 };
    const registry = new PrincipalRegistry([...BUILT_IN_CLIENTS, SPECIAL], { ...DEFAULT_LIMITS });
    const store = new TokenStore(3600, () => clock.now, 3);
    const demo = registry.authenticate('demo', 'demo-secret')!;
    const other = store.issue(registry.authenticate(SPECIAL.client_id, SPECIAL.client_secret)!, ['market.read']);
    const first = store.issue(demo, ['market.read']);
    for (let i = 0; i < 100_000; i++) store.issue(demo, ['market.read']);
    expect(store.lookup(other)).toBeDefined();
    expect(store.lookup(first)).toBeUndefined();
  });

  it('forgets a client\'s oldest tokens past its own cap, over HTTP', async () => {
    // 1,000 clients share the 100,000 live tokens: 100 each.
    const many = Array.from({ length: 998 }, (_, i) => ({ client_id: `c${i}`, client_secret: 'secret', orgs: ['org_many'], scopes: ['market.read'] }));
    const other = await startTestSandbox({ clients: many, limits: { tokensPerMinute: 1000 } });
    try {
      const bystander = await getToken(other.url, 'c1', 'secret');
      const oldest = await getToken(other.url, 'c0', 'secret');
      const next = await getToken(other.url, 'c0', 'secret');
      for (let i = 0; i < 99; i++) await getToken(other.url, 'c0', 'secret');
      expect((await getQuotes(other.url, oldest, 'symbols=EURUSD', 'org_many')).status).toBe(401);
      expect((await getQuotes(other.url, next, 'symbols=EURUSD', 'org_many')).status).toBe(200);
      expect((await getQuotes(other.url, bystander, 'symbols=EURUSD', 'org_many')).status).toBe(200);
    } finally {
      await other.close();
    }
  });
});

describe('token lifetime', () => {
  it.each([
    ['client credentials', (url: string) => getToken(url)],
    ['cli-login', (url: string) => cliLogin(url)],
  ])('a %s token works until its TTL ends, then gets 401 invalid_token', async (_kind, obtain) => {
    const token = await obtain(sb.url);
    sb.clock.advance(60_000 - 1);
    expect((await getQuotes(sb.url, token, 'symbols=EURUSD')).status).toBe(200);
    sb.clock.advance(1);
    const expired = await getQuotes(sb.url, token, 'symbols=EURUSD');
    expect(expired.status).toBe(401);
    expect(envelopeCode(expired.json)).toBe('UNAUTHORIZED');
    expect(expired.headers.get('www-authenticate')).toContain('error="invalid_token"');
    // Expired stays expired, also if the clock were to be set back.
    sb.clock.advance(-10_000);
    expect((await getQuotes(sb.url, token, 'symbols=EURUSD')).status).toBe(401);
  });

  it('reports the configured lifetime in expires_in', async () => {
    const other = await startTestSandbox({ tokenTtlSeconds: 5 });
    try {
      const response = await postJson(`${other.url}/v1/auth/token`, { client_id: 'demo', client_secret: 'demo-secret', grant_type: 'client_credentials' });
      expect(response.json).toMatchObject({ expires_in: 5 });
    } finally {
      await other.close();
    }
  });
});
