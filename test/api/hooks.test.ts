// Hooks, shaped like ky's: beforeRequest sees each attempt's headers as a Headers it may change,
// afterResponse sees each attempt's status and headers; both run on every attempt, retries included;
// a hook that throws fails the call with what it threw, and nothing more is sent.
import { describe, expect, it } from 'vitest';
import { createClient, type ClientOptions, type HookRequest, type HookResponse } from '../../src/api/index.js';
import { createClientWith } from '../../src/api/internal.js';
import { sendError, sendQuotes, useServers } from '../helpers/fault-server.js';

const servers = useServers();
const token = { accessToken: 'tok_hooks', organizationId: 'org_demo' };
/** A client whose retries wait no real time. */
const retrying = (options: ClientOptions) => createClientWith(options, { sleep: async () => {} });

describe('beforeRequest', () => {
  it('adds a header the server sees, on every attempt, and may remove one', async () => {
    const api = await servers.start((req, res, { index }) => index === 0 ? sendError(res, 503, 'UNAVAILABLE') : sendQuotes(req, res));
    const seen: HookRequest[] = [];
    const client = retrying({
      baseUrl: api.url, ...token, retries: 1,
      hooks: {
        beforeRequest: [
          (request) => {
            seen.push(request);
            request.headers.set('x-trace-id', `trace-${request.attempt}`);
          },
          async (request) => {
            await Promise.resolve();
            request.headers.delete('accept');
          },
        ],
      },
    });
    const result = await client.getQuotes({ symbols: ['EURUSD'] });
    expect(result.data.map((quote) => quote.symbol)).toEqual(['EURUSD']);
    expect(api.requests.map((request) => request.headers['x-trace-id'])).toEqual(['trace-1', 'trace-2']);
    expect(api.requests.map((request) => request.headers.accept)).toEqual([undefined, undefined]);
    // What the hook was shown: the request as it would go out, the token among its headers.
    expect(seen.map((request) => [request.method, request.operation, request.attempt])).toEqual([['GET', 'getQuotes', 1], ['GET', 'getQuotes', 2]]);
    expect(seen[0]!.url).toBe(`${api.url}/v1/market/quotes?symbols=EURUSD`);
    expect(seen[0]!.headers.get('authorization')).toBe('Bearer tok_hooks');
    expect(seen[0]!.headers.get('x-organization-id')).toBe('org_demo');
  });

  it('runs for the token requests too, with their operation', async () => {
    const api = await servers.answering(200, '{"access_token":"tok_issued","token_type":"Bearer","expires_in":60}');
    const operations: string[] = [];
    const client = createClient({ baseUrl: api.url, hooks: { beforeRequest: [(request) => void operations.push(`${request.method} ${request.operation}`)] } });
    await client.cliLogin({ apiKey: 'demo.demo-secret', organizationId: 'org_demo' });
    await client.clientCredentials({ clientId: 'demo', clientSecret: 'demo-secret' });
    expect(operations).toEqual(['POST cliLogin', 'POST clientCredentials']);
  });

  it('a hook that throws fails the call with its error, and nothing is sent', async () => {
    const api = await servers.start((req, res) => sendQuotes(req, res));
    const failure = new Error('no trace id to give');
    const client = createClient({ baseUrl: api.url, ...token, hooks: { beforeRequest: [() => { throw failure; }] } });
    await expect(client.getQuotes({ symbols: ['EURUSD'] })).rejects.toBe(failure);
    expect(api.requests).toHaveLength(0);
  });

  it('a header value a Headers refuses fails the call, before anything is sent', async () => {
    const api = await servers.start((req, res) => sendQuotes(req, res));
    const client = createClient({ baseUrl: api.url, ...token, hooks: { beforeRequest: [(request) => request.headers.set('x-bad', 'a\nb')] } });
    await expect(client.getQuotes({ symbols: ['EURUSD'] })).rejects.toBeInstanceOf(TypeError);
    expect(api.requests).toHaveLength(0);
  });

  it('the headers a hook adds are redacted by name in debug lines', async () => {
    const api = await servers.start((req, res) => sendQuotes(req, res));
    const lines: string[] = [];
    const client = createClient({
      baseUrl: api.url, ...token, onDebug: (line) => lines.push(line),
      hooks: { beforeRequest: [(request) => request.headers.set('x-api-key', 'key-from-a-hook-1234')] },
    });
    await client.getQuotes({ symbols: ['EURUSD'] });
    expect(api.requests[0]!.headers['x-api-key']).toBe('key-from-a-hook-1234');
    expect(lines).toContain('> x-api-key: [redacted]');
    expect(lines.join('\n')).not.toContain('key-from-a-hook-1234');
  });
});

describe('afterResponse', () => {
  it('sees the status and headers of every attempt, the retried ones too', async () => {
    const api = await servers.start((req, res, { index }) => index === 0 ? sendError(res, 503, 'UNAVAILABLE', { 'x-request-id': 'req_1' }) : sendQuotes(req, res, { 'x-request-id': 'req_2' }));
    const seen: Array<[HookResponse, HookRequest]> = [];
    const client = retrying({ baseUrl: api.url, ...token, retries: 1, hooks: { afterResponse: [(response, request) => void seen.push([response, request])] } });
    await client.getQuotes({ symbols: ['EURUSD'] });
    expect(seen.map(([response, request]) => [response.status, response.headers.get('x-request-id'), response.method, request.attempt])).toEqual([
      [503, 'req_1', 'GET', 1], [200, 'req_2', 'GET', 2],
    ]);
    expect(seen[1]![0].url).toBe(`${api.url}/v1/market/quotes?symbols=EURUSD`);
  });

  it('a hook that throws fails the call with its error: no retry, and the body left unread ends quietly', async () => {
    const api = await servers.start((req, res) => sendQuotes(req, res));
    const failure = new Error('status not wanted');
    const client = createClient({ baseUrl: api.url, ...token, hooks: { afterResponse: [(response) => { if (response.status === 200) throw failure; }] } });
    await expect(client.getQuotes({ symbols: ['EURUSD'] })).rejects.toBe(failure);
    await expect(client.getQuotes({ symbols: ['AAPL'] })).rejects.toBe(failure);
    expect(api.requests).toHaveLength(2);
  });
});

describe('createClient checks the hooks', () => {
  it.each([
    ['not an object', 'yes'],
    ['a list that is not an array', { beforeRequest: () => {} }],
    ['a list holding something else', { afterResponse: ['log'] }],
    ['a hook of another name', { beforeRetry: [] }],
  ])('%s: an OptionsError naming hooks', (_name, hooks) => {
    expect(() => createClient({ baseUrl: 'https://example.com', hooks: hooks as never })).toThrow(expect.objectContaining({ name: 'OptionsError', option: 'hooks' }));
  });
});
