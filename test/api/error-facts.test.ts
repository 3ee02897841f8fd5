// Errors carry facts a program can act on, not only sentences: the option refused, the operation,
// the attempts, the service's own code and words, the limit it stated, the wait past maxWaitMs, why
// a response was refused. And what the transport does is given by the endpoint, never recognised by
// its path: the hints come from the endpoint, the method reaches the pacer, the body's logging is the
// endpoint's to allow.
import { describe, expect, it } from 'vitest';
import {
  ApiError, createClient, InvalidRequestError, NetworkError, OptionsError, RateLimitError, ResponseError, ServerError, TimeoutError,
  type ClientOptions,
} from '../../src/api/index.js';
import { createPacer } from '../../src/api/pacer.js';
import { sendRequest } from '../../src/api/request.js';
import { createWaitBudget } from '../../src/api/wait-budget.js';
import { sendError, sendQuotes, useServers } from '../helpers/fault-server.js';

const servers = useServers();

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('OptionsError.option names what was refused', () => {
  it.each<[string, Partial<ClientOptions>, string, Record<string, unknown>]>([
    ['a negative timeoutMs', { timeoutMs: -1 }, 'timeoutMs', { expected: 'an integer from 1 to 2147483647', min: 1, max: 2_147_483_647 }],
    ['retries as text', { retries: '2' as never }, 'retries', { min: 0, max: 100 }],
    ['maxWaitMs NaN', { maxWaitMs: Number.NaN }, 'maxWaitMs', { min: 0, max: undefined }],
    ['maxResponseBytes 0', { maxResponseBytes: 0 }, 'maxResponseBytes', { min: 1 }],
    ['a userAgent with a line break', { userAgent: 'a\nb' }, 'userAgent', {}],
    ['onDebug not a function', { onDebug: 'yes' as never }, 'onDebug', {}],
    ['a dispatcher that is not one', { dispatcher: {} as never }, 'dispatcher', {}],
    ['an accessToken with a space', { accessToken: 'a b' }, 'accessToken', {}],
    ['an organizationId of the wrong form', { organizationId: 'demo' }, 'organizationId', {}],
    ['allowInsecureHttp as text', { allowInsecureHttp: 'yes' as never }, 'allowInsecureHttp', {}],
    ['a baseUrl that is not a URL', { baseUrl: 'not a url' }, 'baseUrl', {}],
    ['plain http to another machine', { baseUrl: 'http://api.example.test' }, 'baseUrl', { code: 'INSECURE_HTTP' }],
    ['a signal that is a string', { signal: 'abc' as never }, 'signal', { message: 'signal must be an AbortSignal, not a string' }],
    ['a signal that is an empty object', { signal: {} as never }, 'signal', { message: 'signal must be an AbortSignal, not an object' }],
  ])('createClient with %s', (_name, options, option, facts) => {
    const error = thrown(() => createClient({ baseUrl: 'https://example.com', ...options }));
    expect(error).toBeInstanceOf(OptionsError);
    expect(error).toMatchObject({ option, operation: undefined, ...facts });
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['no symbols', { symbols: [] }, 'symbols'],
    ['a sparse symbols array', { symbols: new Array(3) }, 'symbols'],
    ['symbols with a hole among them', { symbols: ['EURUSD', , 'AAPL'] }, 'symbols'], // eslint-disable-line no-sparse-arrays
    ['batchSize 0', { symbols: ['EURUSD'], batchSize: 0 }, 'batchSize'],
    ['concurrency 65', { symbols: ['EURUSD'], concurrency: 65 }, 'concurrency'],
    ['a venue with a control', { symbols: ['EURUSD'], venue: 'X\u001b' }, 'venue'],
    ['onProgress not a function', { symbols: ['EURUSD'], onProgress: 1 }, 'onProgress'],
    ['an organizationId of the wrong form', { symbols: ['EURUSD'], organizationId: 'demo' }, 'organizationId'],
  ])('getQuotes with %s: rejected with option %j and operation getQuotes, nothing sent', async (_name, input, option) => {
    const api = await servers.start((req, res) => sendQuotes(req, res));
    const client = createClient({ baseUrl: api.url, accessToken: 'tok', organizationId: 'org_demo' });
    const error = await client.getQuotes(input as never).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OptionsError);
    expect(error).toMatchObject({ option, operation: 'getQuotes' });
    expect(api.requests).toHaveLength(0);
  });

  it('a sparse array says which slots are empty, and is never read as no symbols at all', async () => {
    const client = createClient({ baseUrl: 'https://example.com', accessToken: 'tok', organizationId: 'org_demo' });
    await expect(client.getQuotes({ symbols: new Array(3) })).rejects.toMatchObject({
      message: 'invalid symbols in symbols: an empty slot (at 0), an empty slot (at 1), an empty slot (at 2)',
    });
  });

  it.each<[string, () => Promise<unknown>, string, string]>([
    ['an apiKey without a dot', () => createClient({ baseUrl: 'https://example.com' }).cliLogin({ apiKey: 'nodot', organizationId: 'org_demo' }), 'apiKey', 'cliLogin'],
    ['an organizationId of the wrong form', () => createClient({ baseUrl: 'https://example.com' }).cliLogin({ apiKey: 'a.b', organizationId: 'x' }), 'organizationId', 'cliLogin'],
    ['no clientSecret', () => createClient({ baseUrl: 'https://example.com' }).clientCredentials({ clientId: 'demo', clientSecret: '' }), 'clientSecret', 'clientCredentials'],
    ['a scope that is not text', () => createClient({ baseUrl: 'https://example.com' }).clientCredentials({ clientId: 'demo', clientSecret: 's', scope: 1 as never }), 'scope', 'clientCredentials'],
  ])('%s: option and operation', async (_name, call, option, operation) => {
    await expect(call()).rejects.toMatchObject({ name: 'OptionsError', option, operation });
  });
});

describe('an aborted signal', () => {
  it('getQuotes sends nothing and rejects with the library\'s AbortError', async () => {
    const api = await servers.start((req, res) => sendQuotes(req, res));
    const client = createClient({ baseUrl: api.url, accessToken: 'tok', organizationId: 'org_demo', signal: AbortSignal.abort() });
    await expect(client.getQuotes({ symbols: ['EURUSD'] })).rejects.toMatchObject({ name: 'AbortError', code: 'INTERRUPTED' });
    await expect(client.cliLogin({ apiKey: 'demo.demo-secret', organizationId: 'org_demo' })).rejects.toMatchObject({ name: 'AbortError' });
    await expect(client.clientCredentials({ clientId: 'demo', clientSecret: 'demo-secret' })).rejects.toMatchObject({ name: 'AbortError' });
    expect(api.requests).toHaveLength(0);
  });

  it('with a token source: the source is not asked', async () => {
    let asked = 0;
    const client = createClient({ baseUrl: 'https://example.com', organizationId: 'org_demo', signal: AbortSignal.abort(), accessToken: () => String(++asked) });
    await expect(client.getQuotes({ symbols: ['EURUSD'] })).rejects.toMatchObject({ name: 'AbortError' });
    expect(asked).toBe(0);
  });
});

describe('the facts of a refusal', () => {
  it('a 400 stating the most symbols a request takes: maxSymbols, the service\'s code and words, the operation', async () => {
    const api = await servers.start((_req, res) => res.writeHead(400, { 'content-type': 'application/json' })
      .end('{"error":{"code":"TOO_MANY_SYMBOLS","message":"too many symbols: at most 10 distinct symbols per request"}}'));
    const client = createClient({ baseUrl: api.url, accessToken: 'tok', organizationId: 'org_demo' });
    const error = await client.getQuotes({ symbols: ['EURUSD'], batchSize: 50 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error).toMatchObject({
      status: 400, code: 'TOO_MANY_SYMBOLS', serviceCode: 'TOO_MANY_SYMBOLS', serviceMessage: 'too many symbols: at most 10 distinct symbols per request',
      maxSymbols: 10, operation: 'getQuotes', method: 'GET', attempts: 1,
    });
  });

  it('a 503 asking for longer than maxWaitMs: the wait asked, the budget, the attempts', async () => {
    const api = await servers.start((_req, res) => sendError(res, 503, 'UNAVAILABLE', { 'retry-after': '120' }));
    const client = createClient({ baseUrl: api.url, accessToken: 'tok', organizationId: 'org_demo', maxWaitMs: 2000 });
    const error = await client.getQuotes({ symbols: ['EURUSD'] }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 503, retryAfterMs: 120_000, maxWaitMs: 2000, attempts: 1, serviceCode: 'UNAVAILABLE', serviceMessage: 'fault server says UNAVAILABLE' });
  });

  it('a 429 within maxWaitMs, retried: no maxWaitMs, attempts counted', async () => {
    const api = await servers.start((_req, res) => sendError(res, 429, 'RATE_LIMITED', { 'retry-after': '0' }));
    const client = createClient({ baseUrl: api.url, accessToken: 'tok', organizationId: 'org_demo', retries: 2 });
    const error = await client.getQuotes({ symbols: ['EURUSD'] }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, attempts: 3, maxWaitMs: undefined, plan: undefined });
  });

  it.each<[string, Parameters<typeof servers.start>[0], Partial<ClientOptions>, Record<string, unknown>]>([
    ['a body past maxResponseBytes', (req, res) => sendQuotes(req, res), { maxResponseBytes: 10 }, { problem: 'too-large', maxResponseBytes: 10, status: 200 }],
    ['a redirect', (_req, res) => res.writeHead(302, { location: 'https://elsewhere.test/x?y=1' }).end(), {}, { problem: 'redirect', location: 'https://elsewhere.test/x', status: 302 }],
    ['an HTML page', (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>'), {}, { problem: 'html' }],
    ['an empty body', (_req, res) => res.writeHead(200).end(), {}, { problem: 'empty' }],
    ['a body that is not JSON', (_req, res) => res.writeHead(200).end('{"data": ['), {}, { problem: 'not-json' }],
    ['JSON that is no quotes', (_req, res) => res.writeHead(200).end('{"quotes": []}'), {}, { problem: 'unexpected' }],
  ])('a ResponseError for %s says why', async (_name, handler, options, facts) => {
    const api = await servers.start(handler);
    const client = createClient({ baseUrl: api.url, accessToken: 'tok', organizationId: 'org_demo', ...options });
    const error = await client.getQuotes({ symbols: ['EURUSD'] }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResponseError);
    expect(error).toMatchObject({ operation: 'getQuotes', method: 'GET', ...facts });
  });

  it('a timeout: the deadline it had; a refused connection: the operation and the attempts', async () => {
    const silent = await servers.start(() => {});
    const slow = createClient({ baseUrl: silent.url, accessToken: 'tok', organizationId: 'org_demo', timeoutMs: 100 });
    await expect(slow.getQuotes({ symbols: ['EURUSD'] })).rejects.toMatchObject({ name: 'TimeoutError', timeoutMs: 100, operation: 'getQuotes' });
    await silent.close();
    const gone = createClient({ baseUrl: silent.url, retries: 0 });
    const error = await gone.cliLogin({ apiKey: 'demo.demo-secret', organizationId: 'org_demo' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).not.toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ code: 'ECONNREFUSED', operation: 'cliLogin', method: 'POST', attempts: 1, proxyStatus: undefined });
  });
});

describe('the hints come from the endpoint', () => {
  const tokenResponse = (status: number, code: string) => servers.start((_req, res) => sendError(res, status, code));

  it.each([400, 401, 403, 429])('the token endpoints\' %i names neither symbols nor market.read', async (status) => {
    const api = await tokenResponse(status, 'NO');
    const client = createClient({ baseUrl: api.url, retries: 0 });
    for (const call of [client.cliLogin({ apiKey: 'demo.demo-secret', organizationId: 'org_demo' }), client.clientCredentials({ clientId: 'demo', clientSecret: 's' })]) {
      const error = (await call.catch((caught: unknown) => caught)) as ApiError;
      expect(error).toBeInstanceOf(ApiError);
      expect(error.hint).toBeDefined();
      expect(error.hint).not.toMatch(/symbol|market\.read|batchSize/);
    }
  });

  it('getQuotes\' 403 names the scope it needs, and the organization', async () => {
    const api = await tokenResponse(403, 'FORBIDDEN');
    const client = createClient({ baseUrl: api.url, accessToken: 'tok', organizationId: 'org_acme' });
    await expect(client.getQuotes({ symbols: ['EURUSD'] })).rejects.toMatchObject({ hint: expect.stringContaining('market.read scope or access to org_acme') });
  });
});

describe('the transport does what the request says, whatever its path', () => {
  const request = (url: string, method: 'GET' | 'POST', logResponseBody?: boolean) => ({
    method, url: new URL(url), headers: {}, idempotent: method === 'GET', operation: 'test', ...(logResponseBody === undefined ? {} : { logResponseBody }),
    ...(method === 'POST' ? { body: '{}' } : {}),
  });

  it.each<[string, string, boolean | undefined, boolean]>([
    ['a quotes path, body allowed', '/v1/market/quotes', undefined, true],
    ['another path, body not allowed', '/v1/market/venues', false, false],
    ['another path, body allowed', '/v1/market/venues', undefined, true],
  ])('%s: the 2xx body in the debug lines %s', async (_name, path, logResponseBody, shown) => {
    const api = await servers.start((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[{"mic":"XNAS"}]}'));
    const lines: string[] = [];
    await sendRequest({ onDebug: (line) => lines.push(line) }, request(`${api.url}${path}`, 'GET', logResponseBody));
    expect(lines.includes('< {"data":[{"mic":"XNAS"}]}')).toBe(shown);
  });

  it('the method is the request\'s: a POST goes out as a POST', async () => {
    const api = await servers.start((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    await sendRequest({}, request(`${api.url}/v1/market/quotes`, 'POST'));
    expect(api.requests.map((seen) => seen.method)).toEqual(['POST']);
  });

  it('a pacer\'s refusal names the method, URL and operation it was made for', async () => {
    const now = () => 0;
    const pacer = createPacer({ now, waitBudget: createWaitBudget(1000, now), progress: { done: 0, total: 5 } },
      { method: 'POST', url: 'http://x/v1/orders', operation: 'placeOrders' });
    await pacer.acquire();
    pacer.release({ status: 200, rateLimit: { limit: 1, remaining: 0, resetSeconds: 60, windowSeconds: 60 }, retryAfterMs: undefined });
    await expect(pacer.acquire()).rejects.toMatchObject({ name: 'RateLimitError', method: 'POST', url: 'http://x/v1/orders', operation: 'placeOrders', hint: 'allow a maxWaitMs of at least 4m' });
  });
});
