// maxWaitMs (--max-wait) is one budget per call: every batch's retry waits and the pacing waits for
// a window to reset draw from it, so a long batched `mkt quotes` cannot wait many times the cap; and
// it is wall-clock time, so batches waiting at the same time spend it once, not once each.
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createPacer } from '../../src/api/pacer.js';
import { sendRequest } from '../../src/api/request.js';
import type { HttpRequest } from '../../src/api/transport.js';
import { createWaitBudget } from '../../src/api/wait-budget.js';
import { sendError, sendQuotes, symbolsOf, useServers } from '../helpers/fault-server.js';
import { quotesEnv } from '../helpers/quotes-env.js';
import { runCli } from '../helpers/cli.js';
import { fakeTime } from '../helpers/fake-time.js';

const { start: server } = useServers();

const SYMBOLS = ['EURUSD', 'USDJPY', 'GBPUSD', 'AAPL'];

/** 429 with Retry-After: 1 to each batch's first attempt, 200 to its second. */
function firstAttemptLimited() {
  const seen = new Set<string>();
  return (req: IncomingMessage, res: Parameters<typeof sendQuotes>[1]) => {
    const batch = symbolsOf(req).join(',');
    if (seen.has(batch)) return sendQuotes(req, res);
    seen.add(batch);
    return sendError(res, 429, 'RATE_LIMITED', { 'retry-after': '1' });
  };
}

const batched = ['quotes', ...SYMBOLS, '--batch-size', '1', '--concurrency', '1'];

describe('mkt quotes: --max-wait caps the whole command', () => {
  it('a 429 in every batch: exit 6 once the waits in all would pass --max-wait 2s', async () => {
    const api = await server(firstAttemptLimited());
    const clock = fakeTime(Date.now());
    const run = await runCli([...batched, '--max-wait', '2s'], { env: quotesEnv(api.url), now: clock.now, sleep: clock.sleep });
    expect(run.code).toBe(6);
    // Two batches wait 1 s each; the third batch's wait would make 3 s, so it fails at once.
    expect(clock.sleeps).toEqual([1000, 1000]);
    expect(api.requests).toHaveLength(5);
    // The service asked for 1 s, within --max-wait: the message does not claim it asked for longer.
    expect(run.stderr).toMatch(/^error: rate limited \(429 RATE_LIMITED\) after 1 attempt\n/);
    expect(run.stderr).toMatch(/hint: try again after \d\d:\d\d:\d\d UTC \(in 1s\)/);
    expect(run.stdout).toBe('');
  });

  it('the same server with a budget that covers every wait: all four batches succeed', async () => {
    const api = await server(firstAttemptLimited());
    const clock = fakeTime(Date.now());
    const run = await runCli([...batched, '--max-wait', '4s'], { env: quotesEnv(api.url), now: clock.now, sleep: clock.sleep });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    for (const symbol of SYMBOLS) expect(run.stdout).toContain(symbol);
    expect(clock.sleeps).toEqual([1000, 1000, 1000, 1000]);
    expect(api.requests).toHaveLength(8);
  });

  it('batches refused at the same time wait once: three 429s asking for 11 s fit a 30 s budget', async () => {
    // The first batch goes alone and passes; the next three, in flight together, are refused.
    const refused = new Set<string>();
    const api = await server((req, res, { index }) => {
      const batch = symbolsOf(req).join(',');
      if (index === 0 || refused.has(batch)) return sendQuotes(req, res);
      refused.add(batch);
      return sendError(res, 429, 'RATE_LIMITED', { 'retry-after': '11' });
    });
    // Waits end at once but are counted on the real clock: all three start within a few ms.
    const waits: number[] = [];
    const run = await runCli(['quotes', ...SYMBOLS, '--batch-size', '1', '--concurrency', '3', '--max-wait', '30s'], {
      env: quotesEnv(api.url), sleep: async (ms) => void waits.push(ms),
    });
    // One wait, told once, though three batches wait it out.
    expect(run.stderr).toBe('rate limited; retrying in 11s (1/2)\n');
    expect(run.code).toBe(0);
    expect(refused.size).toBe(3);
    // Three retry waits (and, as this sleep returns at once, the pacing's wait for the rest of the 11 s).
    expect(waits.filter((ms) => ms === 11_000).length).toBeGreaterThanOrEqual(3);
    for (const symbol of SYMBOLS) expect(run.stdout).toContain(symbol);
  });

  it('a wait for the rate-limit window counts too: 1 s of throttle leaves too little for a 1 s Retry-After', async () => {
    // The first answer spends the window; the second batch's first attempt gets a 429 anyway.
    const api = await server((req, res, { index }) => {
      if (index === 0) return sendQuotes(req, res, { 'RateLimit-Limit': '1', 'RateLimit-Remaining': '0', 'RateLimit-Reset': '1' });
      if (index === 1) return sendError(res, 429, 'RATE_LIMITED', { 'retry-after': '1' });
      return sendQuotes(req, res);
    });
    const clock = fakeTime(Date.now());
    const run = await runCli(['quotes', 'EURUSD', 'USDJPY', '--batch-size', '1', '--concurrency', '1', '--max-wait', '1500ms', '--verbose'], {
      env: quotesEnv(api.url), now: clock.now, sleep: clock.sleep,
    });
    expect(run.stderr).toMatch(/\* pacing: no requests left in this rate-limit window \(RateLimit-Remaining: 0\); waiting 1000 ms for it to reset\n/);
    expect(run.code).toBe(6);
    expect(api.requests).toHaveLength(2);
    // The throttle's 1 s, and no retry wait after it: 1 s more would pass 1.5 s.
    expect(clock.sleeps).toEqual([1000]);
    expect(run.stderr).toMatch(/error: rate limited \(429 RATE_LIMITED\) after 1 attempt\n/);
  });
});

describe('createWaitBudget', () => {
  it('waits one after another add up, and a wait that does not fit takes nothing', async () => {
    const clock = fakeTime();
    const budget = createWaitBudget(2000, clock.now);
    expect(budget.reserve(1500)).toBe(true);
    await clock.sleep(1500);
    expect(budget.fits(600)).toBe(false);
    expect(budget.reserve(600)).toBe(false);
    expect(budget.spentMs).toBe(1500);
    expect(budget.reserve(500)).toBe(true);
    await clock.sleep(500);
    expect(budget.reserve(0)).toBe(true);
    expect(budget.reserve(1)).toBe(false);
    expect(budget.spentMs).toBe(2000);
  });

  it('waits at the same time count once: three of 11 s starting together spend 11 s', () => {
    const clock = fakeTime();
    const budget = createWaitBudget(30_000, clock.now);
    for (let i = 0; i < 3; i++) expect(budget.reserve(11_000)).toBe(true);
    expect(budget.spentMs).toBe(11_000);
  });

  it('a wait that overlaps another in part counts the part beyond it', async () => {
    const clock = fakeTime();
    const budget = createWaitBudget(30_000, clock.now);
    expect(budget.reserve(10_000)).toBe(true);
    clock.sleeps.length = 0;
    await clock.sleep(4000);
    expect(budget.reserve(10_000)).toBe(true); // 4 s to 14 s: 4 s beyond the first
    expect(budget.spentMs).toBe(14_000);
  });
});

describe('the pacing and the retries draw from one budget', () => {
  const get = (url: string): HttpRequest => ({ method: 'GET', url: new URL('/v1/market/quotes?symbols=EURUSD', url), headers: {}, idempotent: true, operation: 'getQuotes' });

  it('a pacing wait leaves less for the retries', async () => {
    const api = await server((_req, res) => sendError(res, 429, 'RATE_LIMITED', { 'retry-after': '1' }));
    const clock = fakeTime();
    const waitBudget = createWaitBudget(1500, clock.now);
    const http = { now: clock.now, sleep: clock.sleep, waitBudget, progress: { done: 0, total: 2 } };
    const pacer = createPacer(http, { method: 'GET', url: api.url, operation: 'getQuotes' });
    await pacer.acquire();
    pacer.release({ status: 200, rateLimit: { limit: 1, remaining: 0, resetSeconds: 1 }, retryAfterMs: undefined });
    const response = await sendRequest(http, { ...get(api.url), pacer });
    expect(clock.sleeps).toEqual([1000]);
    // 1 s already spent: another 1 s would pass 1.5 s, so no retry.
    expect(response).toMatchObject({ status: 429, attempts: 1, gaveUpOnBudget: true, retryAfterMs: 1000 });
    expect(waitBudget.spentMs).toBe(1000);
  });

  it('retry waits leave less for the pacing, which then refuses to start a wait it cannot finish', async () => {
    const api = await server((req, res, { index }) => index === 0 ? sendError(res, 429, 'RATE_LIMITED', { 'retry-after': '1' }) : sendQuotes(req, res));
    const clock = fakeTime();
    const waitBudget = createWaitBudget(1500, clock.now);
    const http = { now: clock.now, sleep: clock.sleep, waitBudget, progress: { done: 0, total: 2 } };
    const response = await sendRequest(http, get(api.url));
    expect(response).toMatchObject({ status: 200, attempts: 2 });
    expect(waitBudget.spentMs).toBe(1000);
    const pacer = createPacer(http, { method: 'GET', url: api.url, operation: 'getQuotes' });
    pacer.release({ status: 200, rateLimit: { limit: 1, remaining: 0, resetSeconds: 1 }, retryAfterMs: undefined });
    await expect(pacer.acquire()).rejects.toMatchObject({ name: 'RateLimitError', plan: { waitMs: 1000, maxWaitMs: 1500 } });
    expect(clock.sleeps).toEqual([1000]);
  });

  it('sendRequest alone: each call has its own maxWaitMs, as before', async () => {
    const seen = new Set<number>();
    const api = await server((req, res, { index }) => {
      const call = Math.floor(index / 2);
      if (seen.has(call)) return sendQuotes(req, res);
      seen.add(call);
      return sendError(res, 429, 'RATE_LIMITED', { 'retry-after': '1' });
    });
    const clock = fakeTime();
    const http = { now: clock.now, sleep: clock.sleep, maxWaitMs: 1000 };
    expect(await sendRequest(http, get(api.url))).toMatchObject({ status: 200, attempts: 2 });
    expect(await sendRequest(http, get(api.url))).toMatchObject({ status: 200, attempts: 2 });
    expect(clock.sleeps).toEqual([1000, 1000]);
  });
});
