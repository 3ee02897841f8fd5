// Rate limits per (client, organization): fixed minute, hour and day windows aligned to the clock,
// exact under concurrency, with Retry-After and RateLimit-* headers.
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { useServers } from '../helpers/fault-server.js';
import {
  cliLogin, getQuotes, getToken, postJson, startTestSandbox, TEST_EPOCH, type TestSandbox,
} from '../helpers/sandbox.js';

const MINUTE = 60_000;
const HOUR = 3_600_000;
const { closeLater } = useServers();

async function start(options: Parameters<typeof startTestSandbox>[0]): Promise<TestSandbox> {
  return closeLater(await startTestSandbox(options));
}

function limitHeaders(response: { headers: Headers }): Record<string, string | null> {
  const names = ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'retry-after'];
  return Object.fromEntries(names.map((name) => [name, response.headers.get(name)]));
}

/** One GET over node:http with a given agent, resolving to status and headers. */
function rawGet(agent: http.Agent, url: string, headers: Record<string, string>): Promise<{ status: number; remaining: string | undefined }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent, headers }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0, remaining: response.headers['ratelimit-remaining'] as string | undefined }));
    });
    request.on('error', reject);
    request.setTimeout(15_000, () => request.destroy(new Error('timed out')));
  });
}

describe('rate limits', () => {
  it('admits exactly 60 of 500 simultaneous requests', async () => {
    const { url } = await start({});
    const token = await getToken(url);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 500 });
    try {
      const headers = { authorization: `Bearer ${token}`, 'x-organization-id': 'org_demo' };
      const results = await Promise.all(Array.from({ length: 500 }, () => rawGet(agent, `${url}/v1/market/quotes?symbols=EURUSD`, headers)));
      const admitted = results.filter((result) => result.status === 200);
      expect(admitted).toHaveLength(60);
      expect(results.filter((result) => result.status === 429)).toHaveLength(440);
      // Each admitted request saw its own count: remaining 59 down to 0, once each.
      expect(admitted.map((result) => Number(result.remaining)).sort((a, b) => a - b)).toEqual(Array.from({ length: 60 }, (_, i) => i));
    } finally {
      agent.destroy();
    }
  }, 20_000);

  it('reports the binding window in RateLimit-* on every response', async () => {
    const { url } = await start({});
    const token = await getToken(url);
    // TEST_EPOCH is 15.25 s into a minute: the minute window resets in 44.75 s, reported as 45.
    expect(limitHeaders(await getQuotes(url, token, 'symbols=EURUSD'))).toEqual({
      'ratelimit-limit': '60', 'ratelimit-remaining': '59', 'ratelimit-reset': '45', 'retry-after': null,
    });
    const second = await getQuotes(url, token, 'symbols=EURUSD');
    expect(second.headers.get('ratelimit-remaining')).toBe('58');
    expect(second.headers.get('ratelimit-policy')).toBe('60;w=60, 5000;w=3600, 10000;w=86400');
  });

  it('gives Retry-After exact to the window, in whole seconds rounded up', async () => {
    const { url, clock } = await start({ limits: { perMinute: 3 } });
    const token = await getToken(url);
    for (let i = 0; i < 3; i++) expect((await getQuotes(url, token, 'symbols=EURUSD')).status).toBe(200);
    const limited = await getQuotes(url, token, 'symbols=EURUSD');
    expect(limited.status).toBe(429);
    expect(limitHeaders(limited)).toEqual({
      'ratelimit-limit': '3', 'ratelimit-remaining': '0', 'ratelimit-reset': '45', 'retry-after': '45',
    });
    clock.advance(44_000); // 0.75 s left
    expect(limitHeaders(await getQuotes(url, token, 'symbols=EURUSD'))['retry-after']).toBe('1');
    clock.advance(749); // 1 ms left
    expect(limitHeaders(await getQuotes(url, token, 'symbols=EURUSD'))['retry-after']).toBe('1');
    clock.advance(1); // the next minute
    const again = await getQuotes(url, token, 'symbols=EURUSD');
    expect(again.status).toBe(200);
    expect(limitHeaders(again)).toEqual({ 'ratelimit-limit': '3', 'ratelimit-remaining': '2', 'ratelimit-reset': '60', 'retry-after': null });
  });

  it('counts only admitted requests, and binds the hour window when it is the tighter one', async () => {
    const { url, clock } = await start({ limits: { perMinute: 2, perHour: 5 } });
    const token = await getToken(url);
    const get = () => getQuotes(url, token, 'symbols=EURUSD');
    await get();
    await get();
    for (let i = 0; i < 3; i++) expect((await get()).status).toBe(429);
    clock.advance(MINUTE);
    await get();
    expect(limitHeaders(await get())).toMatchObject({ 'ratelimit-limit': '2', 'ratelimit-remaining': '0' });
    expect((await get()).status).toBe(429);
    clock.advance(MINUTE);
    // 4 admitted so far (the 429s did not count): one left in the hour, the tighter window now.
    const last = await get();
    expect(last.status).toBe(200);
    const toHourEnd = Math.ceil((Math.ceil(clock.now() / HOUR) * HOUR - clock.now()) / 1000);
    expect(limitHeaders(last)).toEqual({ 'ratelimit-limit': '5', 'ratelimit-remaining': '0', 'ratelimit-reset': String(toHourEnd), 'retry-after': null });
    clock.advance(MINUTE);
    const limited = await get();
    expect(limited.status).toBe(429);
    expect(limitHeaders(limited)).toMatchObject({ 'ratelimit-limit': '5', 'retry-after': String(toHourEnd - 60) });
  });

  it('waits for the latest reset when several windows are exhausted', async () => {
    const { url } = await start({ limits: { perMinute: 1, perHour: 1, perDay: 1 } });
    const token = await getToken(url);
    await getQuotes(url, token, 'symbols=EURUSD');
    const limited = await getQuotes(url, token, 'symbols=EURUSD');
    const endOfDay = Date.UTC(2025, 0, 7);
    expect(limitHeaders(limited)).toMatchObject({ 'ratelimit-limit': '1', 'retry-after': String(Math.ceil((endOfDay - TEST_EPOCH) / 1000)) });
  });

  it('aligns the day window to UTC midnight', async () => {
    const { url, clock } = await start({ limits: { perDay: 2 }, startAt: Date.UTC(2025, 0, 6, 23, 59, 58, 500) });
    const token = await getToken(url);
    await getQuotes(url, token, 'symbols=EURUSD');
    await getQuotes(url, token, 'symbols=EURUSD');
    expect(limitHeaders(await getQuotes(url, token, 'symbols=EURUSD'))['retry-after']).toBe('2');
    clock.advance(1500);
    expect((await getQuotes(url, token, 'symbols=EURUSD')).status).toBe(200);
  });

  it('keeps one budget per (client, organization), shared by all tokens of the pair', async () => {
    const clients = [
      { client_id: 'multi', client_secret: 'multi-secret', orgs: ['org_a', 'org_b'], scopes: ['market.read'] },
      { client_id: 'other', client_secret: 'other-secret', orgs: ['org_a'], scopes: ['market.read'] },
    ];
    const { url } = await start({ clients, limits: { perMinute: 2 } });
    const credentials = await getToken(url, 'multi', 'multi-secret');
    const login = await cliLogin(url, 'multi.multi-secret', 'org_a');
    expect((await getQuotes(url, credentials, 'symbols=EURUSD', 'org_a')).status).toBe(200);
    expect((await getQuotes(url, login, 'symbols=EURUSD', 'org_a')).status).toBe(200);
    expect((await getQuotes(url, credentials, 'symbols=EURUSD', 'org_a')).status).toBe(429);
    expect((await getQuotes(url, login, 'symbols=EURUSD', 'org_a')).status).toBe(429);
    // Another organization of the same client, and another client in the same organization: untouched.
    expect((await getQuotes(url, credentials, 'symbols=EURUSD', 'org_b')).status).toBe(200);
    expect((await getQuotes(url, await getToken(url, 'other', 'other-secret'), 'symbols=EURUSD', 'org_a')).status).toBe(200);
  });

  it.each([
    [{}, '120'],
    [{ perMinute: 5 }, '10'],
  ])('gives approved clients twice the per-minute limit (%o)', async (limits, expected) => {
    const clients = [{ client_id: 'fast', client_secret: 'fast-secret', orgs: ['org_fast'], scopes: ['market.read'], profile: 'approved' as const }];
    const { url } = await start({ clients, limits });
    const response = await getQuotes(url, await getToken(url, 'fast', 'fast-secret'), 'symbols=EURUSD', 'org_fast');
    expect(response.headers.get('ratelimit-limit')).toBe(expected);
  });

  it.each([
    ['minute', MINUTE, {}, Date.UTC(2025, 0, 6, 14, 30, 15, 250)],
    ['day', 86_400_000, { perMinute: 1000, perHour: 1000, perDay: 60 }, Date.UTC(2025, 0, 7, 0, 0, 30)],
  ])('never reopens a spent %s window when the clock steps back across its start', async (_window, size, limits, startAt) => {
    const { url, clock } = await start({ limits, startAt, tokenTtlSeconds: 2 * 86_400 });
    const token = await getToken(url);
    const statuses = async (count: number) => {
      const seen: number[] = [];
      for (let i = 0; i < count; i++) seen.push((await getQuotes(url, token, 'symbols=EURUSD')).status);
      return seen;
    };
    expect(await statuses(60)).toEqual(Array(60).fill(200));
    // Back a minute: into the previous window by the clock, but its 60 requests were counted already.
    clock.advance(-MINUTE);
    expect(await statuses(60)).toEqual(Array(60).fill(429));
    // The spent window ends when the clock, running forward again, reaches its end.
    const windowEnd = (Math.floor(startAt / size) + 1) * size;
    expect((await getQuotes(url, token, 'symbols=EURUSD')).headers.get('retry-after')).toBe(String(Math.ceil((windowEnd - clock.now()) / 1000)));
    clock.set(windowEnd);
    expect((await getQuotes(url, token, 'symbols=EURUSD')).status).toBe(200);
  });
});

describe('token rate limits', () => {
  const clients = [{ client_id: 'other', client_secret: 'other-secret', orgs: ['org_demo'], scopes: ['market.read'] }];
  const tokenBody = { client_id: 'demo', client_secret: 'demo-secret', grant_type: 'client_credentials' };

  it('limits the tokens issued to one client per minute, on both auth endpoints together', async () => {
    const { url, clock } = await start({ clients, limits: { tokensPerMinute: 3 } });
    const first = await postJson(`${url}/v1/auth/token`, tokenBody);
    expect(first.status).toBe(200);
    expect(limitHeaders(first)).toEqual({ 'ratelimit-limit': '3', 'ratelimit-remaining': '2', 'ratelimit-reset': '45', 'retry-after': null });
    expect(first.headers.get('ratelimit-policy')).toBe('3;w=60');
    await cliLogin(url);
    await getToken(url);
    // The token endpoint answers in RFC 6749 §5.2's shape, cli-login in the service's envelope.
    const limited = await postJson(`${url}/v1/auth/token`, tokenBody);
    expect(limited.status).toBe(429);
    expect(limited.json).toMatchObject({ error: 'temporarily_unavailable', code: 'RATE_LIMITED', error_description: expect.stringContaining('too many token requests') });
    expect(limitHeaders(limited)).toEqual({ 'ratelimit-limit': '3', 'ratelimit-remaining': '0', 'ratelimit-reset': '45', 'retry-after': '45' });
    const login = await postJson(`${url}/auth/cli-login`, { api_key: 'demo.demo-secret', organization_id: 'org_demo' });
    expect(login.status).toBe(429);
    expect(login.json).toMatchObject({ error: { code: 'RATE_LIMITED' } });
    // Another client has its own budget; wrong secrets count against nobody.
    for (let i = 0; i < 5; i++) expect((await postJson(`${url}/v1/auth/token`, { ...tokenBody, client_secret: 'wrong' })).status).toBe(401);
    await getToken(url, 'other', 'other-secret');
    clock.advance(45_000);
    expect((await postJson(`${url}/v1/auth/token`, tokenBody)).status).toBe(200);
  });

  it('keeps the token limit apart from the quotes limits', async () => {
    const { url } = await start({ limits: { perMinute: 1, perHour: 1, perDay: 1, tokensPerMinute: 1000 } });
    for (let i = 0; i < 20; i++) expect((await postJson(`${url}/v1/auth/token`, tokenBody)).status).toBe(200);
    const token = await getToken(url);
    expect((await getQuotes(url, token, 'symbols=EURUSD')).headers.get('ratelimit-limit')).toBe('1');
  });
});
