// The client-side budget: batched quotes read RateLimit-Remaining / RateLimit-Reset (or the
// X-RateLimit-* names) and wait for the window to reset instead of running into 429.
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createRateBudget } from '../../src/api/rate-budget.js';
import { readRateLimit } from '../../src/api/response.js';
import { sendError, sendQuotes } from '../helpers/fault-server.js';
import { quotesEnv, timedCli, useServers } from './util.js';
import { fakeTime } from '../helpers/fake-time.js';

const server = useServers();

type Style = 'RateLimit-*' | 'X-RateLimit-*' | 'X-RateLimit-* with a Unix-time reset';

/**
 * A strict fixed-window limiter: `limit` requests per window of `windowMs`, the window starting at
 * the first request after the last one ended. Anything over is a 429, which the test counts.
 */
function strictLimiter(limit: number, windowMs: number, style: Style) {
  let windowEnd = 0;
  let used = 0;
  let refused = 0;
  return {
    refused: () => refused,
    handle(req: import('node:http').IncomingMessage, res: ServerResponse) {
      const now = Date.now();
      if (now >= windowEnd) {
        // A Unix-time reset has whole seconds: such windows end on one.
        windowEnd = style === 'X-RateLimit-* with a Unix-time reset' ? Math.ceil((now + windowMs) / 1000) * 1000 : now + windowMs;
        used = 0;
      }
      const resetSeconds = Math.ceil((windowEnd - now) / 1000);
      const headers = (remaining: number): Record<string, string> => style === 'RateLimit-*'
        ? { 'RateLimit-Limit': String(limit), 'RateLimit-Remaining': String(remaining), 'RateLimit-Reset': String(resetSeconds) }
        : {
            'X-RateLimit-Limit': String(limit), 'X-RateLimit-Remaining': String(remaining),
            'X-RateLimit-Reset': String(style === 'X-RateLimit-*' ? resetSeconds : windowEnd / 1000),
          };
      if (used >= limit) {
        refused++;
        sendError(res, 429, 'RATE_LIMITED', { ...headers(0), 'retry-after': String(resetSeconds) });
        return;
      }
      used++;
      sendQuotes(req, res, headers(limit - used));
    },
  };
}

describe('batched quotes stay within the announced budget', () => {
  it.each<Style>(['RateLimit-*', 'X-RateLimit-*', 'X-RateLimit-* with a Unix-time reset'])(
    '%s: Remaining 0 on the first answer, so the second batch waits for the reset: no 429',
    async (style) => {
      const limiter = strictLimiter(1, 1000, style);
      const api = await server((req, res) => limiter.handle(req, res));
      const run = await timedCli(['quotes', 'EURUSD', 'USDJPY', '--batch-size', '1', '--concurrency', '1'], { env: quotesEnv(api.url) });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('EURUSD');
      expect(run.stdout).toContain('USDJPY');
      expect(limiter.refused()).toBe(0);
      expect(api.requests).toHaveLength(2);
      expect(api.requests[1]!.at - api.requests[0]!.at).toBeGreaterThanOrEqual(900);
    },
  );

  it('counts down: 2 per window, 5 batches, no 429, and the wait announced on a terminal', async () => {
    const limiter = strictLimiter(2, 1000, 'RateLimit-*');
    const api = await server((req, res) => limiter.handle(req, res));
    const symbols = ['EURUSD', 'USDJPY', 'GBPUSD', 'AAPL', 'MSFT'];
    const run = await timedCli(['quotes', ...symbols, '--batch-size', '1', '--concurrency', '1'], { env: quotesEnv(api.url), stderrIsTTY: true });
    expect(run.code).toBe(0);
    expect(limiter.refused()).toBe(0);
    expect(api.requests).toHaveLength(5);
    // After clearing the progress line (`fetched 2/5 batches`).
    expect(run.stderr).toMatch(/\r\u001b\[2Kwaiting \d+m?s for the rate limit \(2\/5 requests done\)\n/);
    expect(run.stderr.split('for the rate limit')).toHaveLength(3);
  });

  it('--verbose says why it waits', async () => {
    const limiter = strictLimiter(1, 1000, 'RateLimit-*');
    const api = await server((req, res) => limiter.handle(req, res));
    const run = await timedCli(['quotes', 'EURUSD', 'USDJPY', '--batch-size', '1', '--concurrency', '1', '--verbose'], { env: quotesEnv(api.url) });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/\* rate budget spent \(RateLimit-Remaining: 0\); waiting \d+ ms for the window to reset\n/);
  });
});

describe('createRateBudget', () => {
  const info = (remaining: number, resetSeconds: number, limit = 10) => ({ limit, remaining, resetSeconds });

  it('does not limit before the service has said anything', async () => {
    const clock = fakeTime();
    const budget = createRateBudget({ now: clock.now, sleep: clock.sleep });
    for (let i = 0; i < 20; i++) await budget.acquire();
    expect(clock.sleeps).toEqual([]);
  });

  it('counts requests down from the latest figure and waits at zero', async () => {
    const clock = fakeTime();
    const budget = createRateBudget({ now: clock.now, sleep: clock.sleep });
    await budget.acquire();
    budget.release();
    budget.update(info(2, 5));
    await budget.acquire();
    await budget.acquire();
    expect(clock.sleeps).toEqual([]);
    await budget.acquire();
    expect(clock.sleeps).toEqual([5000]);
  });

  it('assumes requests in flight are not yet counted by the service', async () => {
    const clock = fakeTime();
    const budget = createRateBudget({ now: clock.now, sleep: clock.sleep });
    await budget.acquire();
    await budget.acquire();
    await budget.acquire();
    budget.release();
    budget.update(info(2, 5)); // two still in flight: none left
    await budget.acquire();
    expect(clock.sleeps).toEqual([5000]);
  });

  it('concurrent workers share one wait, counted once against --max-wait', async () => {
    const clock = fakeTime();
    const budget = createRateBudget({ now: clock.now, sleep: clock.sleep, maxWaitMs: 1500 });
    budget.update(info(0, 1));
    await Promise.all([budget.acquire(), budget.acquire(), budget.acquire(), budget.acquire()]);
    expect(clock.sleeps).toEqual([1000]);
  });

  it('after the reset, the new window holds the announced limit, and its own figures count down', async () => {
    const clock = fakeTime();
    const budget = createRateBudget({ now: clock.now, sleep: clock.sleep });
    budget.update(info(0, 1, 2));
    await budget.acquire();
    expect(clock.sleeps).toEqual([1000]);
    budget.release();
    budget.update(info(1, 1, 2)); // the new window: one left, resets in 1 s
    await budget.acquire();
    expect(clock.sleeps).toEqual([1000]);
    await budget.acquire();
    expect(clock.sleeps).toEqual([1000, 1000]);
  });

  it('a late answer with an older, higher figure does not raise the estimate', async () => {
    const clock = fakeTime();
    const budget = createRateBudget({ now: clock.now, sleep: clock.sleep });
    budget.update(info(0, 10));
    budget.update(info(5, 10)); // sent earlier, arrived later, same window
    await budget.acquire();
    expect(clock.sleeps).toEqual([10_000]);
  });

  it('a new window (a later reset) replaces the old figure', async () => {
    const clock = fakeTime();
    const budget = createRateBudget({ now: clock.now, sleep: clock.sleep });
    budget.update(info(0, 1));
    budget.update(info(5, 60));
    await budget.acquire();
    expect(clock.sleeps).toEqual([]);
  });

  it.each([
    ['the reset is further away than --max-wait', info(0, 60), 30_000],
    ['there is no reset time', { limit: 10, remaining: 0, resetSeconds: undefined }, 30_000],
  ])('does not wait when %s (the server decides, with Retry-After)', async (_name, figure, maxWaitMs) => {
    const clock = fakeTime();
    const budget = createRateBudget({ now: clock.now, sleep: clock.sleep, maxWaitMs });
    budget.update(figure);
    await budget.acquire();
    expect(clock.sleeps).toEqual([]);
  });

  it('an abort during the wait rejects every waiting worker', async () => {
    const controller = new AbortController();
    const budget = createRateBudget({ signal: controller.signal });
    budget.update(info(0, 30));
    const waiting = [budget.acquire(), budget.acquire()];
    controller.abort();
    for (const acquire of waiting) await expect(acquire).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('readRateLimit', () => {
  const now = Date.UTC(2026, 2, 1, 12, 0, 0);
  it.each([
    [{ 'ratelimit-limit': '60', 'ratelimit-remaining': '7', 'ratelimit-reset': '30' }, { limit: 60, remaining: 7, resetSeconds: 30 }],
    [{ 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '5' }, { limit: 60, remaining: 0, resetSeconds: 5 }],
    [{ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(now / 1000 + 42) }, { limit: undefined, remaining: 0, resetSeconds: 42 }],
    [{ 'ratelimit-remaining': 'lots', 'ratelimit-reset': '1.5' }, undefined],
    [{ 'content-type': 'application/json' }, undefined],
  ])('%j', (headers, expected) => {
    expect(readRateLimit(headers, now)).toEqual(expected);
  });
});
