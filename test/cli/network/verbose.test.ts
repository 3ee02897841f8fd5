// --verbose and MKT_DEBUG=1: method, URL, status, timing, attempt and rate-limit headers on stderr,
// with every secret redacted, in headers and bodies alike. And when a wait is announced.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { redactBody, redactHeaders } from '../../../src/api/redact.js';
import { DEMO } from '../../../src/sandbox/index.js';
import { sendError, sendQuotes, useServers } from '../../helpers/fault-server.js';
import { skippingTime } from '../../helpers/fake-time.js';
import { startTestSandbox } from '../../helpers/sandbox.js';
import { API_KEY, CLIENT_SECRET, ISSUED_TOKEN, quotesEnv, TOKEN, TOKEN_RESPONSE } from '../../helpers/quotes-env.js';
import { runCli } from '../../helpers/cli.js';

const { start: server, closeLater } = useServers();

const SECRETS = [TOKEN, API_KEY, API_KEY.split('.')[1]!, CLIENT_SECRET, ISSUED_TOKEN];

function expectNoSecrets(...outputs: string[]): void {
  for (const secret of SECRETS) for (const output of outputs) expect(output).not.toContain(secret);
}

const RATE_HEADERS = { 'RateLimit-Limit': '60', 'RateLimit-Remaining': '41', 'RateLimit-Reset': '17', 'X-Request-Id': 'req_123' };

describe('--verbose and MKT_DEBUG=1', () => {
  it.each([
    ['--verbose', ['--verbose'], {}],
    ['-v', ['-v'], {}],
    ['MKT_DEBUG=1', [], { MKT_DEBUG: '1' }],
  ])('quotes with %s: request, status, timing, attempt, rate-limit headers; the token redacted', async (_name, flags, env) => {
    const api = await server((req, res) => sendQuotes(req, res, RATE_HEADERS));
    const run = await runCli(['quotes', 'EURUSD', ...flags], { env: quotesEnv(api.url, env) });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`* GET ${api.url}/v1/market/quotes?symbols=EURUSD (attempt 1 of 3)\n`);
    expect(run.stderr).toContain('> authorization: Bearer [redacted]\n');
    expect(run.stderr).toContain('> x-organization-id: org_demo\n');
    expect(run.stderr).toMatch(/< 200 OK in \d+ ms, \d+ bytes\n/);
    expect(run.stderr).toContain('< ratelimit-limit: 60\n< ratelimit-remaining: 41\n< ratelimit-reset: 17\n');
    expect(run.stderr).toContain('< x-request-id: req_123\n');
    expect(api.requests[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expectNoSecrets(run.stderr, run.stdout);
  });

  it('a retried request shows each attempt, the wait and the 429 body', async () => {
    const api = await server((req, res, { index }) => index === 0
      ? sendError(res, 429, 'RATE_LIMITED', { 'retry-after': '1', 'RateLimit-Remaining': '0', 'RateLimit-Reset': '1' })
      : sendQuotes(req, res));
    const clock = skippingTime();
    const run = await runCli(['quotes', 'EURUSD', '--verbose'], { env: quotesEnv(api.url), now: clock.now, sleep: clock.sleep });
    expect(run.code).toBe(0);
    expect(clock.sleeps).toEqual([1000]);
    expect(run.stderr).toMatch(/< 429 Too Many Requests in \d+ ms/);
    expect(run.stderr).toContain('< retry-after: 1\n');
    expect(run.stderr).toContain('< {"error":{"code":"RATE_LIMITED","message":"fault server says RATE_LIMITED"}}\n');
    expect(run.stderr).toContain('* waiting 1000 ms before attempt 2 (rate limited)\n');
    expect(run.stderr).toContain('rate limited; retrying in 1s (1/2)\n');
    expect(run.stderr).toContain('(attempt 2 of 3)');
    expectNoSecrets(run.stderr, run.stdout);
  });

  it('login: the API key is redacted in the request body, the token in the response', async () => {
    const api = await server((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(TOKEN_RESPONSE));
    const run = await runCli(['login', '--verbose'], { env: { MKT_BASE_URL: api.url, MKT_API_KEY: API_KEY, MKT_ORG: 'org_demo' } });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`* POST ${api.url}/auth/cli-login (attempt 1 of at most 3)\n`);
    expect(run.stderr).toContain('> {"api_key":"[redacted]","organization_id":"org_demo"}\n');
    expect(run.stderr).toContain('"access_token":"[redacted]"');
    expect(run.stderr).toMatch(/< 200 OK in \d+ ms/);
    expect(JSON.parse(api.requests[0]!.body)).toEqual({ api_key: API_KEY, organization_id: 'org_demo' });
    expectNoSecrets(run.stderr, run.stdout);
  });

  it('token: client_secret redacted, and a token under any of its names', async () => {
    const answer = JSON.stringify({ data: { token: ISSUED_TOKEN, token_type: 'Bearer', expires_in: 60 }, refresh_token: ISSUED_TOKEN });
    const api = await server((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(answer));
    const run = await runCli(['token', '--verbose'], { env: { MKT_BASE_URL: api.url, MKT_CLIENT_ID: 'demo', MKT_CLIENT_SECRET: CLIENT_SECRET } });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('> {"client_id":"demo","client_secret":"[redacted]","grant_type":"client_credentials"}\n');
    expect(run.stderr).toContain('"token":"[redacted]"');
    expectNoSecrets(run.stderr, run.stdout);
  });

  it('an error body that is not JSON is shown by size only (it could echo anything)', async () => {
    const api = await server((_req, res) => res.writeHead(502, { 'content-type': 'text/html' }).end(`<html>upstream said ${TOKEN}</html>`));
    const run = await runCli(['quotes', 'EURUSD', '--verbose', '--retries', '0'], { env: quotesEnv(api.url) });
    expect(run.code).toBe(7);
    expect(run.stderr).toMatch(/< \(\d+ bytes of text\/html, not shown\)/);
    expectNoSecrets(run.stderr, run.stdout);
  });

  it('against the sandbox: login, token and quotes with --verbose never print a secret', async () => {
    const sandbox = closeLater(await startTestSandbox());
    const env = { MKT_BASE_URL: sandbox.url, MKT_ORG: DEMO.org, MKT_DEBUG: '1' };
    const login = await runCli(['login', '--verbose'], { env: { ...env, MKT_API_KEY: DEMO.apiKey } });
    expect(login.code).toBe(0);
    const stored = JSON.parse(fs.readFileSync(login.deps.config.path, 'utf8')) as { profiles: Record<string, { token: { access_token: string } }> };
    const loginToken = Object.values(stored.profiles)[0]!.token.access_token;
    const quotes = await runCli(['quotes', 'EURUSD', '--verbose'], { env, configDir: login.configDir });
    expect(quotes.code).toBe(0);
    expect(quotes.stderr).toMatch(/< ratelimit-remaining: \d+\n/);
    const token = await runCli(['token', '--verbose'], { env: { ...env, MKT_CLIENT_ID: DEMO.clientId, MKT_CLIENT_SECRET: DEMO.clientSecret }, configDir: login.configDir });
    expect(token.code).toBe(0);
    const minted = (JSON.parse(fs.readFileSync(login.deps.config.path, 'utf8')) as typeof stored);
    const clientToken = Object.values(minted.profiles)[0]!.token.access_token;
    for (const secret of [DEMO.apiKey, DEMO.clientSecret, loginToken, clientToken]) {
      for (const run of [login, quotes, token]) {
        expect(run.stderr).not.toContain(secret);
        expect(run.stdout).not.toContain(secret);
      }
    }
  });
});

describe('secrets a server echoes back, through the CLI with --verbose', () => {
  it('a 400 quoting the Authorization header, and x-request-id: Bearer <token>', async () => {
    const api = await server((req, res) => {
      res.writeHead(400, { 'content-type': 'application/json', 'x-request-id': `${req.headers.authorization}` })
        .end(JSON.stringify({ error: { code: 'INVALID_REQUEST', message: `bad token ${req.headers.authorization}` } }));
    });
    const run = await runCli(['quotes', 'EURUSD', '--verbose'], { env: quotesEnv(api.url) });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('bad token Bearer [redacted]');
    expect(run.stderr).toContain('< x-request-id: Bearer [redacted]\n');
    expectNoSecrets(run.stderr, run.stdout);
  });

  it('login against a server that echoes the body in its error and its debug lines', async () => {
    const api = await server((_req, res, { body }) => {
      res.writeHead(401, { 'content-type': 'text/plain' }).end(`unknown key in ${body}`);
    });
    const run = await runCli(['login', '--verbose'], { env: { MKT_BASE_URL: api.url, MKT_API_KEY: API_KEY, MKT_ORG: 'org_demo' } });
    expect(run.code).toBe(4);
    expectNoSecrets(run.stderr, run.stdout);
  });
});

describe('announcing waits', () => {
  it.each([
    ['a terminal', { stderrIsTTY: true }, [], true],
    ['a pipe', { stderrIsTTY: false }, [], false],
    ['a pipe with --verbose', { stderrIsTTY: false }, ['--verbose'], true],
  ] as const)('on %s: announced %s', async (_name, io, flags, announced) => {
    const api = await server((req, res, { index }) => index === 0 ? sendError(res, 429, 'RATE_LIMITED', { 'retry-after': '1' }) : sendQuotes(req, res));
    // The wait is slept on a clock that skips it.
    const clock = skippingTime();
    const run = await runCli(['quotes', 'EURUSD', ...flags], { env: quotesEnv(api.url), ...io, now: clock.now, sleep: clock.sleep });
    expect(run.code).toBe(0);
    expect(clock.sleeps).toEqual([1000]);
    if (announced) expect(run.stderr).toContain('rate limited; retrying in 1s (1/2)\n');
    else expect(run.stderr).toBe('');
  });
});

describe('redaction', () => {
  it.each([
    [{ Authorization: 'Bearer abc.def' }, { Authorization: 'Bearer [redacted]' }],
    [{ authorization: 'Basic dXNlcjpwYXNz' }, { authorization: 'Basic [redacted]' }],
    [{ 'Proxy-Authorization': 'Basic dXNlcjpwYXNz' }, { 'Proxy-Authorization': 'Basic [redacted]' }],
    [{ 'x-api-key': 'k1', cookie: 'a=b', 'set-cookie': 'c=d' }, { 'x-api-key': '[redacted]', cookie: '[redacted]', 'set-cookie': '[redacted]' }],
    [{ 'x-organization-id': 'org_demo', accept: 'application/json' }, { 'x-organization-id': 'org_demo', accept: 'application/json' }],
  ])('headers %j', (headers, expected) => {
    expect(redactHeaders(headers)).toEqual(expected);
  });

  it.each([
    ['{"api_key":"a.b","organization_id":"org_demo"}', 'application/json', '{"api_key":"[redacted]","organization_id":"org_demo"}'],
    ['{"data":{"Access_Token":"x","nested":[{"token":"y"},{"client_secret":"z"}]}}', 'application/json',
      '{"data":{"Access_Token":"[redacted]","nested":[{"token":"[redacted]"},{"client_secret":"[redacted]"}]}}'],
    ['{"refresh_token":"r","id_token":"i","scope":"market.read"}', undefined, '{"refresh_token":"[redacted]","id_token":"[redacted]","scope":"market.read"}'],
    ['grant_type=client_credentials&client_id=demo&client_secret=s3', 'application/x-www-form-urlencoded',
      'grant_type=client_credentials&client_id=demo&client_secret=%5Bredacted%5D'],
    ['<html>token=abc</html>', 'text/html', '(22 bytes of text/html, not shown)'],
    ['', 'application/json', '(empty body)'],
  ])('body %s', (body, type, expected) => {
    expect(redactBody(body, type)).toBe(expected);
  });
});
