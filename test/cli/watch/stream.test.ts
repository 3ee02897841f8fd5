// `mkt quotes --watch` in a pipe: NDJSON per poll against the sandbox (in-process, port 0, with a
// clock the fake sleep moves, so minutes of pacing take milliseconds), and scripted servers for
// exact bytes, --changes-only and transient errors.
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AbortError } from '../../../src/api/errors.js';
import { formatClock } from '../../../src/shared/time.js';
import { runCli, tempDir, type TestDepsOptions } from '../../helpers/cli.js';
import { useServers, type FaultServer } from '../../helpers/fault-server.js';
import { cliLogin, getQuotes, startTestSandbox, TEST_EPOCH, type TestSandbox } from '../../helpers/sandbox.js';

let sandbox: TestSandbox;
let configDir: string;
let sleeps: number[];

beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => {
  configDir = path.join(tempDir(), 'cfg');
  sleeps = [];
});

/** Records each wait and moves the shared clock instead of waiting. */
function fakeSleep(clock: { advance(ms: number): void }, onSleep?: (count: number) => void) {
  return async (ms: number, signal?: AbortSignal) => {
    sleeps.push(ms);
    onSleep?.(sleeps.length);
    if (signal?.aborted) throw new AbortError();
    if (sleeps.length > 50) throw new Error('the watch did not stop within 50 polls');
    clock.advance(ms);
  };
}

async function login(target: TestSandbox) {
  const result = await runCli(['login', '--org', 'org_demo'], { configDir, now: target.clock.now, env: { MKT_API_KEY: 'demo.demo-secret', MKT_BASE_URL: target.url } });
  expect(result.code).toBe(0);
}

const watch = (target: TestSandbox, args: string[], options: TestDepsOptions = {}) =>
  runCli(['quotes', ...args], {
    configDir, now: target.clock.now, sleep: fakeSleep(target.clock), ...options, env: { MKT_BASE_URL: target.url, ...options.env },
  });

const lines = (text: string) => text.split('\n').filter((line) => line !== '');

describe('NDJSON stream against the sandbox', () => {
  it('writes one line per quote per poll, exactly as the service sent it, and stops after --count', async () => {
    await login(sandbox);
    const start = sandbox.clock.now();
    const result = await watch(sandbox, ['EURUSD', 'AAPL', '--watch', '--interval', '1s', '--count', '3']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const out = lines(result.stdout);
    expect(out.map((line) => JSON.parse(line).symbol)).toEqual(['EURUSD', 'AAPL', 'EURUSD', 'AAPL', 'EURUSD', 'AAPL']);
    expect(sleeps).toEqual([1000, 1000]); // between polls, none after the last

    // Each poll's lines are byte for byte what the sandbox serves at that moment (227.10 stays 227.10).
    const token = await cliLogin(sandbox.url);
    for (let poll = 0; poll < 3; poll++) {
      sandbox.clock.set(start + poll * 1000);
      const served = await getQuotes(sandbox.url, token, 'symbols=EURUSD,AAPL');
      expect(`{"data":[${out.slice(poll * 2, poll * 2 + 2).join(',')}]}`).toBe(served.text);
    }
  });

  // The format is decided once, for a one-shot run and a watch alike: MKT_FORMAT and the profile's
  // `format` act on --watch as --format does. CSV and TSV stream: their header once, then a row per
  // quote per poll.
  it.each([
    ['--format csv', ['--format', 'csv'], {}, false],
    ['MKT_FORMAT=csv', [], { MKT_FORMAT: 'csv' }, false],
    ["the profile's format csv", [], {}, true],
  ])('streams CSV with %s: the header once, a row per quote per poll', async (_name, args, env, profile) => {
    await login(sandbox);
    if (profile) expect((await runCli(['config', 'set', 'format', 'csv'], { configDir })).code).toBe(0);
    const result = await watch(sandbox, ['EURUSD', 'AAPL', '--watch', '--count', '2', ...args], { env });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const rows = result.stdout.split('\r\n');
    expect(rows[0]).toBe('symbol,bid,ask,mid,timestamp');
    expect(rows.slice(1, -1).map((row) => row.split(',')[0])).toEqual(['EURUSD', 'AAPL', 'EURUSD', 'AAPL']);
    expect(rows.at(-1)).toBe('');
    for (const row of rows.slice(1, -1)) expect(row).toMatch(/^[A-Z]+,\d+\.\d+,\d+\.\d+,\d+\.\d+,\d{4}-\d\d-\d\dT[\d:.]+Z$/);
  });

  it('streams TSV with MKT_FORMAT=tsv, on a terminal too, as --format tsv does', async () => {
    await login(sandbox);
    const result = await watch(sandbox, ['EURUSD', '--watch', '--count', '2'], { env: { MKT_FORMAT: 'tsv' }, stdoutIsTTY: true });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain('\u001b');
    const out = lines(result.stdout);
    expect(out[0]).toBe('symbol\tbid\task\tmid\ttimestamp');
    expect(out.slice(1).map((line) => line.split('\t')[0])).toEqual(['EURUSD', 'EURUSD']);
  });

  it.each([
    ['MKT_FORMAT=json', { MKT_FORMAT: 'json' }, /--watch cannot write json \(from MKT_FORMAT=json\)/],
    ['MKT_FORMAT=table in a pipe', { MKT_FORMAT: 'table' }, /^error: --watch --format table needs a terminal \(from MKT_FORMAT=table\)/],
  ])('refuses %s as it refuses the flag: exit 2, nothing on stdout', async (_name, env, message) => {
    await login(sandbox);
    const result = await watch(sandbox, ['EURUSD', '--watch', '--count', '1'], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe('');
    expect(sleeps).toEqual([]);
  });

  it('streams NDJSON on a terminal too when --format ndjson says so', async () => {
    await login(sandbox);
    const result = await watch(sandbox, ['EURUSD', '--watch', '--count', '2', '--format', 'ndjson'], { stdoutIsTTY: true });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain('\u001b');
    expect(lines(result.stdout)).toHaveLength(2);
  });

  it.each([
    ['200ms', '200ms'],
    ['0', '0'],
    ['0.5', '0.5'],
  ])('clamps --interval %s to 1s with a warning', async (interval, shown) => {
    await login(sandbox);
    const result = await watch(sandbox, ['EURUSD', '--watch', '--interval', interval, '--count', '2']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(`warning: --interval ${shown} is below the minimum of 1s (the service allows 60 requests a minute); polling every 1s\n`);
    expect(sleeps).toEqual([1000]);
  });

  it('warns about symbols without a quote once, not on every poll', async () => {
    await login(sandbox);
    const result = await watch(sandbox, ['EURUSD', 'NOPE', '--watch', '--count', '3']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('warning: no quote for NOPE\n');
    expect(lines(result.stdout)).toHaveLength(3);
  });

  it('stops with exit 4 on a 401 and nothing on stdout', async () => {
    const result = await watch(sandbox, ['EURUSD', '--watch'], { env: { MKT_TOKEN: 'not-a-token', MKT_ORG: 'org_demo' } });
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^error: not authenticated \(401/);
    expect(sleeps).toEqual([]);
  });

  it('stops with exit 5 on a 403 (a token without market.read)', async () => {
    const token = await runCli(['token', '--client-id', 'noscope', '--org', 'org_demo'], {
      configDir, now: sandbox.clock.now, env: { MKT_CLIENT_SECRET: 'noscope-secret', MKT_BASE_URL: sandbox.url },
    });
    expect(token.code).toBe(0);
    const result = await watch(sandbox, ['EURUSD', '--watch']);
    expect(result.code).toBe(5);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^error: forbidden \(403/);
  });

  it('ends with exit 0 on SIGINT/SIGTERM (deps.signal), the normal end of a watch', async () => {
    await login(sandbox);
    const controller = new AbortController();
    const result = await watch(sandbox, ['EURUSD', '--watch'], {
      signal: controller.signal,
      sleep: fakeSleep(sandbox.clock, (count) => count === 3 && controller.abort()),
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(lines(result.stdout)).toHaveLength(3);
  });
});

describe('rate limits', () => {
  // A sandbox per test: none depends on how much of the budget another spent.
  let limited: TestSandbox;
  beforeEach(async () => {
    limited = await startTestSandbox({ limits: { perMinute: 2 } });
  });
  afterEach(() => limited.close());

  it('after a 429, waits for Retry-After and says "throttled until" instead of exiting; then paces itself', async () => {
    await login(limited);
    // Spend the minute's two requests (the clock is 14:30:15.250, so the window resets in 45 s).
    for (let i = 0; i < 2; i++) expect((await watch(limited, ['EURUSD'])).code).toBe(0);
    const start = limited.clock.now();
    // Three polls: the 429 counts as one.
    const result = await watch(limited, ['EURUSD', '--watch', '--interval', '1s', '--count', '3']);
    expect(result.code).toBe(0);
    expect(lines(result.stdout)).toHaveLength(2);
    // 429 with Retry-After: 45; then one request left of two until the next reset: spread over it.
    expect(sleeps).toEqual([45_000, 60_000]);
    // One line per throttling episode: the paced poll after the 429 continues the same one.
    expect(result.stderr).toBe(`warning: rate limited by the service; throttled until ${formatClock(start + 45_000)}\n`);
  });

  it('--count ends the watch even when its last poll meets a 429: exit 6, the error and no "throttled until"', async () => {
    await login(limited);
    limited.clock.set(TEST_EPOCH + 5 * 60_000); // a fresh window
    for (let i = 0; i < 2; i++) expect((await watch(limited, ['EURUSD'])).code).toBe(0);
    const result = await watch(limited, ['EURUSD', '--watch', '--interval', '1s', '--count', '1']);
    expect(result.code).toBe(6);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^error: .*429/);
    expect(result.stderr).not.toContain('throttled until');
    expect(sleeps).toEqual([]);
  });

  it('slows down before the limit runs out, with one warning, and never meets a 429', async () => {
    await login(limited);
    limited.clock.set(TEST_EPOCH + 10 * 60_000); // a fresh window, 15.25 s into the minute
    const start = limited.clock.now();
    const result = await watch(limited, ['EURUSD', '--watch', '--interval', '2s', '--count', '4']);
    expect(result.code).toBe(0);
    expect(lines(result.stdout)).toHaveLength(4);
    // Two requests a minute: one left after each poll, so each wait runs to the window's reset.
    expect(sleeps).toEqual([45_000, 60_000, 60_000]);
    expect(result.stderr).toBe(`warning: close to the rate limit (1 request left); throttled until ${formatClock(start + 45_000)}\n`);
  });
});

describe('against scripted servers', () => {
  const servers = useServers();
  let server: FaultServer | undefined;
  const env = () => ({ MKT_BASE_URL: server!.url, MKT_TOKEN: 'scripted-token', MKT_ORG: 'org_demo' });
  const clock = { time: Date.UTC(2025, 0, 6, 14, 30, 0), now: () => clock.time, advance: (ms: number) => void (clock.time += ms) };
  const run = (args: string[], options: TestDepsOptions = {}) =>
    runCli(['quotes', ...args], { now: clock.now, sleep: fakeSleep(clock), ...options, env: { ...env(), ...options.env } });
  const body = (...quotes: Array<[string, string, string, string]>) =>
    `{"data":[${quotes.map(([symbol, bid, ask, mid]) => `{"symbol":"${symbol}","bid":${bid},"ask":${ask},"mid":${mid},"timestamp":"2025-01-06T14:30:00Z"}`).join(',')}]}`;
  const sequence = (bodies: Array<string | number>) => servers.script((request, res) => {
    const next = bodies[Math.min(server!.requests.length - 1, bodies.length - 1)]!;
    const status = typeof next === 'number' ? next : 200;
    res.writeHead(status, { 'content-type': 'application/json', 'ratelimit-limit': '60', 'ratelimit-remaining': '50', 'ratelimit-reset': '30' });
    res.end(typeof next === 'number' ? `{"error":{"code":"UNAVAILABLE","message":"try later"}}` : next);
  });

  it('keeps every digit: 227.10, 1.084150000000000001 and 1E-8 come out as sent', async () => {
    const exact = body(['AAPL', '227.10', '227.12', '227.110'], ['EURUSD', '1.084150000000000001', '1.084150000000000003', '1.084150000000000002'], ['TINY', '1E-8', '0.00000002', '1.5E-8']);
    server = await sequence([exact]);
    const result = await run(['AAPL', 'EURUSD', 'TINY', '--watch', '--count', '2']);
    expect(result.code).toBe(0);
    const expected = exact.slice('{"data":['.length, -2).split('},{').join('}\n{');
    expect(result.stdout).toBe(`${expected}\n${expected}\n`);
  });

  it('--changes-only writes the first poll whole, then only quotes whose prices moved', async () => {
    server = await sequence([
      body(['A', '1.10', '1.20', '1.15'], ['B', '2.00', '2.10', '2.05']),
      body(['A', '1.10', '1.20', '1.15'], ['B', '2.01', '2.10', '2.055']),
      body(['A', '1.1', '1.2', '1.150'], ['B', '2.01', '2.10', '2.055']), // the same values, written differently
      body(['A', '1.11', '1.20', '1.155'], ['B', '2.01', '2.10', '2.055']),
    ]);
    const result = await run(['A', 'B', '--watch', '--count', '4', '--changes-only']);
    expect(result.code).toBe(0);
    expect(lines(result.stdout).map((line) => `${JSON.parse(line).symbol} ${/"bid":([^,]+)/.exec(line)![1]}`)).toEqual(['A 1.10', 'B 2.00', 'B 2.01', 'A 1.11']);
  });

  it('keeps going through a 503: a warning on stderr, retried at the next poll', async () => {
    server = await sequence([503, body(['A', '1.10', '1.20', '1.15'])]);
    const result = await run(['A', '--watch', '--interval', '1s', '--count', '3']);
    expect(result.code).toBe(0);
    expect(lines(result.stdout)).toHaveLength(2);
    expect(result.stderr).toMatch(/^warning: GET http:\/\/127\.0\.0\.1:\d+\/v1\/market\/quotes failed with 503 Service Unavailable: try later; retrying at \d\d:\d\d:\d\d\n$/);
    // One attempt per poll: the watch paces retries itself.
    expect(server.requests).toHaveLength(3);
    expect(sleeps).toEqual([1000, 1000]);
  });

  it('--count counts failed polls too: a 503 then quotes with --count 2 is two polls, exit 0', async () => {
    server = await sequence([503, body(['A', '1.10', '1.20', '1.15'])]);
    const result = await run(['A', '--watch', '--interval', '1s', '--count', '2']);
    expect(result.code).toBe(0);
    expect(lines(result.stdout)).toHaveLength(1);
    expect(lines(result.stderr)).toEqual([expect.stringMatching(/failed with 503 Service Unavailable: try later; retrying at /)]);
    expect(server.requests).toHaveLength(2);
    expect(sleeps).toEqual([1000]);
  });

  it('--count 2 against a dead service ends after two polls with exit 7 and the last error', async () => {
    server = await sequence([body(['A', '1', '2', '1.5'])]);
    const url = server.url;
    await server.close();
    server = undefined;
    const result = await runCli(['quotes', 'A', '--watch', '--interval', '1s', '--count', '2'], {
      now: clock.now, sleep: fakeSleep(clock), env: { MKT_BASE_URL: url, MKT_TOKEN: 'scripted-token', MKT_ORG: 'org_demo' },
    });
    expect(result.code).toBe(7);
    expect(result.stdout).toBe('');
    const [warning, error, ...rest] = lines(result.stderr);
    expect(warning).toMatch(/^warning: connection refused by 127\.0\.0\.1:\d+ .*; retrying at \d\d:\d\d:\d\d$/);
    expect(error).toMatch(/^error: connection refused by 127\.0\.0\.1:\d+/);
    expect(rest.every((line) => line.startsWith('hint: '))).toBe(true);
    expect(sleeps).toEqual([1000]); // between the two polls, none after the last
  });

  it('--count ends a watch against a service that never answers: each poll times out, exit 7', async () => {
    server = await servers.script(() => {}); // accepts, reads the request, never responds
    const result = await run(['A', '--watch', '--interval', '1s', '--count', '2', '--timeout', '200ms']);
    expect(result.code).toBe(7);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^warning: .*did not complete within 200ms; retrying at .*\nerror: .*did not complete within 200ms\n/);
    expect(server.requests).toHaveLength(2);
    expect(sleeps).toEqual([1000]);
  });

  it('backs off while the service is unreachable, and still ends with exit 0 on an interrupt', async () => {
    server = await sequence([body(['A', '1', '2', '1.5'])]);
    const url = server.url;
    await server.close();
    server = undefined;
    const controller = new AbortController();
    const result = await runCli(['quotes', 'A', '--watch', '--interval', '1s'], {
      now: clock.now,
      signal: controller.signal,
      sleep: fakeSleep(clock, (count) => count === 4 && controller.abort()),
      env: { MKT_BASE_URL: url, MKT_TOKEN: 'scripted-token', MKT_ORG: 'org_demo' },
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    const warnings = lines(result.stderr);
    expect(warnings).toHaveLength(4);
    expect(warnings[0]).toMatch(/^warning: connection refused by 127\.0\.0\.1:\d+ .*; retrying at \d\d:\d\d:\d\d$/);
    expect(warnings[3]).toMatch(/\(4 failures in a row\)$/);
    // Doubling from the interval, with jitter: each wait at least the interval and at most the cap.
    expect(sleeps.every((ms) => ms >= 1000 && ms <= 30_000)).toBe(true);
    expect(sleeps[3]).toBeGreaterThanOrEqual(4000);
  });

  it.each([
    [['--watch', '--json'], /--watch cannot write json/],
    [['--watch', '--format', 'table'], /--watch --format table needs a terminal/],
    [['--watch', '--strict'], /--strict cannot be used with --watch/],
    [['--interval', '5s'], /only apply with --watch/],
    [['--count', '3'], /only apply with --watch/],
    [['--changes-only'], /only apply with --watch/],
    [['--watch', '--count', '0'], /--count must be between 1/],
    [['--watch', '--interval', 'soon'], /--interval must be a duration/],
  ])('%j is a usage error (exit 2), before any request', async (args, message) => {
    server = await sequence([body(['A', '1', '2', '1.5'])]);
    const result = await run(['A', ...args]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe('');
    expect(server.requests).toHaveLength(0);
  });
});
