// `mkt status --check` is a pre-flight: against a spent rate limit it answers at once (exit 6, with
// when the limit lifts) instead of waiting for the window, unless --max-wait or MKT_MAX_WAIT lets it
// wait; a network error or a 5xx still gets its short retries. The sandbox allows one quotes request
// a minute; every wait goes through an injected sleep that records it and moves the clock, so what
// the check waited is read from the sleeps asked for, never from the wall clock.
import { beforeEach, describe, expect, it } from 'vitest';
import { sendError, useServers } from '../../helpers/fault-server.js';
import { TEST_EPOCH } from '../../helpers/sandbox.js';
import type { TestDepsOptions } from '../../helpers/cli.js';
import { useSandboxSession } from '../../helpers/sandbox-session.js';

const session = useSandboxSession({ tokenTtlSeconds: 600, limits: { perMinute: 1 } });
const servers = useServers();
let sleeps: number[];
let hour = 0;

beforeEach(() => {
  sleeps = [];
  // Each test in an hour of its own, 15.25 s into a minute: a fresh window, the same arithmetic.
  session.sandbox.clock.set(TEST_EPOCH + ++hour * 3_600_000);
});

const sleep: TestDepsOptions['sleep'] = async (ms) => {
  sleeps.push(ms);
  session.sandbox.clock.advance(ms);
};
const check = (args: string[] = [], env: Record<string, string> = {}) => session.run(['status', '--check', ...args], { sleep, env });

/** What the sandbox's Retry-After is now (whole seconds to the next minute) and the time it names. */
function windowEnd() {
  const now = session.sandbox.clock.now();
  const seconds = Math.ceil((Math.ceil(now / 60_000) * 60_000 - now) / 1000);
  return { ms: seconds * 1000, at: new Date(now + seconds * 1000).toISOString().slice(11, 19), seconds };
}

/** Logged in, and the minute's one request spent by a first check (which passes). */
async function spendTheWindow() {
  await session.login();
  expect((await check()).code).toBe(0);
  expect(sleeps).toEqual([]);
}

describe('mkt status --check against a spent rate limit', () => {
  it('answers at once with exit 6 and when the limit lifts, and does not wait', async () => {
    await spendTheWindow();
    const { seconds, at } = windowEnd();
    expect(seconds).toBeGreaterThan(30); // a wait the old check would have sat through
    const result = await check();
    expect(result.code).toBe(6);
    expect(sleeps).toEqual([]); // no wait begun, not even a short one
    expect(result.stdout).toMatch(/^Check: +failed \(exit 6\): rate limited \(429 RATE_LIMITED\) after 1 attempt/m);
    expect(result.stdout).toContain(`try again after ${at} UTC (in ${seconds}s), or let the check wait for it with --max-wait ${Math.ceil(seconds / 10) * 10}s`);
    expect(result.stderr).toBe('');

    const json = JSON.parse((await check(['--json'])).stdout);
    expect(json.check).toMatchObject({ ok: false, status: 429, exit_code: 6, error: { code: 'RATE_LIMITED' } });
    expect(json.check.error.hint).toMatch(new RegExp(`^try again after ${at} UTC \\(in ${seconds}s\\)`));
    expect(sleeps).toEqual([]);
  });

  it.each([
    ['--max-wait', ['--max-wait', '2m'], {}],
    ['MKT_MAX_WAIT', [], { MKT_MAX_WAIT: '2m' }],
  ])('waits for the window when %s says it may, and then passes', async (_name, args, env) => {
    await spendTheWindow();
    const { ms } = windowEnd();
    const result = await check(args, env);
    expect(result.code, result.stdout).toBe(0);
    expect(sleeps).toEqual([ms]); // the one wait the service asked for
    expect(result.stderr).toContain(`rate limited; retrying in ${ms / 1000}s (1/2)`);
  });
});

describe('mkt status --check against a service in trouble', () => {
  const env = (url: string) => ({ MKT_TOKEN: 'tok_check_123456', MKT_ORG: 'org_demo', MKT_BASE_URL: url });
  const quote = '{"data":[{"symbol":"EURUSD","bid":"1.1","ask":"1.2","mid":"1.15","timestamp":"2025-01-06T14:30:00Z"}]}';

  it('keeps the short retries of a 503 (and of a connection reset): one backoff, then the answer', async () => {
    const server = await servers.start((_req, res, { index }) => {
      if (index === 0) return sendError(res, 503, 'UNAVAILABLE');
      if (index === 1) return res.socket?.destroy();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(quote);
    });
    const result = await session.run(['status', '--check'], { sleep, env: env(server.url) });
    expect(result.code, result.stdout).toBe(0);
    expect(server.requests).toHaveLength(3);
    expect(sleeps).toHaveLength(2);
    // Full jitter on 500 ms, then 1 s (limits.ts): both within the check's 5 s.
    expect(sleeps[0]).toBeLessThanOrEqual(500);
    expect(sleeps[1]).toBeLessThanOrEqual(1000);
  });

  it('does not begin a long Retry-After of a 503: exit 7 at once', async () => {
    const server = await servers.start((_req, res) => sendError(res, 503, 'UNAVAILABLE', { 'retry-after': '30' }));
    const result = await session.run(['status', '--check'], { sleep, env: env(server.url) });
    expect(result.code).toBe(7);
    expect(server.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });
});
