// Pacing: batched quotes read RateLimit-Remaining / RateLimit-Reset (or the X-RateLimit-* names),
// RateLimit-Policy and Retry-After, and wait for the window to reset instead of running into 429;
// a wait they can foresee past maxWaitMs fails at once, with the numbers.
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { RateLimitError } from '../../src/api/errors.js';
import { createPacer } from '../../src/api/pacer.js';
import { parseRetryAfter, policyWindow, readRateLimit } from '../../src/api/rate-limit-headers.js';
import type { WaitEvent } from '../../src/api/index.js';
import type { PacedAnswer, Transport } from '../../src/api/transport.js';
import type { RateLimitInfo } from '../../src/api/types.js';
import { createWaitBudget } from '../../src/api/wait-budget.js';
import { sendError, sendQuotes, useServers } from '../helpers/fault-server.js';
import { quotesEnv } from '../helpers/quotes-env.js';
import { runCli } from '../helpers/cli.js';
import { fakeTime, skippingTime } from '../helpers/fake-time.js';

/** The endpoint a pacer paces, for its errors. */
const paced = (url: string) => ({ method: 'GET', url, operation: 'getQuotes', lessWork: 'ask for fewer symbols per call' });

const { start: server } = useServers();

type Style = 'RateLimit-*' | 'X-RateLimit-*' | 'X-RateLimit-* with a Unix-time reset';

/**
 * A strict fixed-window limiter: `limit` requests per window of `windowMs`, the window starting at
 * the first request after the last one ended. Anything over is a 429, which the test counts. It
 * keeps time by mkt's own clock (`now`, the real one moved ahead by each of mkt's sleeps): a batch
 * sent before the window's reset is refused, and the wait for the reset costs no real time.
 */
function strictLimiter(limit: number, windowMs: number, style: Style, now: () => number) {
  let windowEnd = 0;
  let used = 0;
  let refused = 0;
  return {
    refused: () => refused,
    handle(req: import('node:http').IncomingMessage, res: ServerResponse) {
      const at = now();
      if (at >= windowEnd) {
        // A Unix-time reset has whole seconds: such windows end on one.
        windowEnd = style === 'X-RateLimit-* with a Unix-time reset' ? Math.ceil((at + windowMs) / 1000) * 1000 : at + windowMs;
        used = 0;
      }
      const resetSeconds = Math.ceil((windowEnd - at) / 1000);
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
      // The real clock moved by mkt's sleeps: the quotes the server stamps are never from the future.
      const clock = skippingTime();
      const limiter = strictLimiter(1, 1000, style, clock.now);
      const api = await server((req, res) => limiter.handle(req, res));
      const run = await runCli(['quotes', 'EURUSD', 'USDJPY', '--batch-size', '1', '--concurrency', '1'], { env: quotesEnv(api.url), now: clock.now, sleep: clock.sleep });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('EURUSD');
      expect(run.stdout).toContain('USDJPY');
      expect(limiter.refused()).toBe(0);
      // No 429 from a limiter on mkt's clock: the second batch waited for the window's reset.
      expect(api.requests).toHaveLength(2);
      expect(clock.sleeps.reduce((sum, ms) => sum + ms, 0)).toBeGreaterThan(0);
    },
  );

  it('counts down: 2 per window, 5 batches, no 429, and the wait announced on a terminal', async () => {
    const clock = skippingTime();
    const limiter = strictLimiter(2, 1000, 'RateLimit-*', clock.now);
    const api = await server((req, res) => limiter.handle(req, res));
    const symbols = ['EURUSD', 'USDJPY', 'GBPUSD', 'AAPL', 'MSFT'];
    const run = await runCli(['quotes', ...symbols, '--batch-size', '1', '--concurrency', '1'], { env: quotesEnv(api.url), stderrIsTTY: true, now: clock.now, sleep: clock.sleep });
    expect(run.code).toBe(0);
    expect(limiter.refused()).toBe(0);
    expect(api.requests).toHaveLength(5);
    // After clearing the progress line (`fetched 2/5 batches`).
    expect(run.stderr).toMatch(/\r\u001b\[2Kwaiting \d+m?s for the rate limit \(2\/5 requests done\)\n/);
    expect(run.stderr.split('for the rate limit')).toHaveLength(3);
  });

  it('--verbose says why it waits', async () => {
    const clock = skippingTime();
    const limiter = strictLimiter(1, 1000, 'RateLimit-*', clock.now);
    const api = await server((req, res) => limiter.handle(req, res));
    const run = await runCli(['quotes', 'EURUSD', 'USDJPY', '--batch-size', '1', '--concurrency', '1', '--verbose'], { env: quotesEnv(api.url), now: clock.now, sleep: clock.sleep });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/\* pacing: no requests left in this rate-limit window \(RateLimit-Remaining: 0\); waiting \d+ ms for it to reset\n/);
  });
});

describe('a wait foreseen past --max-wait', () => {
  it('10 batches at 2 a minute: exit 6 after the first request, with the numbers, before the quota is spent', async () => {
    const api = await server((req, res) => sendQuotes(req, res, {
      'RateLimit-Limit': '2', 'RateLimit-Remaining': '1', 'RateLimit-Reset': '60', 'RateLimit-Policy': '2;w=60',
    }));
    const symbols = ['EURUSD', 'USDJPY', 'GBPUSD', 'AAPL', 'MSFT', 'IBM', 'TSLA', 'NVDA', 'AMZN', 'META'];
    const waits: number[] = [];
    const run = await runCli(['quotes', ...symbols, '--batch-size', '1'], { env: quotesEnv(api.url), sleep: async (ms) => void waits.push(ms) });
    expect(run.code).toBe(6);
    expect(api.requests).toHaveLength(1);
    expect(waits).toEqual([]);
    expect(run.stdout).toBe('');
    // The rest of this minute and three more: 240 s of waiting, past the default 90 s.
    expect(run.stderr).toBe('error: 10 symbols need 10 requests; at 2 a minute that is about 5m, longer than --max-wait 90s\n'
      + 'hint: use --max-wait 5m (or MKT_MAX_WAIT=5m), or ask for fewer symbols at a time\n');
  });
});

describe('createPacer', () => {
  const info = (remaining: number, resetSeconds: number, limit = 10, windowSeconds?: number): RateLimitInfo =>
    ({ limit, remaining, resetSeconds, ...(windowSeconds === undefined ? {} : { windowSeconds }) });
  const ok = (rateLimit: RateLimitInfo | undefined): PacedAnswer => ({ status: 200, rateLimit, retryAfterMs: undefined });

  /** A pacer on a fake clock for a call of `total` requests; `events` collects onWait. */
  function pacerFor(options: { total?: number; maxWaitMs?: number; signal?: AbortSignal } = {}) {
    const clock = fakeTime();
    const events: WaitEvent[] = [];
    const debug: string[] = [];
    const progress = { done: 0, total: options.total ?? 100 };
    const http: Transport = {
      now: clock.now, sleep: clock.sleep, signal: options.signal, onWait: (event) => events.push(event), onDebug: (line) => debug.push(line),
    };
    const waitBudget = createWaitBudget(options.maxWaitMs ?? 90_000, clock.now);
    const pacer = createPacer({ ...http, waitBudget, progress }, paced('http://127.0.0.1/v1/market/quotes'));
    /** One request: acquired, answered with `answer`. */
    const send = async (answer?: PacedAnswer) => {
      await pacer.acquire();
      pacer.release(answer);
    };
    return { pacer, clock, events, debug, progress, waitBudget, send };
  }

  it('does not limit before the service has said anything', async () => {
    const { pacer, clock } = pacerFor();
    for (let i = 0; i < 20; i++) await pacer.acquire();
    expect(clock.sleeps).toEqual([]);
  });

  it('counts requests down from the latest figure and waits at zero, announcing the wait once', async () => {
    const { pacer, clock, events, send } = pacerFor({ total: 4 });
    await send(ok(info(2, 5)));
    await pacer.acquire();
    await pacer.acquire();
    expect(clock.sleeps).toEqual([]);
    await pacer.acquire();
    expect(clock.sleeps).toEqual([5000]);
    expect(events).toEqual([{ kind: 'rate-limit', waitMs: 5000, reason: 'no requests left in this rate-limit window', done: 0, total: 4 }]);
  });

  it('assumes requests in flight are not yet counted by the service', async () => {
    const { pacer, clock } = pacerFor({ total: 4 });
    await pacer.acquire();
    await pacer.acquire();
    await pacer.acquire();
    pacer.release(ok(info(2, 5))); // two still in flight: none left
    await pacer.acquire();
    expect(clock.sleeps).toEqual([5000]);
  });

  it('concurrent batches share one wait, counted once against maxWaitMs', async () => {
    const { pacer, clock, events, waitBudget } = pacerFor({ maxWaitMs: 1500, total: 5 });
    await pacer.acquire();
    pacer.release(ok(info(0, 1)));
    await Promise.all([pacer.acquire(), pacer.acquire(), pacer.acquire(), pacer.acquire()]);
    expect(clock.sleeps).toEqual([1000]);
    expect(events).toHaveLength(1);
    expect(waitBudget.spentMs).toBe(1000);
  });

  it('after the reset, the new window holds the announced limit, and its own figures count down', async () => {
    const { pacer, clock, send } = pacerFor({ total: 5 });
    await send(ok(info(0, 1, 2)));
    await pacer.acquire();
    expect(clock.sleeps).toEqual([1000]);
    pacer.release(ok(info(1, 1, 2))); // the new window: one left, resets in 1 s
    await pacer.acquire();
    expect(clock.sleeps).toEqual([1000]);
    await pacer.acquire();
    expect(clock.sleeps).toEqual([1000, 1000]);
  });

  it('a late answer with an older, higher figure does not raise the estimate', async () => {
    const { pacer, clock } = pacerFor({ total: 3 });
    await pacer.acquire();
    await pacer.acquire();
    pacer.release(ok(info(0, 10)));
    pacer.release(ok(info(5, 10))); // sent earlier, arrived later, same window
    await pacer.acquire();
    expect(clock.sleeps).toEqual([10_000]);
  });

  it('a new window (a later reset) replaces the old figure', async () => {
    const { pacer, clock } = pacerFor({ total: 3 });
    await pacer.acquire();
    await pacer.acquire();
    pacer.release(ok(info(0, 1)));
    pacer.release(ok(info(5, 60)));
    await pacer.acquire();
    expect(clock.sleeps).toEqual([]);
  });

  it('without a reset time it cannot wait, and lets the request go (the server decides, with Retry-After)', async () => {
    const { pacer, clock, send } = pacerFor({ total: 3 });
    await send(ok({ limit: 10, remaining: 0, resetSeconds: undefined }));
    await pacer.acquire();
    expect(clock.sleeps).toEqual([]);
  });

  it('a 429 holds back every batch until its Retry-After, without announcing again what the retry announces', async () => {
    const { pacer, clock, events } = pacerFor({ total: 4 });
    await pacer.acquire();
    pacer.release({ status: 429, rateLimit: undefined, retryAfterMs: 11_000 });
    await Promise.all([pacer.acquire(), pacer.acquire(), pacer.acquire()]);
    expect(clock.sleeps).toEqual([11_000]);
    expect(events).toEqual([]);
  });

  it('an abort during the wait rejects every waiting batch', async () => {
    const controller = new AbortController();
    const budget = createWaitBudget(90_000);
    const pacer = createPacer({ signal: controller.signal, waitBudget: budget, progress: { done: 0, total: 3 } }, paced('http://x/'));
    await pacer.acquire();
    pacer.release(ok(info(0, 30)));
    const waiting = [pacer.acquire(), pacer.acquire()];
    controller.abort();
    for (const acquire of waiting) await expect(acquire).rejects.toMatchObject({ name: 'AbortError' });
  });

  describe('a wait it can foresee past maxWaitMs fails before the requests are sent', () => {
    it('100 requests at 60 a minute: the next window is 45 s away, maxWaitMs 30 s', async () => {
      const { pacer, clock, send } = pacerFor({ total: 100, maxWaitMs: 30_000 });
      await send(ok(info(59, 45, 60, 60)));
      const error = await pacer.acquire().then(() => undefined, (caught: unknown) => caught);
      expect(error).toBeInstanceOf(RateLimitError);
      expect(error).toMatchObject({
        code: 'RATE_LIMITED', status: 0, retryAfterMs: 45_000,
        plan: { requests: 100, limit: 60, windowMs: 60_000, waitMs: 45_000, maxWaitMs: 30_000 },
        message: '100 requests at 60 requests a minute need about 45s of waiting for the rate limit (59 left in this window, which resets in 45s), '
          + 'longer than maxWaitMs (30s); no request was sent for the rest',
        hint: 'allow a maxWaitMs of at least 45s, or ask for fewer symbols per call',
      });
      expect(clock.sleeps).toEqual([]);
    });

    it('the same call with the default 90 s goes ahead', async () => {
      const { pacer, send } = pacerFor({ total: 100 });
      await send(ok(info(59, 45, 60, 60)));
      await pacer.acquire();
    });

    it('several windows: 250 requests at 60 a minute need the rest of this window and three more', async () => {
      const { pacer, send } = pacerFor({ total: 250, maxWaitMs: 120_000 });
      await send(ok(info(59, 45, 60, 60)));
      await expect(pacer.acquire()).rejects.toMatchObject({ plan: { requests: 250, limit: 60, windowMs: 60_000, waitMs: 45_000 + 3 * 60_000 } });
    });

    it('without RateLimit-Policy, the window is taken to be at least the longest reset announced', async () => {
      const { pacer, send } = pacerFor({ total: 250, maxWaitMs: 120_000 });
      await send(ok(info(59, 45, 60)));
      await expect(pacer.acquire()).rejects.toMatchObject({ plan: { windowMs: 45_000, waitMs: 4 * 45_000 } });
    });

    it('without RateLimit-Limit it can foresee only this window: no plan, and when to try again', async () => {
      const { pacer, send } = pacerFor({ total: 3, maxWaitMs: 30_000 });
      await send(ok({ limit: undefined, remaining: 0, resetSeconds: 2_592_000 }));
      const error = await pacer.acquire().then(() => undefined, (caught: unknown) => caught) as RateLimitError;
      expect(error).toBeInstanceOf(RateLimitError);
      expect(error.plan).toBeUndefined();
      expect(error.retryAfterMs).toBe(2_592_000_000);
      expect(error.message).toBe('the rate limit allows no more requests for 30d, longer than maxWaitMs (30s) allows; no request was sent for the rest');
      expect(error.hint).toMatch(/^try again after \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC \(in 30d\)$/);
    });

    it('waits already spent count: 20 s spent leaves too little for a 15 s window with maxWaitMs 30 s', async () => {
      const { pacer, send, waitBudget, clock } = pacerFor({ total: 3, maxWaitMs: 30_000 });
      expect(waitBudget.reserve(20_000)).toBe(true);
      await clock.sleep(20_000);
      await send(ok(info(0, 15, 1, 15)));
      await expect(pacer.acquire()).rejects.toMatchObject({ plan: { waitMs: 15_000 + 15_000 }, hint: expect.stringContaining('at least 50s') });
    });
  });
});

describe('readRateLimit', () => {
  const now = Date.UTC(2026, 2, 1, 12, 0, 0);
  it.each([
    ['RateLimit-*', { 'ratelimit-limit': '60', 'ratelimit-remaining': '7', 'ratelimit-reset': '30' }, { limit: 60, remaining: 7, resetSeconds: 30 }],
    ['X-RateLimit-*', { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '5' }, { limit: 60, remaining: 0, resetSeconds: 5 }],
    ['a reset in Unix seconds', { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(now / 1000 + 42) }, { limit: undefined, remaining: 0, resetSeconds: 42 }],
    ['a reset in Unix milliseconds', { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(now + 42_000) }, { limit: undefined, remaining: 0, resetSeconds: 42 }],
    ['a reset in the past', { 'ratelimit-remaining': '0', 'ratelimit-reset': String(now / 1000 - 42) }, { limit: undefined, remaining: 0, resetSeconds: 0 }],
    ['a reset of centuries, clamped to a year', { 'ratelimit-remaining': '0', 'ratelimit-reset': '900000000' }, { limit: undefined, remaining: 0, resetSeconds: 365 * 86_400 }],
    ['the window from RateLimit-Policy', { 'ratelimit-limit': '5', 'ratelimit-remaining': '4', 'ratelimit-reset': '45', 'ratelimit-policy': '5;w=60, 1000;w=3600, 10000;w=86400' },
      { limit: 5, remaining: 4, resetSeconds: 45, windowSeconds: 60 }],
    ['not numbers', { 'ratelimit-remaining': 'lots', 'ratelimit-reset': '1.5' }, undefined],
    ['none', { 'content-type': 'application/json' }, undefined],
  ])('%s', (_name, headers: Record<string, string>, expected) => {
    expect(readRateLimit(headers, now)).toEqual(expected);
  });
});

describe('policyWindow', () => {
  it.each([
    ['60;w=60, 1000;w=3600', 60, 60],
    ['60;w=60, 1000;w=3600', 1000, 3600],
    ['"minute";q=60;w=60, "hour";q=1000;w=3600', 1000, 3600],
    ['60;w=60', 100, undefined],
    ['60', 60, undefined],
    ['60;w=0', 60, undefined],
    ['garbage;;==,', 60, undefined],
  ] as const)('%j with limit %i -> %s', (policy, limit, expected) => {
    expect(policyWindow(policy, limit)).toBe(expected);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-03-01T12:00:00Z');
  it.each([
    ['30 days', '2592000', 2_592_000_000],
    ['9e12 seconds, clamped to a year', '9000000000000', 365 * 86_400_000],
    ['the last date there is, clamped to a year', 'Sat, 13 Sep 275760 00:00:00 GMT', 365 * 86_400_000],
  ])('%s', (_name, value, expected) => {
    expect(parseRetryAfter(value, now)).toBe(expected);
  });
});
