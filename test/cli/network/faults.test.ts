// Servers that misbehave below the HTTP status: connections cut mid-body, servers that accept and
// never answer or trickle bytes, bodies too large to hold, and redirects to another origin.
import { describe, expect, it } from 'vitest';
import { quotesBody, sendQuotes, streamFiller, trickle, useServers } from '../../helpers/fault-server.js';
import { fakeTime } from '../../helpers/fake-time.js';
import { API_KEY, quotesEnv, TOKEN } from '../../helpers/quotes-env.js';
import { runCli } from '../../helpers/cli.js';

const { start: server } = useServers();

/**
 * Retry waits on a fake clock, with the backoff's jitter at half its range: 250 ms, then 500 ms. The
 * clock starts at the present, as the quotes the servers stamp do: not a quote from the future.
 */
function fakeWaits() {
  const clock = fakeTime(Date.now());
  return { sleeps: clock.sleeps, deps: { now: clock.now, sleep: clock.sleep, random: () => 0.5 } };
}

/** Headers and the first few bytes of a quotes body, then the connection goes. */
function cutMidBody(res: import('node:http').ServerResponse, how: 'destroy' | 'resetAndDestroy'): void {
  const body = quotesBody(['EURUSD']);
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.write(body.slice(0, 12), () => {
    if (how === 'destroy') res.socket?.destroy();
    else res.socket?.resetAndDestroy();
  });
}

describe('a connection cut mid-body', () => {
  it.each(['destroy', 'resetAndDestroy'] as const)('once (%s): retried, and the retry succeeds', async (how) => {
    const api = await server((req, res, { index }) => index === 0 ? cutMidBody(res, how) : sendQuotes(req, res));
    const waits = fakeWaits();
    const run = await runCli(['quotes', 'EURUSD'], { env: quotesEnv(api.url), ...waits.deps });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('EURUSD');
    expect(api.requests).toHaveLength(2);
    expect(waits.sleeps).toEqual([250]);
  });

  it.each(['destroy', 'resetAndDestroy'] as const)('every time (%s): exit 7 after 3 attempts', async (how) => {
    const api = await server((_req, res) => cutMidBody(res, how));
    const waits = fakeWaits();
    const run = await runCli(['quotes', 'EURUSD'], { env: quotesEnv(api.url), ...waits.deps });
    expect(run.code).toBe(7);
    expect(api.requests).toHaveLength(3);
    expect(waits.sleeps).toEqual([250, 500]);
    expect(run.stderr).toMatch(/^error: connection reset by 127\.0\.0\.1:\d+ \(GET http:\/\/127\.0\.0\.1:\d+\/v1\/market\/quotes\), after 3 attempts\n/);
    expect(run.stdout).toBe('');
  });

  it('announces each retry on a terminal', async () => {
    const api = await server((_req, res) => cutMidBody(res, 'resetAndDestroy'));
    const run = await runCli(['quotes', 'EURUSD'], { env: quotesEnv(api.url), stderrIsTTY: true, ...fakeWaits().deps });
    expect(run.code).toBe(7);
    // Nothing on the progress line to clear first: each its own line.
    expect(run.stderr).toMatch(/^connection reset; retrying in 250ms \(1\/2\)\nconnection reset; retrying in 500ms \(2\/2\)\nerror: /);
  });
});

describe('servers that are slow on purpose: exit 7 at the deadline, which covers the whole attempt', () => {
  const slow = {
    'accepts and never answers': () => {},
    'trickles the headers, a byte every 200 ms': (socket: import('node:net').Socket) => {
      socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nx-slow: ');
      trickle(socket, 'a', 200);
    },
    'trickles the body, a byte every 200 ms': (socket: import('node:net').Socket) => {
      socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100000\r\n\r\n{"data":[');
      trickle(socket, ' ', 200);
    },
  } as const;

  it.each(Object.keys(slow) as Array<keyof typeof slow>)('%s', async (name) => {
    const api = await server((req) => slow[name](req.socket));
    const run = await runCli(['quotes', 'EURUSD', '--timeout', '1s'], { env: quotesEnv(api.url) });
    expect(run.code).toBe(7);
    // The deadline is a real timer: had each byte reset it, the run would go on as long as the
    // server trickles (hours), and the test's own timeout would fail it. No duration is asserted.
    // A timeout is not retried: the next attempt would most likely hang as long.
    expect(api.requests).toHaveLength(1);
    expect(run.stderr).toMatch(/^error: GET http:\/\/127\.0\.0\.1:\d+\/v1\/market\/quotes did not complete within 1s\n/);
    expect(run.stderr).toContain('\nhint: the service or the network is slow or unreachable; raise --timeout, or try again\n');
  });
});

describe('a 50 MB body', () => {
  const FIFTY_MB = 50 * 1000 * 1000;

  it.each([
    ['with Content-Length', true],
    ['chunked, without a length', false],
  ])('%s: refused with exit 1, before it is all read', async (_name, declared) => {
    let streamed: Promise<{ written: number; finished: boolean }> | undefined;
    const api = await server((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', ...(declared ? { 'content-length': String(FIFTY_MB) } : {}) });
      streamed = streamFiller(res, FIFTY_MB);
    });
    const run = await runCli(['quotes', 'EURUSD'], { env: quotesEnv(api.url) });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^error: the response to GET http:\/\/127\.0\.0\.1:\d+\/v1\/market\/quotes is larger than 32 MiB; refusing to read it\n/);
    expect(run.stderr).toContain('\nhint: request fewer symbols per call (a smaller --batch-size), or check that the base URL (MKT_BASE_URL) points at the Market Data Service\n');
    expect(api.requests).toHaveLength(1);
    const { written, finished } = await streamed!;
    expect(finished).toBe(false);
    expect(written).toBeLessThan(FIFTY_MB);
    // With a declared length the client stops at the headers, long before the 32 MiB cap.
    if (declared) expect(written).toBeLessThan(32 * 1024 * 1024);
  });
});

describe('redirects are not followed with credentials', () => {
  it.each([
    ['quotes', 302, ['quotes', 'EURUSD']],
    ['quotes', 301, ['quotes', 'EURUSD']],
    ['login', 307, ['login']],
    ['login', 308, ['login']],
  ] as const)('%s answered %i to another origin: exit 1, and the other origin sees nothing', async (_command, status, argv) => {
    const elsewhere = await server((_req, res) => res.writeHead(200).end('{}'));
    const api = await server((req, res) => {
      res.writeHead(status, { location: `${elsewhere.url}${req.url}`, 'content-type': 'text/html' }).end('<a>moved</a>');
    });
    const run = await runCli([...argv], { env: { ...quotesEnv(api.url), MKT_API_KEY: API_KEY } });
    expect(run.code).toBe(1);
    expect(elsewhere.requests).toHaveLength(0);
    expect(api.requests).toHaveLength(1);
    expect(run.stderr).toContain(`answered ${status} redirecting to ${elsewhere.url}/`);
    expect(run.stderr).toContain('redirects are not followed with credentials');
    expect(run.stderr).toContain('\nhint: set the base URL (MKT_BASE_URL) to the address the service really serves\n');
    expect(run.stderr).not.toContain(TOKEN);
  });
});

describe('absurd token lifetimes', () => {
  it('login with expires_in 1e13: the issued token is kept, good for ten years', async () => {
    const api = await server((_req, res) => res.writeHead(200, { 'content-type': 'application/json' })
      .end('{"access_token":"at_issued_77f0","token_type":"Bearer","expires_in":1e13}'));
    const run = await runCli(['login'], { env: { MKT_BASE_URL: api.url, MKT_API_KEY: API_KEY, MKT_ORG: 'org_demo' }, now: () => Date.parse('2026-03-01T12:00:00Z') });
    expect(run.stderr).toMatch(/^Logged in to .* token expires in 3650d,/);
    expect(run.code).toBe(0);
  });

  it('login with expires_in 0: exit 1, the service issued a token that has already expired', async () => {
    const api = await server((_req, res) => res.writeHead(200, { 'content-type': 'application/json' })
      .end('{"access_token":"at_issued_77f0","token_type":"Bearer","expires_in":0}'));
    const run = await runCli(['login'], { env: { MKT_BASE_URL: api.url, MKT_API_KEY: API_KEY, MKT_ORG: 'org_demo' } });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^error: POST http:\/\/127\.0\.0\.1:\d+\/auth\/cli-login returned expires_in 0: the service issued a token that has already expired\n/);
    expect(run.stderr).not.toContain('Logged in');
  });
});
