// Library errors speak of the library: messages and hints name its options by their identifiers
// (maxWaitMs, batchSize, timeoutMs, baseUrl...), never a command, a flag or an environment variable
// of the CLI. Both error shapes of a token endpoint are read, and a quote with a key twice is refused.
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import {
  AuthError, createClient, InvalidRequestError, MktError, RateLimitError, ResponseError, type ClientOptions,
} from '../../src/api/index.js';
import { sendError, startFaultServer, useServers, type FaultHandler } from '../helpers/fault-server.js';
import { startTestSandbox } from '../helpers/sandbox.js';
import { DEMO } from '../../src/sandbox/index.js';

const { closeLater } = useServers();

async function clientFor(handler: FaultHandler, options: Partial<ClientOptions> = {}) {
  const server = await startFaultServer(handler);
  closeLater(server);
  return { server, client: createClient({ baseUrl: server.url, accessToken: 'tok_1234', organizationId: 'org_demo', ...options }) };
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(typeof body === 'string' ? body : JSON.stringify(body));
};

/**
 * What the CLI's vocabulary looks like: commands, flags, its variables, and the proxy variables it
 * reads (the library reads none: its dispatcher decides). Node's own NODE_EXTRA_CA_CERTS may appear.
 */
const CLI_WORDS = /\bmkt\b|(^|\s|\()--[a-z]|\bMKT_|HTTPS?_PROXY|NO_PROXY/;

async function failure(call: Promise<unknown>): Promise<MktError> {
  const error = await call.then(() => undefined, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(MktError);
  return error as MktError;
}

describe('messages and hints name the library options, never the CLI', () => {
  it.each<[string, FaultHandler, Partial<ClientOptions>, RegExp]>([
    ['400', (_req, res) => sendError(res, 400, 'INVALID_REQUEST'), {}, /organizationId/],
    ['401', (_req, res) => sendError(res, 401, 'UNAUTHORIZED'), {}, /accessToken/],
    ['403', (_req, res) => sendError(res, 403, 'FORBIDDEN'), {}, /organizationId/],
    ['404', (_req, res) => sendError(res, 404, 'NOT_FOUND'), {}, /baseUrl/],
    ['429 without Retry-After', (_req, res) => sendError(res, 429, 'RATE_LIMITED'), { retries: 0 }, /batchSize.*concurrency/],
    ['429 asking for longer than maxWaitMs', (_req, res) => sendError(res, 429, 'RATE_LIMITED', { 'retry-after': '120' }), { maxWaitMs: 2000 }, /maxWaitMs \(2s\)/],
    ['503 asking for longer than maxWaitMs', (_req, res) => sendError(res, 503, 'UNAVAILABLE', { 'retry-after': '120' }), { maxWaitMs: 2000 }, /maxWaitMs \(2s\)/],
    ['a redirect', (_req, res) => res.writeHead(302, { location: 'https://elsewhere.test/' }).end(), {}, /baseUrl/],
    ['an HTML page', (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>'), {}, /baseUrl/],
    ['a body that is not JSON', (_req, res) => json(res, 200, '{"data": ['), {}, /baseUrl/],
    ['a body too large', (_req, res) => json(res, 200, `{"data":[${' '.repeat(2048)}]}`), { maxResponseBytes: 1024 }, /batchSize/],
    ['a server that never answers', () => {}, { timeoutMs: 200 }, /timeoutMs/],
  ])('%s', async (_name, handler, options, names) => {
    const { client } = await clientFor(handler, options);
    const error = await failure(client.getQuotes({ symbols: ['EURUSD'] }));
    const words = `${error.message}\n${error.hint ?? ''}`;
    expect(words).toMatch(names);
    expect(words).not.toMatch(CLI_WORDS);
  });

  it('a refused connection: a hint about baseUrl and the dispatcher', async () => {
    const { server, client } = await clientFor(() => {}, { retries: 0 });
    await server.close();
    const refused = await failure(client.getQuotes({ symbols: ['EURUSD'] }));
    expect(refused).toMatchObject({ code: 'ECONNREFUSED', hint: 'check baseUrl and that the service is running, and the proxy of the dispatcher if it has one' });
    expect(`${refused.message}\n${refused.hint}`).not.toMatch(CLI_WORDS);
  });

  it('the source of src/api holds none of the CLI vocabulary in a message', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const dir = new URL('../../src/api/', import.meta.url);
    const offending: string[] = [];
    for (const file of readdirSync(dir).filter((name) => name.endsWith('.ts') && name !== 'undici.ts')) {
      const strings = readFileSync(new URL(file, dir), 'utf8').split('\n').filter((line) => !/^\s*(\/\/|\*|\/\*\*)/.test(line))
        .flatMap((line) => line.match(/'[^']*'|`[^`]*`/g) ?? []);
      for (const text of strings) if (CLI_WORDS.test(text)) offending.push(`${file}: ${text}`);
    }
    expect(offending).toEqual([]);
  });
});

describe('the token endpoint, in both error shapes', () => {
  it.each([
    ["the service's envelope", 401, { error: { code: 'UNAUTHORIZED', message: 'invalid client credentials', oauth_error: 'invalid_client' }, request_id: 'req_1' },
      { code: 'UNAUTHORIZED', oauthError: 'invalid_client', requestId: 'req_1', message: 'not authenticated (401 UNAUTHORIZED): invalid client credentials' }],
    ['RFC 6749 §5.2 with the service code', 401, { error: 'invalid_client', error_description: 'invalid client credentials', code: 'UNAUTHORIZED', request_id: 'req_2' },
      { code: 'UNAUTHORIZED', oauthError: 'invalid_client', requestId: 'req_2', message: 'not authenticated (401 UNAUTHORIZED): invalid client credentials' }],
    ['RFC 6749 §5.2 alone', 400, { error: 'unsupported_grant_type', error_description: 'only client_credentials' },
      { code: 'unsupported_grant_type', oauthError: 'unsupported_grant_type', requestId: undefined, message: 'the service rejected the request (400 unsupported_grant_type): only client_credentials' }],
  ] as const)('%s', async (_name, status, body, expected) => {
    const { client } = await clientFor((_req, res) => json(res, status, body));
    const error = await failure(client.clientCredentials({ clientId: 'demo', clientSecret: 'secret' }));
    expect(error).toBeInstanceOf(status === 401 ? AuthError : InvalidRequestError);
    expect(error).toMatchObject(expected);
    expect(error.hint).not.toMatch(/symbols/);
  });

  it('the sandbox refusing a wrong secret', async () => {
    const sandbox = await startTestSandbox();
    closeLater(sandbox);
    const client = createClient({ baseUrl: sandbox.url });
    const error = await failure(client.clientCredentials({ clientId: DEMO.clientId, clientSecret: 'wrong-secret' }));
    expect(error).toBeInstanceOf(AuthError);
    expect(error).toMatchObject({ code: 'UNAUTHORIZED', oauthError: 'invalid_client', requestId: expect.stringMatching(/^req_/) });
  });
});

describe('a quote with a member name twice', () => {
  it('is refused as an invalid response, naming the position, not last-wins', async () => {
    const body = '{"data":[{"symbol":"EURUSD","bid":"1.1","ask":"1.2","mid":"1.15","timestamp":"2026-01-01T00:00:00Z","symbol":"AAPL"}]}';
    const { client } = await clientFor((_req, res) => json(res, 200, body));
    const error = await failure(client.getQuotes({ symbols: ['EURUSD'] }));
    expect(error).toBeInstanceOf(ResponseError);
    expect(error).toMatchObject({ code: 'INVALID_RESPONSE', status: 200 });
    expect(error.message).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/v1\/market\/quotes returned a body that is not valid JSON \(a member name appears twice in one object, at position \d+\)/);
    expect(error.message).not.toContain('AAPL');
  });
});

describe('RateLimitError', () => {
  it('after a 429: status 429, no plan', async () => {
    const { client } = await clientFor((_req, res) => sendError(res, 429, 'RATE_LIMITED', { 'retry-after': '120' }), { maxWaitMs: 1000 });
    const error = await failure(client.getQuotes({ symbols: ['EURUSD'] }));
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, plan: undefined, retryAfterMs: 120_000 });
  });
});
