// Random methods, paths, headers and bodies: whatever arrives, the answer is never a 5xx and always
// JSON; every error is the envelope, its request_id matching X-Request-Id.
import http from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelopeCode, errorCodeAt, getToken, oauthErrorCode, parseRawResponse, rawExchange, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
let token: string;
let agent: http.Agent;
const internalErrors: unknown[] = [];
beforeAll(async () => {
  sb = await startTestSandbox({ onError: (error) => internalErrors.push(error), limits: { perMinute: 100, perHour: 100_000, perDay: 100_000 } });
  token = await getToken(sb.url);
  agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
});
afterAll(async () => {
  agent.destroy();
  await sb.close();
});

const printable = (max: number) => fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: max });
const FIELDS = ['client_id', 'client_secret', 'grant_type', 'scope', 'api_key', 'organization_id'];
const RESERVED_HEADERS = new Set(['content-length', 'transfer-encoding', 'host', 'connection', 'expect', 'upgrade', 'te', 'trailer', 'keep-alive']);

const method = fc.oneof(
  fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'),
  fc.stringMatching(/^[A-Z]{1,8}$/),
);
const path = fc.oneof(
  fc.constantFrom('/v1/market/quotes', '/v1/auth/token', '/auth/cli-login', '/', '/v1/market/quotes/'),
  fc.webPath().map((p) => (p.startsWith('/') ? p : `/${p}`)),
  printable(30).map((text) => `/${encodeURIComponent(text)}`),
);
const query = fc.oneof(
  fc.constant(''),
  fc.webQueryParameters().map((q) => `?${q}`),
  fc.array(fc.oneof(fc.constantFrom('EURUSD', 'aapl', 'USDJPY', 'SYN00001', '', ' '), printable(40)), { maxLength: 6 })
    .map((symbols) => `?symbols=${encodeURIComponent(symbols.join(','))}`),
  printable(20).map((venue) => `?symbols=EURUSD,AAPL&venue=${encodeURIComponent(venue)}`),
);
const authorization = fc.oneof(
  fc.constant(undefined),
  fc.constant('valid'),
  printable(60).map((text) => `Bearer ${text}`),
  printable(60),
);
const org = fc.oneof(fc.constant(undefined), fc.constantFrom('org_demo', 'org_other', 'ORG_demo', 'org_'), printable(70));
const contentType = fc.oneof(
  fc.constant(undefined),
  fc.constantFrom('application/json', 'application/x-www-form-urlencoded', 'application/json; charset=latin1', 'text/plain'),
  printable(40),
);
const extraHeader = fc.option(fc.tuple(
  fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/).filter((name) => !RESERVED_HEADERS.has(name)),
  printable(80),
));
const body = fc.oneof(
  fc.constant(undefined),
  fc.dictionary(fc.oneof(fc.constantFrom(...FIELDS), fc.string({ maxLength: 10 })), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 }).map((value) => JSON.stringify(value)),
  fc.dictionary(fc.constantFrom(...FIELDS), fc.constantFrom('demo', 'demo-secret', 'demo.demo-secret', 'client_credentials', 'org_demo', '')).map((value) => JSON.stringify(value)),
  fc.dictionary(fc.constantFrom(...FIELDS, 'x'), printable(20)).map((value) => new URLSearchParams(value).toString()),
  fc.string({ maxLength: 200 }),
  fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)),
);

interface Exchange {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

function send(options: http.RequestOptions, payload: string | Buffer | undefined): Promise<Exchange> {
  // Node's client frames a GET or DELETE body with neither Content-Length nor chunking; frame it here.
  const headers = payload === undefined ? options.headers : { ...options.headers, 'content-length': String(Buffer.byteLength(payload)) };
  return new Promise((resolve, reject) => {
    const request = http.request({ ...options, headers, agent, host: '127.0.0.1', port: sb.port }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.setTimeout(5000, () => request.destroy(new Error('timed out')));
    request.end(payload);
  });
}

function expectJsonAnswer(exchange: Exchange, requestMethod: string, requestPath: string): void {
  expect(exchange.status).toBeGreaterThanOrEqual(200);
  expect(exchange.status).toBeLessThan(500);
  expect(exchange.headers['content-type']).toBe('application/json; charset=utf-8');
  if (requestMethod === 'HEAD') return;
  const json = JSON.parse(exchange.text) as Record<string, unknown>;
  if (exchange.status >= 400) {
    // A request Node cannot parse is answered at the socket, in the envelope, whatever its path.
    expect(errorCodeAt(requestPath, json) ?? envelopeCode(json), exchange.text).toBeDefined();
    expect(exchange.headers['x-request-id']).toBe(json.request_id);
  } else {
    expect(exchange.status).toBe(200);
    expect(Array.isArray(json.data) || typeof json.access_token === 'string', exchange.text).toBe(true);
  }
}

describe('property: any request', () => {
  it('gets a JSON answer below 500, errors in the shape of their path', async () => {
    await fc.assert(
      fc.asyncProperty(method, path, query, authorization, org, contentType, extraHeader, body,
        async (m, p, q, auth, o, type, extra, payload) => {
          const headers: Record<string, string> = {};
          if (auth !== undefined) headers.authorization = auth === 'valid' ? `Bearer ${token}` : auth;
          if (o !== undefined) headers['x-organization-id'] = o;
          if (type !== undefined) headers['content-type'] = type;
          if (extra !== null) headers[extra[0]] = extra[1];
          const exchange = await send({ method: m, path: `${p}${q}`, headers }, payload);
          expectJsonAnswer(exchange, m, p);
        }),
      { numRuns: 300 },
    );
    expect(internalErrors).toEqual([]);
  }, 30_000);

  it('raw bytes after a request line get a JSON answer below 500, or none', async () => {
    const requestStart = fc.constantFrom('GET /v1/market/quotes?symbols=EURUSD HTTP/1.1\r\n', 'POST /v1/auth/token HTTP/1.1\r\n', 'POST /auth/cli-login HTTP/1.1\r\n', '');
    const bytes = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.array(fc.oneof(printable(40), fc.constantFrom('\r\n', '\r', '\n', ':', 'Content-Length: 5', 'Transfer-Encoding: chunked', '\r\n\r\n', '0\r\n', '\x00')), { maxLength: 20 })
        .map((parts) => parts.join('')),
    );
    await fc.assert(
      fc.asyncProperty(requestStart, bytes, async (start, rest) => {
        const raw = await rawExchange(sb.port, Buffer.from(start + rest, 'utf8'), { endAfterWrite: true, timeoutMs: 2000 });
        if (raw === '') return; // nothing that looked like a request: the server just closes
        const response = parseRawResponse(raw);
        expect(response, JSON.stringify(raw.slice(0, 300))).toBeDefined();
        expect(response!.status).toBeLessThan(500);
        expect(response!.headers['content-type']).toBe('application/json; charset=utf-8');
        const json: unknown = JSON.parse(response!.body);
        // Answered at the socket (the envelope) or by the route (RFC 6749's shape on the token endpoint).
        if (response!.status >= 400) expect(envelopeCode(json) ?? oauthErrorCode(json)).toBeDefined();
      }),
      { numRuns: 150 },
    );
    expect(internalErrors).toEqual([]);
  }, 30_000);
});
