// The watch's waits against servers that ask for long ones, counting the requests: a Retry-After
// of 30 days ends the watch with exit 6 after one request (it once sent 1,514 in 3 s, each timer
// over 2^31-1 ms firing at once); a wait within --max-wait is waited in full; X-RateLimit-Reset in
// epoch milliseconds never makes it poll faster than --interval; and the board redraws the ages
// about once a second while it waits.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { AbortError } from '../../../src/api/errors.js';
import { baseEnv, collect, mkt } from '../../helpers/bin.js';
import { runCli } from '../../helpers/cli.js';
import { useServers, type FaultServer } from '../../helpers/fault-server.js';
import { fakeTerminal, plainFrames, setupBoard, watchBoard } from '../../helpers/board-harness.js';

const servers = useServers();
let server: FaultServer | undefined;

const QUOTE = '{"data":[{"symbol":"EURUSD","bid":1.08501,"ask":1.08511,"mid":1.08506,"timestamp":"2025-01-06T14:30:00Z"}]}';
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/** Quotes for the first `ok` requests, then 429 with these headers. */
function startLimited(headers: Record<string, string>, ok = 0) {
  return servers.script((_request, res) => {
    const limited = server!.requests.length > ok;
    res.writeHead(limited ? 429 : 200, { 'content-type': 'application/json', ...(limited ? headers : {}) });
    res.end(limited ? '{"error":{"code":"RATE_LIMITED","message":"slow down"}}' : QUOTE);
  });
}

/** mkt quotes in a pipe, with a clock each sleep moves; every sleep asked for is recorded. */
async function watchStream(args: string[], random?: () => number) {
  const clock = { time: Date.UTC(2025, 0, 6, 14, 30, 0) };
  const sleeps: number[] = [];
  const result = await runCli(['quotes', 'EURUSD', '--watch', ...args], {
    now: () => clock.time,
    env: { MKT_BASE_URL: server!.url, MKT_TOKEN: 'scripted-token', MKT_ORG: 'org_demo' },
    sleep: async (ms, signal) => {
      sleeps.push(ms);
      if (sleeps.length > 50) throw new Error('the watch did not stop');
      if (signal?.aborted) throw new AbortError();
      clock.time += ms;
    },
    random,
  });
  return { ...result, sleeps };
}

describe('a Retry-After longer than --max-wait', () => {
  it('ends the watch with exit 6 after one request, saying how long and until when (30 days)', async () => {
    server = await startLimited({ 'retry-after': '2592000' });
    const result = await watchStream(['--interval', '2s']);
    expect(result.code).toBe(6);
    expect(server.requests).toHaveLength(1);
    expect(result.sleeps).toEqual([]);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^error: rate limited \(429 RATE_LIMITED\) after 1 attempt; the service asks to wait 30d, longer than --max-wait 90s\n/);
    expect(result.stderr).toContain('hint: watch again after 2025-02-05 14:30:00 UTC (in 30d), or allow a longer wait with --max-wait (at most 24h)\n');
  });

  it('honours --max-wait when given: 45 s past --max-wait 30s ends it too', async () => {
    server = await startLimited({ 'retry-after': '45' });
    const result = await watchStream(['--interval', '2s', '--max-wait', '30s']);
    expect(result.code).toBe(6);
    expect(result.stderr).toContain('asks to wait 45s, longer than --max-wait 30s');
    expect(server.requests).toHaveLength(1);
  });

  it('on the board too: the screen is given back before the error', async () => {
    server = await startLimited({ 'retry-after': '2592000' });
    const { terminal } = fakeTerminal(100, 30);
    const session = setupBoard(server.url, () => {});
    await expect(watchBoard(session.deps, terminal)).rejects.toThrow(/asks to wait 30d, longer than --max-wait 90s/);
    expect(server.requests).toHaveLength(1);
    expect(session.sleeps).toEqual([]);
  });
});

describe('a wait within --max-wait', () => {
  it('is waited in full, as asked, before the next request (an hour with --max-wait 2h)', async () => {
    server = await startLimited({ 'retry-after': '3600' }, 1);
    const result = await watchStream(['--interval', '2s', '--max-wait', '2h', '--count', '3']);
    expect(result.code).toBe(6); // the third poll meets the 429 again, and --count ends there
    expect(server.requests).toHaveLength(3);
    expect(result.sleeps).toEqual([2000, 3_600_000]);
    expect(result.stderr).toMatch(/^warning: rate limited by the service; throttled until \d\d:\d\d:\d\d\nerror: rate limited/);
  });

  it('is held to --max-wait, not to a longer --interval: 10 s asked, 5 minutes waited', async () => {
    server = await servers.script((_request, res) => {
      const limited = server!.requests.length === 1;
      res.writeHead(limited ? 429 : 200, { 'content-type': 'application/json', ...(limited ? { 'retry-after': '10' } : {}) });
      res.end(limited ? '{"error":{"code":"RATE_LIMITED","message":"slow down"}}' : QUOTE);
    });
    const result = await watchStream(['--interval', '5m', '--count', '2']);
    expect(result.code).toBe(0);
    expect(result.sleeps).toEqual([300_000]);
    expect(server.requests).toHaveLength(2);
  });

  it('is waited on the board in slices of a second, redrawing the ages as they grow', async () => {
    // Quotes, then a 429 asking for 30 s, then quotes again.
    server = await servers.script((_request, res) => {
      const limited = server!.requests.length === 2;
      res.writeHead(limited ? 429 : 200, { 'content-type': 'application/json', ...(limited ? { 'retry-after': '30' } : {}) });
      res.end(limited ? '{"error":{"code":"RATE_LIMITED","message":"slow down"}}' : QUOTE);
    });
    const { terminal } = fakeTerminal(100, 30);
    const session = setupBoard(server.url, () => {});
    expect(await watchBoard(session.deps, terminal, { count: '3' })).toBe(0);
    expect(server.requests).toHaveLength(3);
    expect(session.sleeps.every((ms) => ms > 0 && ms <= 1000)).toBe(true);
    expect(session.sleeps.reduce((sum, ms) => sum + ms, 0)).toBe(31_000); // the interval, then 30 s
    const frames = plainFrames(session.writes);
    expect(frames.some((frame) => /throttled until \d\d:\d\d:\d\d \(rate limit\)/.test(frame))).toBe(true);
    const ages = frames.map((frame) => /EURUSD\s.*?\s([\d.]+)s(?=\s)/.exec(frame)?.[1]).filter((age) => age !== undefined).map(Number);
    expect(ages.length).toBeGreaterThanOrEqual(31); // a frame a second while waiting, not only one per poll
    for (let i = 1; i < ages.length; i++) expect(ages[i]).toBeGreaterThanOrEqual(ages[i - 1]!);
    expect(ages.at(-1)! - ages[0]!).toBeGreaterThanOrEqual(30);
  });
});

describe('a 429 whose Retry-After mkt cannot read (issue 36 item 6)', () => {
  /** 429 with these headers for the first `refused` requests, quotes after. */
  const refusing = (headers: Record<string, string>, refused: number) => servers.script((_request, res) => {
    const limited = server!.requests.length <= refused;
    res.writeHead(limited ? 429 : 200, { 'content-type': 'application/json', ...(limited ? headers : {}) });
    res.end(limited ? '{"error":{"code":"RATE_LIMITED","message":"slow down"}}' : QUOTE);
  });

  it.each(['soon', '-5', '0.001', '1.5', ''])('Retry-After %j is read as none: a 1 s watch polls again after 1 s, not a minute', async (value) => {
    server = await refusing({ 'retry-after': value }, 1);
    const result = await watchStream(['--interval', '1s', '--count', '2']);
    expect(result.sleeps).toEqual([1000]);
    expect(result.code).toBe(0);
    expect(server.requests).toHaveLength(2);
    expect(result.stderr).toMatch(/^warning: rate limited by the service; throttled until \d\d:\d\d:\d\d\n$/);
  });

  it('429s in a row that ask for no wait back off from the interval, doubling, as failures do; a wait it can read is waited as asked', async () => {
    server = await refusing({ 'retry-after': 'soon' }, 4);
    const result = await watchStream(['--interval', '1s', '--count', '5'], () => 1);
    expect(result.sleeps).toEqual([1000, 2000, 4000, 8000]);
    expect(result.code).toBe(0);

    server = await refusing({ 'retry-after': '7' }, 2);
    const read = await watchStream(['--interval', '1s', '--count', '3'], () => 1);
    expect(read.sleeps).toEqual([7000, 7000]);
  });

  it('a one-shot run reads it as none too: its retry backs off (500 ms at random 1), as without the header', async () => {
    server = await refusing({ 'retry-after': 'soon' }, 1);
    const sleeps: number[] = [];
    const result = await runCli(['quotes', 'EURUSD', '--format', 'tsv'], {
      env: { MKT_BASE_URL: server.url, MKT_TOKEN: 'scripted-token', MKT_ORG: 'org_demo' },
      sleep: async (ms) => void sleeps.push(ms),
      random: () => 1,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(sleeps).toEqual([500]);
    expect(server.requests).toHaveLength(2);
  });

  it('is no wait past --max-wait: the watch goes on, where "the service asks to wait 60s" once ended it', async () => {
    server = await refusing({ 'retry-after': 'soon' }, 1);
    const result = await watchStream(['--interval', '1s', '--max-wait', '30s', '--count', '2']);
    expect(result.code).toBe(0);
    expect(result.sleeps).toEqual([1000]);
    expect(result.stderr).not.toContain('asks to wait');
  });
});

describe('X-RateLimit-Reset in epoch milliseconds', () => {
  it('never makes the watch poll faster than --interval, nor wait for the year 55,000', async () => {
    server = await servers.script((_request, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Date.now() + 30_000) });
      res.end(QUOTE);
    });
    const result = await watchStream(['--interval', '2s', '--count', '4']);
    expect(result.code).toBe(0);
    expect(server.requests).toHaveLength(4);
    expect(result.sleeps).toEqual([2000, 2000, 2000]);
    for (const ms of result.sleeps) expect(ms).toBeLessThanOrEqual(LONGEST_TIMER_MS);
  });
});

describe('as a process, with real timers', () => {
  const run = (args: string[]) => {
    const started = performance.now();
    const child = spawn(...mkt(['quotes', 'EURUSD', '--watch', ...args]), {
      env: baseEnv({ MKT_BASE_URL: server!.url, MKT_TOKEN: 'scripted-token', MKT_ORG: 'org_demo' }), stdio: ['pipe', 'pipe', 'pipe'],
    });
    return { child, done: collect(child, started, undefined, 15_000) };
  };

  it('Retry-After: 2592000 ends the watch at once: one request, exit 6, no TimeoutOverflowWarning', async () => {
    server = await startLimited({ 'retry-after': '2592000' });
    const result = await run(['--interval', '2s']).done;
    expect(result.code).toBe(6);
    expect(server.requests).toHaveLength(1);
    expect(result.stderr).toMatch(/^error: rate limited .*asks to wait 30d, longer than --max-wait 90s\nhint: watch again after /);
    expect(result.stderr).not.toContain('TimeoutOverflowWarning');
  });

  it('X-RateLimit-Reset in epoch ms: read as the time it names, 30 s away, so one request in 3 s (it once sent 1,514)', async () => {
    server = await servers.script((_request, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Date.now() + 30_000) });
      res.end(QUOTE);
    });
    const { child, done } = run(['--interval', '1s']);
    // Three seconds from the first request, however long a busy machine takes to start the process.
    await server.waitForRequests(1, 15_000);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    child.kill('SIGTERM');
    const result = await done;
    expect(result.code).toBe(0);
    expect(server.requests).toHaveLength(1);
    expect(result.stderr).toMatch(/^warning: close to the rate limit \(0 requests left\); throttled until \d\d:\d\d:\d\d\n$/);
  });
});
