// Retries against real local servers: Retry-After in both forms, the --max-wait cap, 5xx, and the
// rule that the auth POSTs are retried only when nothing reached the server.
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from '../../../src/api/rate-limit-headers.js';
import { isRetryable, sendRequest } from '../../../src/api/request.js';
import { fakeTime, skippingTime } from '../../helpers/fake-time.js';
import { sendError, sendQuotes, startFaultServer, useServers, type FaultServer } from '../../helpers/fault-server.js';
import { API_KEY, CLIENT_SECRET, quotesEnv, TOKEN_RESPONSE } from '../../helpers/quotes-env.js';
import { runCli } from '../../helpers/cli.js';

const { start: server, closeLater } = useServers();

describe('429 and Retry-After', () => {
  // A fixed clock that moves only as the client sleeps: waits are exact, and cost no time.
  const NOW = Date.parse('2026-03-01T12:00:00Z');

  it('waits as Retry-After: 1 says, then succeeds', async () => {
    const api = await server((req, res, { index }) => index === 0 ? sendError(res, 429, 'RATE_LIMITED', { 'retry-after': '1' }) : sendQuotes(req, res));
    // From the present, as the quotes the server stamps: not a quote from the future.
    const clock = fakeTime(Date.now());
    const run = await runCli(['quotes', 'EURUSD'], { env: quotesEnv(api.url), now: clock.now, sleep: clock.sleep });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('EURUSD\t1.08505');
    expect(api.requests).toHaveLength(2);
    expect(clock.sleeps).toEqual([1000]);
  });

  it('waits as Retry-After: 1 says on the real clock too (the one real-time check of the wait)', async () => {
    const api = await server((req, res, { index }) => index === 0 ? sendError(res, 429, 'RATE_LIMITED', { 'retry-after': '1' }) : sendQuotes(req, res));
    const run = await runCli(['quotes', 'EURUSD'], { env: quotesEnv(api.url) });
    expect(run.code).toBe(0);
    expect(api.requests).toHaveLength(2);
    // A lower bound only, on the server's clock, with a few ms of timer slack: load cannot shorten a wait.
    expect(api.requests[1]!.at - api.requests[0]!.at).toBeGreaterThanOrEqual(990);
  });

  it('honours Retry-After as an HTTP-date', async () => {
    // 2 s ahead of the client's clock: far more than the first backoff (< 0.5 s).
    const api = await server((req, res, { index }) => index === 0
      ? sendError(res, 429, 'RATE_LIMITED', { 'retry-after': 'Sun, 01 Mar 2026 12:00:02 GMT' })
      : sendQuotes(req, res));
    const clock = fakeTime(NOW);
    const run = await runCli(['quotes', 'EURUSD'], { env: quotesEnv(api.url), now: clock.now, sleep: clock.sleep });
    expect(run.code).toBe(0);
    expect(api.requests).toHaveLength(2);
    expect(clock.sleeps).toEqual([2000]);
  });

  it('429 forever: exit 6 within --max-wait, saying when to try again', async () => {
    const api = await server((_req, res) => sendError(res, 429, 'RATE_LIMITED', { 'retry-after': '1' }));
    const clock = fakeTime(NOW);
    const run = await runCli(['quotes', 'EURUSD', '--max-wait', '2s'], { env: quotesEnv(api.url), now: clock.now, sleep: clock.sleep });
    expect(run.code).toBe(6);
    expect(api.requests).toHaveLength(3);
    expect(clock.sleeps).toEqual([1000, 1000]);
    expect(run.stderr).toMatch(/^error: rate limited \(429 RATE_LIMITED\) after 3 attempts\n/);
    // The third answer came at 12:00:02 by the client's clock.
    expect(run.stderr).toContain('hint: try again after 12:00:03 UTC (in 1s)');
    expect(run.stdout).toBe('');
  });

  it('429 without Retry-After: exponential backoff with full jitter, then exit 6', async () => {
    const api = await server((_req, res) => sendError(res, 429, 'RATE_LIMITED'));
    const clock = fakeTime(NOW);
    const run = await runCli(['quotes', 'EURUSD'], { env: quotesEnv(api.url), now: clock.now, sleep: clock.sleep, random: () => 0.5 });
    expect(run.code).toBe(6);
    expect(api.requests).toHaveLength(3);
    // Half of 0.5 s, then half of 1 s.
    expect(clock.sleeps).toEqual([250, 500]);
    expect(run.stderr).toContain('wait a minute, or send fewer requests');
  });

  it('a Retry-After longer than --max-wait fails at once with the time to try again', async () => {
    const api = await server((_req, res) => sendError(res, 429, 'RATE_LIMITED', { 'retry-after': '120' }));
    const clock = fakeTime(NOW);
    const run = await runCli(['quotes', 'EURUSD', '--max-wait', '2s'], { env: quotesEnv(api.url), now: clock.now, sleep: clock.sleep });
    expect(run.code).toBe(6);
    expect(api.requests).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
    expect(run.stderr).toMatch(/^error: rate limited \(429 RATE_LIMITED\) after 1 attempt; the service asks to wait 2m, longer than --max-wait 2s\n/);
    expect(run.stderr).toContain('hint: try again after 12:02:00 UTC (in 2m)');
  });

  it('--json errors carry the 429 as one JSON object', async () => {
    const api = await server((_req, res) => sendError(res, 429, 'RATE_LIMITED', { 'retry-after': '600' }));
    const run = await runCli(['quotes', 'EURUSD', '--json'], { env: quotesEnv(api.url) });
    expect(run.code).toBe(6);
    const error = JSON.parse(run.stderr) as { error: { code: string; status: number; exit_code: number; hint: string } };
    expect(error.error).toMatchObject({ code: 'RATE_LIMITED', status: 429, exit_code: 6 });
    expect(error.error.hint).toMatch(/^try again after \d\d:\d\d:\d\d UTC \(in 10m\)$/);
  });
});

describe('absurd waits: exit 6 with a date to try again, at once, never an internal error', () => {
  const NOW = Date.parse('2026-03-01T12:00:00Z');
  const year = 365 * 86_400_000;
  it.each([
    ['Retry-After: 2592000 (30 days)', { 'retry-after': '2592000' }, 30 * 86_400_000, '30d'],
    ['Retry-After: 9000000000000 (clamped to a year)', { 'retry-after': '9000000000000' }, year, '365d'],
    ['Retry-After in year 275760 (clamped to a year)', { 'retry-after': 'Sat, 13 Sep 275760 00:00:00 GMT' }, year, '365d'],
    // Read as seconds, as before, this was 55,000 years.
    ['X-RateLimit-Reset in epoch milliseconds, 10 days ahead',
      { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(NOW + 10 * 86_400_000) }, 10 * 86_400_000, '10d'],
  ])('%s', async (_name, headers, waitMs, shown) => {
    const api = await server((_req, res) => sendError(res, 429, 'RATE_LIMITED', headers));
    const clock = fakeTime(NOW);
    const run = await runCli(['quotes', 'EURUSD'], { env: quotesEnv(api.url), now: clock.now, sleep: clock.sleep });
    expect(run.code).toBe(6);
    expect(api.requests).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
    expect(run.stderr).not.toContain('internal error');
    expect(run.stderr).toMatch(new RegExp(`^error: rate limited \\(429 RATE_LIMITED\\) after 1 attempt; the service asks to wait ${shown}, longer than `));
    const hint = /hint: try again after (\S+ \d\d:\d\d:\d\d) UTC \(in (\S+)\)\n/.exec(run.stderr);
    expect(hint?.[2]).toBe(shown);
    // A real date: the wait away from when the answer came, by the client's clock.
    expect(Date.parse(`${hint![1]!.replace(' ', 'T')}Z`)).toBe(NOW + waitMs);
  });
});

describe('5xx', () => {
  // The backoff between attempts is slept on a clock that skips it: no real time spent waiting.
  const skipping = () => {
    const clock = skippingTime();
    return { now: clock.now, sleep: clock.sleep };
  };

  it.each([502, 503, 504])('%i twice, then 200: succeeds on the third request', async (status) => {
    const api = await server((req, res, { index }) => index < 2 ? sendError(res, status, 'UNAVAILABLE') : sendQuotes(req, res));
    const run = await runCli(['quotes', 'EURUSD'], { env: quotesEnv(api.url), ...skipping() });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('EURUSD');
    expect(api.requests).toHaveLength(3);
  });

  it('503 forever: exit 7 after 3 attempts', async () => {
    const api = await server((_req, res) => sendError(res, 503, 'UNAVAILABLE'));
    const run = await runCli(['quotes', 'EURUSD'], { env: quotesEnv(api.url), ...skipping() });
    expect(run.code).toBe(7);
    expect(api.requests).toHaveLength(3);
    expect(run.stderr).toMatch(/^error: GET http:\/\/127\.0\.0\.1:\d+\/v1\/market\/quotes failed with 503 Service Unavailable after 3 attempts: fault server says UNAVAILABLE\n/);
  });

  it('503 asking for longer than --max-wait: exit 7 at once, with the time to try again', async () => {
    const api = await server((_req, res) => sendError(res, 503, 'UNAVAILABLE', { 'retry-after': '90' }));
    const run = await runCli(['quotes', 'EURUSD', '--max-wait', '5s'], { env: quotesEnv(api.url) });
    expect(run.code).toBe(7);
    expect(api.requests).toHaveLength(1);
    expect(run.stderr).toContain('the service asks to wait 1m30s, longer than --max-wait 5s\n');
    expect(run.stderr).toMatch(/hint: the service is having trouble; try again after \d\d:\d\d:\d\d UTC \(in 1m30s\)/);
  });

  it('500 is not retried', async () => {
    const api = await server((_req, res) => sendError(res, 500, 'INTERNAL'));
    const run = await runCli(['quotes', 'EURUSD'], { env: quotesEnv(api.url) });
    expect(run.code).toBe(7);
    expect(api.requests).toHaveLength(1);
  });
});

describe('the auth POSTs', () => {
  const commands = {
    login: { argv: ['login'], env: { MKT_API_KEY: API_KEY, MKT_ORG: 'org_demo' }, path: '/auth/cli-login' },
    token: { argv: ['token'], env: { MKT_CLIENT_ID: 'demo', MKT_CLIENT_SECRET: CLIENT_SECRET }, path: '/v1/auth/token' },
  } as const;
  const faults = {
    '503': { handle: (res: Parameters<typeof sendError>[0]) => sendError(res, 503, 'UNAVAILABLE'), exit: 7 },
    '429 with Retry-After: 1': { handle: (res: Parameters<typeof sendError>[0]) => sendError(res, 429, 'RATE_LIMITED', { 'retry-after': '1' }), exit: 6 },
    'a reset after the request arrived': { handle: (res: Parameters<typeof sendError>[0]) => res.socket!.resetAndDestroy(), exit: 7 },
    'a close after the request arrived': { handle: (res: Parameters<typeof sendError>[0]) => res.socket!.destroy(), exit: 7 },
  } as const;
  const cases = Object.keys(commands).flatMap((command) => Object.keys(faults).map((fault) => [command, fault] as [keyof typeof commands, keyof typeof faults]));

  it.each(cases)('%s: %s is not retried', async (command, fault) => {
    const api = await server((_req, res) => faults[fault].handle(res));
    const run = await runCli([...commands[command].argv], { env: { MKT_BASE_URL: api.url, ...commands[command].env } });
    expect(run.code).toBe(faults[fault].exit);
    expect(api.requests).toHaveLength(1);
    expect(api.requests[0]).toMatchObject({ method: 'POST', url: commands[command].path });
  });

  it('login: connection refused is retried, and succeeds once the service is up', async () => {
    const port = await freePort();
    let api: FaultServer | undefined;
    const waits: number[] = [];
    const run = await runCli(['login', '--verbose'], {
      env: { MKT_BASE_URL: `http://127.0.0.1:${port}`, MKT_API_KEY: API_KEY, MKT_ORG: 'org_demo' },
      // The service comes up during the first wait.
      sleep: async (ms) => {
        waits.push(ms);
        api ??= closeLater(await startFaultServer((_req, res) => {
          res.writeHead(200, { 'content-type': 'application/json' }).end(TOKEN_RESPONSE);
        }, { port }));
      },
    });
    expect(run.stderr).toContain('connection refused');
    expect(run.code).toBe(0);
    expect(waits).toHaveLength(1);
    expect(api!.requests).toHaveLength(1);
    expect(run.stderr).toContain('(attempt 2 of at most 3)');
  });
});

describe('the retry decision', () => {
  it.each([
    ['GET', 429, true], ['GET', 502, true], ['GET', 503, true], ['GET', 504, true],
    ['GET', 500, false], ['GET', 400, false], ['GET', 401, false], ['GET', 302, false],
    ['POST', 429, false], ['POST', 503, false], ['POST', 502, false],
  ] as const)('%s answered %i: retry %s', (method, status, expected) => {
    expect(isRetryable({ status }, method === 'GET')).toBe(expected);
  });

  it.each([
    ['GET', 'ECONNRESET', true], ['GET', 'UND_ERR_SOCKET', true], ['GET', 'EPIPE', true], ['GET', 'ECONNREFUSED', true],
    ['GET', 'EAI_AGAIN', true], ['GET', 'ENOTFOUND', false], ['GET', 'DEPTH_ZERO_SELF_SIGNED_CERT', false],
    ['POST', 'ECONNREFUSED', true], ['POST', 'EAI_AGAIN', true],
    ['POST', 'ECONNRESET', false], ['POST', 'UND_ERR_SOCKET', false], ['POST', 'EPIPE', false],
  ] as const)('%s failing with %s: retry %s', (method, code, expected) => {
    expect(isRetryable({ code }, method === 'GET')).toBe(expected);
  });

  it('a refused POST is retried by sendRequest, up to --retries', async () => {
    const port = await freePort();
    const retries: string[] = [];
    const attempt = sendRequest({ retries: 2, sleep: async () => {}, onWait: (event) => retries.push(`${event.kind} ${event.reason} ${event.attempt}`) }, {
      method: 'POST', url: new URL(`http://127.0.0.1:${port}/v1/auth/token`), headers: {}, body: '{}', idempotent: false, operation: 'clientCredentials',
    });
    await expect(attempt).rejects.toMatchObject({ name: 'NetworkError', code: 'ECONNREFUSED', message: expect.stringMatching(/after 3 attempts$/) });
    expect(retries).toEqual(['retry connection refused 2', 'retry connection refused 3']);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-03-01T12:00:00Z');
  it.each([
    ['1', 1000], ['0', 0], [' 30 ', 30_000], ['Sun, 01 Mar 2026 12:00:05 GMT', 5000], ['Sunday, 01-Mar-26 12:00:05 GMT', 5000],
    ['Sun Mar  1 12:00:05 2026', 5000], ['Sun, 01 Mar 2026 11:59:00 GMT', 0],
    ['1.5', undefined], ['-1', undefined], ['soon', undefined], ['', undefined], ['2026-03-01T12:00:05Z', undefined],
  ] as const)('%j -> %s ms', (value, expected) => {
    expect(parseRetryAfter(value, now)).toBe(expected);
  });
});

async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
