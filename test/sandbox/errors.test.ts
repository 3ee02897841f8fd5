// The spec's error table, the extra statuses in the same envelope, and the order of the checks:
// authentication, organization header, authorization, rate limit, validation.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { envelopeCode, errorCodeAt, getQuotes, getToken, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
beforeEach(async () => {
  sb = await startTestSandbox({ limits: { perMinute: 2 } });
});
afterEach(() => sb.close());

/** The error in the shape `path` answers in (the envelope but on the token endpoint), with its request id. */
function expectEnvelope(response: { headers: Headers; json: unknown }, code: string, path = '/v1/market/quotes'): void {
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(errorCodeAt(path, response.json)).toBe(code);
  const requestId = (response.json as { request_id: string }).request_id;
  expect(requestId).toMatch(/^req_[0-9a-f]{20}$/);
  expect(response.headers.get('x-request-id')).toBe(requestId);
}

describe('the spec\'s error table', () => {
  it('400 INVALID_REQUEST "symbols is required" for a quotes request without symbols', async () => {
    const response = await getQuotes(sb.url, await getToken(sb.url), '');
    expect(response.status).toBe(400);
    expectEnvelope(response, 'INVALID_REQUEST');
    expect((response.json as { error: { message: string } }).error.message).toBe('symbols is required');
  });

  it.each([
    ['no Authorization header', undefined, false],
    ['another scheme', 'Basic ZGVtbzpkZW1vLXNlY3JldA==', false],
    ['a bearer scheme without a token', 'Bearer ', false],
    ['an unknown token', 'Bearer abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ', true],
    ['the API key itself', 'Bearer demo.demo-secret', true],
    ['bearer in lower case with a bad token', 'bearer nope', true],
  ])('401 UNAUTHORIZED with a Bearer challenge for %s', async (_name, authorization, invalidToken) => {
    const headers: Record<string, string> = { 'x-organization-id': 'org_demo' };
    if (authorization !== undefined) headers.authorization = authorization;
    const response = await fetch(`${sb.url}/v1/market/quotes?symbols=EURUSD`, { headers });
    const json: unknown = await response.json();
    expect(response.status).toBe(401);
    expectEnvelope({ headers: response.headers, json }, 'UNAUTHORIZED');
    const challenge = response.headers.get('www-authenticate') ?? '';
    expect(challenge).toMatch(/^Bearer realm="mkt-sandbox"/);
    expect(challenge.includes('error="invalid_token"')).toBe(invalidToken);
  });

  it('accepts the scheme name in any case (RFC 7235)', async () => {
    const token = await getToken(sb.url);
    const response = await fetch(`${sb.url}/v1/market/quotes?symbols=EURUSD`, { headers: { authorization: `bEaReR ${token}`, 'x-organization-id': 'org_demo' } });
    expect(response.status).toBe(200);
  });

  it('403 FORBIDDEN for an organization the token may not act for', async () => {
    const response = await getQuotes(sb.url, await getToken(sb.url), 'symbols=EURUSD', 'org_other');
    expect(response.status).toBe(403);
    expectEnvelope(response, 'FORBIDDEN');
  });

  it('403 FORBIDDEN, insufficient_scope, for a token without market.read', async () => {
    const response = await getQuotes(sb.url, await getToken(sb.url, 'noscope', 'noscope-secret'), 'symbols=EURUSD');
    expect(response.status).toBe(403);
    expectEnvelope(response, 'FORBIDDEN');
    expect(response.headers.get('www-authenticate')).toContain('error="insufficient_scope", scope="market.read"');
  });

  it('429 RATE_LIMITED past the limit', async () => {
    const token = await getToken(sb.url);
    await getQuotes(sb.url, token, 'symbols=EURUSD');
    await getQuotes(sb.url, token, 'symbols=EURUSD');
    const response = await getQuotes(sb.url, token, 'symbols=EURUSD');
    expect(response.status).toBe(429);
    expectEnvelope(response, 'RATE_LIMITED');
    expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});

describe('statuses beyond the table, same shapes', () => {
  it.each([
    '/', '/v1', '/v1/market/quotes/', '/V1/market/quotes', '/v1/market/quote', '/v1/auth/cli-login', '/auth/token',
    '/v1/market/quotes;x', '/v1/market/%71uotes', '//v1/market/quotes', '/favicon.ico',
  ])('404 NOT_FOUND for %s', async (path) => {
    const response = await fetch(`http://127.0.0.1:${sb.port}${path}`);
    expect(response.status).toBe(404);
    expectEnvelope({ headers: response.headers, json: await response.json() }, 'NOT_FOUND');
  });

  it.each([
    ['POST', '/v1/market/quotes', 'GET'],
    ['PUT', '/v1/market/quotes', 'GET'],
    ['DELETE', '/v1/market/quotes', 'GET'],
    ['OPTIONS', '/v1/market/quotes', 'GET'],
    ['GET', '/v1/auth/token', 'POST'],
    ['PATCH', '/v1/auth/token', 'POST'],
    ['GET', '/auth/cli-login', 'POST'],
    ['DELETE', '/auth/cli-login', 'POST'],
  ])('405 METHOD_NOT_ALLOWED for %s %s, with Allow: %s', async (method, path, allow) => {
    const response = await fetch(`${sb.url}${path}`, { method });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe(allow);
    expectEnvelope({ headers: response.headers, json: await response.json() }, 'METHOD_NOT_ALLOWED', path);
  });

  it('405 for HEAD, with no body as HEAD requires', async () => {
    const response = await fetch(`${sb.url}/v1/market/quotes?symbols=EURUSD`, { method: 'HEAD' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET');
    expect(await response.text()).toBe('');
  });
});

describe('check order: authentication, organization header, authorization, rate limit, validation', () => {
  it('401 before a malformed organization and a missing symbols', async () => {
    const response = await getQuotes(sb.url, 'bad-token', '', 'not-an-org');
    expect(response.status).toBe(401);
  });

  it.each([
    ['a missing', null],
    ['an empty', ''],
    ['a malformed', 'demo'],
    ['an upper-case', 'ORG_demo'],
    ['a too long', `org_${'x'.repeat(65)}`],
    ['a spaced', 'org_a b'],
    ['a doubled', 'org_demo, org_demo'],
  ])('400 for %s X-Organization-Id, before authorization (it names what to authorize)', async (_name, org) => {
    const response = await getQuotes(sb.url, await getToken(sb.url, 'noscope', 'noscope-secret'), '', org);
    expect(response.status).toBe(400);
    expect(envelopeCode(response.json)).toBe('INVALID_REQUEST');
    expect((response.json as { error: { message: string } }).error.message).toContain('X-Organization-Id');
  });

  it('403 before the rate limit and validation', async () => {
    const token = await getToken(sb.url);
    for (let i = 0; i < 3; i++) {
      const response = await getQuotes(sb.url, token, '', 'org_other');
      expect(response.status).toBe(403);
      expect(response.headers.get('ratelimit-limit')).toBeNull();
    }
    // The refusals did not count against the limit.
    expect((await getQuotes(sb.url, token, 'symbols=EURUSD')).status).toBe(200);
  });

  it('429 before validation; a request that passed the limit counts even if it then fails validation', async () => {
    const token = await getToken(sb.url);
    const invalid = await getQuotes(sb.url, token, 'symbols=,,,');
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get('ratelimit-remaining')).toBe('1');
    expect((await getQuotes(sb.url, token, 'symbols=EURUSD')).status).toBe(200);
    expect((await getQuotes(sb.url, token, '')).status).toBe(429);
  });
});
