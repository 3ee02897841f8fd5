// Bad input of every kind: each gets the JSON envelope and the right status, nothing unexpected is
// thrown inside the server (onError stays silent), and the server keeps serving.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/sandbox/index.js';
import {
  envelopeCode, errorCodeAt, errorMessage, getQuotes, getToken, oauthErrorCode, parseRawResponse, postJson, rawExchange, startTestSandbox,
  type TestSandbox,
} from '../helpers/sandbox.js';

let sb: TestSandbox;
let internalErrors: unknown[];
let token: string;
beforeEach(async () => {
  internalErrors = [];
  sb = await startTestSandbox({ onError: (error) => internalErrors.push(error), headersTimeoutMs: 400, requestTimeoutMs: 800 });
  token = await getToken(sb.url);
});
afterEach(async () => {
  // Whatever happened, the server still answers, and nothing inside it failed.
  expect((await getQuotes(sb.url, token, 'symbols=EURUSD')).status).toBe(200);
  expect(internalErrors).toEqual([]);
  await sb.close();
});

const GOOD_TOKEN_BODY = { client_id: DEMO.clientId, client_secret: DEMO.clientSecret, grant_type: 'client_credentials' };
const GOOD_LOGIN_BODY = { api_key: DEMO.apiKey, organization_id: DEMO.org };

describe('request bodies', () => {
  it.each([
    ['/v1/auth/token', 'malformed JSON', '{"client_id":', /not valid JSON/],
    ['/v1/auth/token', 'JSON with trailing garbage', `${JSON.stringify(GOOD_TOKEN_BODY)} x`, /not valid JSON/],
    ['/v1/auth/token', 'an empty body', '', /empty/],
    ['/v1/auth/token', 'a whitespace body', '  \n ', /empty/],
    ['/v1/auth/token', 'a JSON array', '[]', /JSON object/],
    ['/v1/auth/token', 'JSON null', 'null', /JSON object/],
    ['/v1/auth/token', 'a JSON string', '"demo"', /JSON object/],
    ['/v1/auth/token', 'a byte-order mark', `\uFEFF${JSON.stringify(GOOD_TOKEN_BODY)}`, /not valid JSON/],
    ['/v1/auth/token', 'a numeric client_id', { ...GOOD_TOKEN_BODY, client_id: 5 }, /client_id must be a string/],
    ['/v1/auth/token', 'a null client_secret', { ...GOOD_TOKEN_BODY, client_secret: null }, /client_secret must be a string/],
    ['/v1/auth/token', 'a boolean grant_type', { ...GOOD_TOKEN_BODY, grant_type: true }, /grant_type must be a string/],
    ['/v1/auth/token', 'an array scope', { ...GOOD_TOKEN_BODY, scope: ['market.read'] }, /scope must be a string/],
    ['/v1/auth/token', 'a malformed scope', { ...GOOD_TOKEN_BODY, scope: 'market."read"' }, /scope must be/],
    ['/v1/auth/token', 'an extra field', { ...GOOD_TOKEN_BODY, audience: 'x' }, /unknown field "audience"/],
    ['/v1/auth/token', 'a __proto__ field', `{"__proto__": {"x": 1}, ${JSON.stringify(GOOD_TOKEN_BODY).slice(1)}`, /unknown field "__proto__"/],
    ['/v1/auth/token', 'a grant_type other than client_credentials', { ...GOOD_TOKEN_BODY, grant_type: 'refresh_token' }, /unsupported grant_type/],
    ['/auth/cli-login', 'malformed JSON', '{api_key: demo.demo-secret}', /not valid JSON/],
    ['/auth/cli-login', 'an empty body', '', /empty/],
    ['/auth/cli-login', 'an api_key without a dot', { ...GOOD_LOGIN_BODY, api_key: 'demo' }, /<client_id>\.<client_secret>/],
    ['/auth/cli-login', 'an array api_key', { ...GOOD_LOGIN_BODY, api_key: ['demo.demo-secret'] }, /api_key must be a string/],
    ['/auth/cli-login', 'an organization_id without org_', { ...GOOD_LOGIN_BODY, organization_id: 'demo' }, /org_<id>/],
    ['/auth/cli-login', 'an organization_id with a newline', { ...GOOD_LOGIN_BODY, organization_id: 'org_demo\n' }, /org_<id>/],
    ['/auth/cli-login', 'an organization_id of only org_', { ...GOOD_LOGIN_BODY, organization_id: 'org_' }, /org_<id>/],
    ['/auth/cli-login', 'an extra field', { ...GOOD_LOGIN_BODY, remember: true }, /unknown field "remember"/],
  ])('POST %s with %s: 400 INVALID_REQUEST', async (path, _name, body, pattern) => {
    const response = await postJson(`${sb.url}${path}`, body);
    expect(response.status).toBe(400);
    expect(errorCodeAt(path, response.json)).toBe('INVALID_REQUEST');
    expect(errorMessage(response.json)).toMatch(pattern);
  });

  it.each([
    ['a repeated parameter', 'grant_type=client_credentials&client_id=demo&client_id=demo&client_secret=demo-secret'],
    ['an empty form', ''],
  ])('POST /v1/auth/token with a form with %s: 400', async (_name, body) => {
    const response = await fetch(`${sb.url}/v1/auth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
    expect(response.status).toBe(400);
    expect(oauthErrorCode(await response.json())).toBe('INVALID_REQUEST');
  });

  it.each([
    ['/v1/auth/token', 'no Content-Type', undefined],
    ['/v1/auth/token', 'text/plain', 'text/plain'],
    ['/v1/auth/token', 'application/xml', 'application/xml'],
    ['/v1/auth/token', 'JSON in another charset', 'application/json; charset=iso-8859-1'],
    ['/v1/auth/token', 'a JSON-like type', 'application/vnd.api+json'],
    ['/auth/cli-login', 'no Content-Type', undefined],
    ['/auth/cli-login', 'a form', 'application/x-www-form-urlencoded'],
    ['/auth/cli-login', 'multipart', 'multipart/form-data; boundary=x'],
  ])('POST %s with %s: 415 UNSUPPORTED_MEDIA_TYPE', async (path, _name, contentType) => {
    const headers: Record<string, string> = contentType === undefined ? {} : { 'content-type': contentType };
    // A byte body: fetch adds no Content-Type of its own.
    const body = new TextEncoder().encode(JSON.stringify(path === '/auth/cli-login' ? GOOD_LOGIN_BODY : GOOD_TOKEN_BODY));
    const response = await fetch(`${sb.url}${path}`, { method: 'POST', headers, body });
    expect(response.status).toBe(415);
    expect(errorCodeAt(path, await response.json())).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it.each(['application/json; charset="UTF-8"', 'Application/JSON', 'application/json;charset=utf8', 'application/json; foo=bar'])(
    'accepts Content-Type %s',
    async (contentType) => {
      const response = await postJson(`${sb.url}/v1/auth/token`, GOOD_TOKEN_BODY, { 'content-type': contentType });
      expect(response.status).toBe(200);
    },
  );

  it('answers a declared body over 64 KiB with 413 without reading it, and closes the connection', async () => {
    const body = JSON.stringify({ ...GOOD_TOKEN_BODY, pad: 'x'.repeat(64 * 1024) });
    const response = await postJson(`${sb.url}/v1/auth/token`, body);
    expect(response.status).toBe(413);
    expect(oauthErrorCode(response.json)).toBe('PAYLOAD_TOO_LARGE');
    expect(response.headers.get('connection')).toBe('close');
  });

  it('accepts a body of exactly 64 KiB', async () => {
    const json = JSON.stringify(GOOD_TOKEN_BODY);
    const response = await postJson(`${sb.url}/v1/auth/token`, json + ' '.repeat(64 * 1024 - json.length));
    expect(response.status).toBe(200);
  });

  it('stops reading a chunked body at 64 KiB: 413 and the connection closed', async () => {
    const chunk = 'x'.repeat(16 * 1024);
    const chunks = Array.from({ length: 8 }, () => `${chunk.length.toString(16)}\r\n${chunk}\r\n`).join('');
    const raw = await rawExchange(sb.port,
      `POST /v1/auth/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${chunks}`);
    const response = parseRawResponse(raw);
    expect(response?.status).toBe(413);
    expect(oauthErrorCode(JSON.parse(response!.body))).toBe('PAYLOAD_TOO_LARGE');
    expect(response?.headers.connection).toBe('close');
  });
});

describe('quotes queries', () => {
  it.each([
    ['an empty symbols', 'symbols=', /symbols is required/],
    ['whitespace-only symbols', 'symbols=%20%20%20', /symbols is required/],
    ['symbols=,,,', 'symbols=,,,', /symbols is required/],
    ['commas and spaces', 'symbols=%20,%20,', /symbols is required/],
    ['a control character', 'symbols=EUR%01USD', /control character/],
    ['a trailing tab', 'symbols=EURUSD%09', /control character/],
    ['a NUL', 'symbols=AAPL,EURUSD%00', /symbol 2 contains a control character/],
    ['DEL', 'symbols=EUR%7FUSD', /control character/],
    ['a 33-character symbol', `symbols=KO,${'A'.repeat(33)}`, /symbol 2 is longer than 32/],
    // No market's symbol starts as a spreadsheet formula does: the client's rule (shared/patterns.ts).
    ['a symbol that starts with =', 'symbols=KO,%3D1%2B1', /^symbol 2 starts with =: no market's symbol starts with =, \+, - or @$/],
    ['a symbol that starts with +, after spaces', 'symbols=%20%2BKO', /^symbol 1 starts with \+/],
    ['a symbol that starts with -', 'symbols=-KO', /^symbol 1 starts with -/],
    ['a symbol that starts with @', 'symbols=KO,AAPL,@SUM(1)', /^symbol 3 starts with @/],
    ['a non-ASCII symbol', 'symbols=%C3%89URUSD', /visible ASCII/],
    ['invalid UTF-8', 'symbols=%FF', /visible ASCII/],
    ['symbols twice', 'symbols=EURUSD&symbols=AAPL', /more than once/],
    ['a misspelt parameter', 'symbol=EURUSD', /unknown query parameter "symbol"/],
    ['an empty venue', 'symbols=EURUSD&venue=', /^venue is empty: a venue is 1 to 64 visible ASCII characters, e.g. venue=XNAS$/],
    ['a venue with a control character', 'symbols=EURUSD&venue=X%01', /^venue contains a control character/],
    ['a venue with a space inside', 'symbols=EURUSD&venue=X%20N', /^venue contains a character other than visible ASCII/],
    ['a 65-character venue', `symbols=EURUSD&venue=${'A'.repeat(65)}`, /^venue is longer than 64 characters/],
    ['venue twice', 'symbols=EURUSD&venue=XNAS&venue=ARCX', /more than once/],
  ])('%s: 400 INVALID_REQUEST', async (_name, query, pattern) => {
    const response = await getQuotes(sb.url, token, query);
    expect(response.status).toBe(400);
    expect(envelopeCode(response.json)).toBe('INVALID_REQUEST');
    expect(errorMessage(response.json)).toMatch(pattern);
  });

  it('refuses CR/LF in a symbol and reflects nothing into the headers', async () => {
    const response = await getQuotes(sb.url, token, 'symbols=EURUSD%0D%0AX-Injected:%20yes%0D%0A');
    expect(response.status).toBe(400);
    expect(errorMessage(response.json)).toMatch(/control character/);
    expect(response.headers.get('x-injected')).toBeNull();
  });

  it('takes a malformed percent-escape literally (WHATWG form decoding): an unknown symbol', async () => {
    const response = await getQuotes(sb.url, token, 'symbols=%ZZ,KO');
    expect(response.status).toBe(200);
    expect((response.json as { data: Array<{ symbol: string }> }).data.map((quote) => quote.symbol)).toEqual(['KO']);
  });

  it('answers a query over 8 KiB with 414 URI_TOO_LONG, and one of exactly 8 KiB normally', async () => {
    const exact = `symbols=KO,${'A'.repeat(8 * 1024 - 'symbols=KO,'.length)}`;
    const atLimit = await getQuotes(sb.url, token, exact);
    expect(atLimit.status).toBe(400); // served: too long a symbol, not too long a query
    const over = await getQuotes(sb.url, token, `${exact}B`);
    expect(over.status).toBe(414);
    expect(envelopeCode(over.json)).toBe('URI_TOO_LONG');
  });
});

describe('malformed HTTP, on raw sockets', () => {
  async function exchange(request: string, options: Parameters<typeof rawExchange>[2] = {}) {
    const raw = await rawExchange(sb.port, request, options);
    const response = parseRawResponse(raw);
    expect(response, `no HTTP response in ${JSON.stringify(raw.slice(0, 200))}`).toBeDefined();
    expect(response!.headers['content-type']).toBe('application/json; charset=utf-8');
    return { ...response!, json: JSON.parse(response!.body) as unknown };
  }

  it.each([
    ['garbage instead of a request line', 'HELLO\r\n\r\n', 400, 'INVALID_REQUEST'],
    ['an unknown method', 'FROB /v1/market/quotes HTTP/1.1\r\nHost: x\r\n\r\n', 400, 'INVALID_REQUEST'],
    ['a bare CR inside a header value', 'GET /v1/market/quotes?symbols=EURUSD HTTP/1.1\r\nHost: x\r\nX-Organization-Id: org_demo\rX-Injected: yes\r\n\r\n', 400, 'INVALID_REQUEST'],
    ['a header name with a space', 'GET / HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n', 400, 'INVALID_REQUEST'],
    ['a non-numeric Content-Length', 'POST /v1/auth/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: abc\r\n\r\n{}', 400, 'INVALID_REQUEST'],
    ['both Content-Length and Transfer-Encoding', 'POST /v1/auth/token HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', 400, 'INVALID_REQUEST'],
    ['a request line over 16 KiB', `GET /v1/market/quotes?symbols=${'A'.repeat(17 * 1024)} HTTP/1.1\r\nHost: x\r\n\r\n`, 431, 'REQUEST_HEADER_FIELDS_TOO_LARGE'],
    ['headers over 16 KiB', `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(17 * 1024)}\r\n\r\n`, 431, 'REQUEST_HEADER_FIELDS_TOO_LARGE'],
    ['an unsupported Expect', 'POST /auth/cli-login HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}', 417, 'EXPECTATION_FAILED'],
    ['an unsupported Expect on the token endpoint (RFC 6749\'s shape)', 'POST /v1/auth/token HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\nContent-Length: 2\r\n\r\n{}', 417, 'EXPECTATION_FAILED'],
    ['CONNECT', 'CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1:443\r\n\r\n', 405, 'METHOD_NOT_ALLOWED'],
    ['a dot-segment path', 'GET /v1/market/../market/quotes HTTP/1.1\r\nHost: x\r\n\r\n', 404, 'NOT_FOUND'],
    ['no Host header (served anyway)', 'GET /nowhere HTTP/1.1\r\n\r\n', 404, 'NOT_FOUND'],
    ['HTTP/1.0', 'GET /nowhere HTTP/1.0\r\n\r\n', 404, 'NOT_FOUND'],
  ])('%s: %i %s', async (_name, request, status, code) => {
    const response = await exchange(request, { firstResponseOnly: true });
    expect(response.status).toBe(status);
    // What Node answers at the socket has no path, so the envelope; the 417 comes with one.
    expect(status === 417 ? errorCodeAt(/ (\/\S*) /.exec(request)![1]!, response.json) : envelopeCode(response.json)).toBe(code);
    expect(response.headers['x-injected']).toBeUndefined();
  });

  it('accepts the absolute form of the request target (RFC 9112 §3.2.2)', async () => {
    const response = await exchange(
      `GET http://127.0.0.1:${sb.port}/v1/market/quotes?symbols=EURUSD HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nX-Organization-Id: org_demo\r\n\r\n`,
      { firstResponseOnly: true },
    );
    expect(response.status).toBe(200);
  });

  it('handles Expect: 100-continue', async () => {
    const body = JSON.stringify(GOOD_TOKEN_BODY);
    const raw = await rawExchange(sb.port,
      `POST /v1/auth/token HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    expect(raw).toMatch(/^HTTP\/1\.1 100 Continue\r\n/);
    expect(raw).toMatch(/HTTP\/1\.1 200 OK/);
  });

  it('never reflects request headers: X-Request-Id is always its own', async () => {
    const response = await exchange(
      'GET /v1/market/quotes HTTP/1.1\r\nHost: x\r\nX-Request-Id: injected\r\nX-Organization-Id: org_demo\r\nOrigin: http://evil\r\n\r\n',
      { firstResponseOnly: true },
    );
    expect(response.status).toBe(401);
    expect(response.headers['x-request-id']).toMatch(/^req_[0-9a-f]{20}$/);
    expect(response.raw).not.toContain('injected');
    expect(response.raw).not.toContain('evil');
  });

  it('answers a client that sends its headers too slowly with 408 and closes', async () => {
    // The 408 itself says the server's 400 ms headers timeout fired, not the exchange's own limit.
    const response = await exchange('GET /v1/market/quotes HTTP/1.1\r\nHost: x\r\n', { timeoutMs: 10_000 });
    expect(response.status).toBe(408);
    expect(envelopeCode(response.json)).toBe('REQUEST_TIMEOUT');
  });

  it('answers a client that sends its body too slowly with 408 and closes', async () => {
    const response = await exchange('POST /v1/auth/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"client_id"', { timeoutMs: 4000 });
    expect(response.status).toBe(408);
    expect(envelopeCode(response.json)).toBe('REQUEST_TIMEOUT');
  });

  it.each([
    ['in the middle of the headers', 'GET /v1/market/quotes?symbols=EURUSD HTTP/1.1\r\nHost: x\r\nAuthor'],
    ['in the middle of a body', 'POST /v1/auth/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"client_id":"de'],
    ['in the middle of a chunked body', 'POST /auth/cli-login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"api'],
    ['right after a complete request', `GET /v1/market/quotes?symbols=EURUSD HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${'x'.repeat(43)}\r\n\r\n`],
  ])('survives a client that disconnects %s', async (_name, request) => {
    // Reset the connection abruptly right after writing.
    await rawExchange(sb.port, request, { timeoutMs: 50 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    // afterEach checks that the server still answers and reported no internal error.
  });

  it.each([
    ['a chunked body', 'POST /v1/auth/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"api'],
    ['a body with Content-Length', 'POST /v1/auth/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"api'],
    ['the headers', 'GET /v1/market/quotes HTTP/1.1\r\nHost: x\r\nX-Org'],
  ])('answers a half-close in the middle of %s with 400', async (_name, request) => {
    const response = parseRawResponse(await rawExchange(sb.port, request, { endAfterWrite: true }));
    expect(response?.status).toBe(400);
    expect(JSON.parse(response!.body)).toMatchObject({ error: { code: 'INVALID_REQUEST', message: expect.stringContaining('ended in the middle') } });
  });

  it('serves many requests on one keep-alive connection, pipelined', async () => {
    const request = `GET /v1/market/quotes?symbols=EURUSD HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nX-Organization-Id: org_demo\r\n\r\n`;
    const raw = await rawExchange(sb.port, request.repeat(5) + 'GET /nowhere HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(raw.match(/HTTP\/1\.1 200 OK/g)).toHaveLength(5);
    expect(raw.match(/HTTP\/1\.1 404 Not Found/g)).toHaveLength(1);
  });
});
