// Work that fits the quota finishes, against the sandbox and its fixed one-minute windows, on the
// sandbox's clock: the client waits for the next window instead of running into 429s, and a wait
// past maxWaitMs is foreseen before the quota is spent. A dispatcher that counts statuses tells what
// the server really answered.
import { describe, expect, it } from 'vitest';
import { RateLimitError } from '../../src/api/errors.js';
import { createClientWith } from '../../src/api/internal.js';
import type { GetQuotesInput, WaitEvent } from '../../src/api/index.js';
import type { Transport } from '../../src/api/transport.js';
import { syntheticSymbol } from '../../src/sandbox/index.js';
import { useServers } from '../helpers/fault-server.js';
import { pacedTransport } from '../helpers/paced-transport.js';
import { getQuotes as rawQuotes, getToken, startTestSandbox, type TestSandbox, type TestSandboxOptions } from '../helpers/sandbox.js';

const { closeLater } = useServers();

interface Setup {
  sandbox: TestSandbox;
  token: string;
  statuses: number[];
  events: WaitEvent[];
  http: Transport;
}

/** The sandbox, a token, and transport options on the sandbox's clock with a status-counting dispatcher. */
async function setup(options: TestSandboxOptions): Promise<Setup> {
  const sandbox = await startTestSandbox(options);
  closeLater(sandbox);
  const transport = pacedTransport(sandbox.clock.advance);
  closeLater(transport);
  const events: WaitEvent[] = [];
  const http: Transport = {
    dispatcher: transport.dispatcher,
    now: sandbox.clock.now,
    sleep: transport.sleep,
    onWait: (event) => events.push(event),
  };
  return { sandbox, token: await getToken(sandbox.url), statuses: transport.statuses, events, http };
}

/** A client with these options and the seam (the sandbox's clock, the transport's sleep), asked for quotes. */
function getQuotes(http: Transport, { baseUrl, ...input }: GetQuotesInput & { baseUrl: string }) {
  const { now, sleep, random, ...options } = http;
  return createClientWith({ ...options, baseUrl }, { now, sleep, random }).getQuotes(input);
}

const symbols = (count: number) => Array.from({ length: count }, (_, i) => syntheticSymbol(i + 1));
const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

describe('batches under the rate limit', () => {
  it('80 symbols, 5 requests a minute, 10 symbols a request, default options: all 80 in order, one wait, no 429', async () => {
    const { sandbox, token, statuses, events, http } = await setup({ limits: { perMinute: 5 }, maxSymbols: 10, synthetic: 80 });
    const started = sandbox.clock.now();
    const result = await getQuotes(http, { baseUrl: sandbox.url, accessToken: token, organizationId: 'org_demo', symbols: symbols(80) });
    expect(result.data.map((quote) => quote.symbol)).toEqual(symbols(80));
    expect(result.missing).toEqual([]);
    expect(result.requests).toBe(8);
    // The first request (80 symbols) taught the batch size: 400, then 8 batches of 10.
    expect(statuses).toEqual([400, ...Array(8).fill(200)]);
    expect(count(statuses, 429)).toBe(0);
    // 14:30:15.250: the next window starts 44.75 s later (Reset: 45, in whole seconds).
    expect(events).toEqual([expect.objectContaining({ kind: 'rate-limit', waitMs: 45_000, total: 8 })]);
    expect(events[0]!.done).toBeGreaterThanOrEqual(1);
    expect(sandbox.clock.now() - started).toBe(45_000);
  });

  it('10,000 symbols at 60 a minute: 100 requests finish in the next window, no 429', async () => {
    const { sandbox, token, statuses, events, http } = await setup({ synthetic: 10_000 });
    const result = await getQuotes(http, { baseUrl: sandbox.url, accessToken: token, organizationId: 'org_demo', symbols: symbols(10_000) });
    expect(result.data).toHaveLength(10_000);
    expect(result.data[0]!.symbol).toBe('SYN00001');
    expect(result.data[9_999]!.symbol).toBe('SYN10000');
    expect(statuses).toEqual(Array(100).fill(200));
    expect(events).toEqual([{ kind: 'rate-limit', waitMs: 45_000, reason: 'no requests left in this rate-limit window', done: expect.any(Number), total: 100 }]);
    expect(events[0]!.done).toBeGreaterThanOrEqual(56);
  });

  it('the same with maxWaitMs 30 s: refused after the first request, with the numbers', async () => {
    const { sandbox, token, statuses, events, http } = await setup({ synthetic: 10_000 });
    const call = getQuotes({ ...http, maxWaitMs: 30_000 }, { baseUrl: sandbox.url, accessToken: token, organizationId: 'org_demo', symbols: symbols(10_000) });
    const error = await call.then(() => undefined, (caught: unknown) => caught) as RateLimitError;
    expect(error).toBeInstanceOf(RateLimitError);
    // 59 of the window's 60 are left, none of the budget spent: facts the CLI words its own message from.
    expect(error.plan).toEqual({ requests: 100, limit: 60, windowMs: 60_000, waitMs: 45_000, maxWaitMs: 30_000, remaining: 59, spentMs: 0 });
    expect(error).toMatchObject({ retryAfterMs: 45_000, maxWaitMs: 30_000, operation: 'getQuotes', attempts: 0, status: 0 });
    expect(error.message).toBe('100 requests at 60 requests a minute need about 45s of waiting for the rate limit '
      + '(59 left in this window, which resets in 45s), longer than maxWaitMs (30s); no request was sent for the rest');
    expect(statuses).toEqual([200]);
    expect(events).toEqual([]);
  });

  it('a quota spent elsewhere: the one 429 the client could not foresee, then paced', async () => {
    const { sandbox, token, statuses, events, http } = await setup({ limits: { perMinute: 5 }, synthetic: 80 });
    for (let i = 0; i < 5; i++) expect((await rawQuotes(sandbox.url, token, 'symbols=EURUSD')).status).toBe(200);

    // 45 s for the spent window, then 60 s for the next: past the default 90 s, as the client can tell.
    const request = { baseUrl: sandbox.url, accessToken: token, organizationId: 'org_demo', symbols: symbols(80), batchSize: 10 };
    await expect(getQuotes(http, request)).rejects.toMatchObject({ name: 'RateLimitError', plan: { requests: 8, limit: 5, waitMs: 105_000, maxWaitMs: 90_000 } });
    expect(statuses).toEqual([429]);
    expect(events).toEqual([]);
    statuses.length = 0;
    events.length = 0;
    sandbox.clock.advance(60_000);
    for (let i = 0; i < 5; i++) expect((await rawQuotes(sandbox.url, token, 'symbols=EURUSD')).status).toBe(200);
    const result = await getQuotes({ ...http, maxWaitMs: 120_000 }, request);
    expect(result.data.map((quote) => quote.symbol)).toEqual(symbols(80));
    expect(count(statuses, 429)).toBe(1);
    expect(statuses).toHaveLength(9);
    expect(events.map((event) => [event.kind, event.waitMs])).toEqual([['retry', 45_000], ['rate-limit', 60_000]]);
    expect(events[0]).toMatchObject({ reason: 'rate limited', attempt: 2, retries: 2, done: 0, total: 8 });
  });
});
