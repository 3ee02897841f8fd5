// Issue 19, items 6-8, and issue 17, item 4's `mkt status` clock: when a stored token counts as
// expired, when it is renewed, and how often.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renewalMargin } from '../../../src/cli/credentials/credentials.js';
import type { RequestLogEntry } from '../../../src/sandbox/index.js';
import { countConfigWrites } from '../../helpers/config-writes.js';
import { runCli, tempDir, type TestDepsOptions } from '../../helpers/cli.js';
import { startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';

const CREDS = { MKT_CLIENT_ID: 'demo', MKT_CLIENT_SECRET: 'demo-secret', MKT_ORG: 'org_demo' };

let sandbox: TestSandbox | undefined;
let log: RequestLogEntry[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await sandbox?.close();
  sandbox = undefined;
  log = [];
});

async function start(tokenTtlSeconds: number): Promise<{ sandbox: TestSandbox; configDir: string; run: (argv: string[], options?: TestDepsOptions) => ReturnType<typeof runCli> }> {
  sandbox = await startTestSandbox({ tokenTtlSeconds, onRequest: (entry) => log.push(entry) });
  const configDir = path.join(tempDir(), 'cfg');
  const s = sandbox;
  const run = (argv: string[], options: TestDepsOptions = {}) =>
    runCli(argv, { configDir, now: s.clock.now, ...options, env: { MKT_BASE_URL: s.url, ...options.env } });
  return { sandbox: s, configDir, run };
}

const tokenRequests = () => log.filter((entry) => entry.path === '/v1/auth/token').length;

function storedToken(configDir: string): Record<string, string> {
  return JSON.parse(fs.readFileSync(path.join(configDir, 'config.json'), 'utf8')).profiles.default.token;
}

function editToken(configDir: string, change: Record<string, string>): void {
  const file = path.join(configDir, 'config.json');
  const data = JSON.parse(fs.readFileSync(file, 'utf8'));
  Object.assign(data.profiles.default.token, change);
  fs.writeFileSync(file, JSON.stringify(data));
}

describe('an expires_at that is not a date (issue 19, item 8)', () => {
  const BAD = '2026-11-24T25:00:00Z';

  it('mkt status shows it as unreadable and the token as expired, naming the file', async () => {
    const { configDir, run } = await start(600);
    expect((await run(['token'], { env: CREDS })).code).toBe(0);
    editToken(configDir, { expires_at: BAD });
    const text = await run(['status']);
    expect(text.code).toBe(4);
    expect(text.stdout).not.toMatch(/NaN|usable\./);
    expect(text.stdout).toMatch(new RegExp(`^ {2}Expires: +unreadable \\(${BAD}\\): counts as expired$`, 'm'));
    expect(text.stdout).toContain(`Problem: the stored token's expiry "${BAD}" is not a date, so it counts as expired (${path.join(configDir, 'config.json')}, profile default)`);
    const json = JSON.parse((await run(['status', '--json'])).stdout);
    expect(json).toMatchObject({ usable: false, token: { expires_at: BAD, expires_in_seconds: null, expired: true } });
  });

  it('is renewed with client credentials, with a warning naming the file', async () => {
    const { configDir, run } = await start(600);
    expect((await run(['token'], { env: CREDS })).code).toBe(0);
    editToken(configDir, { expires_at: BAD });
    const before = tokenRequests();
    const result = await run(['quotes', 'EURUSD', '--json'], { env: CREDS });
    expect(result.code, result.stderr).toBe(0);
    expect(tokenRequests()).toBe(before + 1);
    expect(JSON.parse(result.stderr)).toEqual({
      warning: { code: 'token_expiry_unreadable', message: `the stored token's expiry "${BAD}" is not a date, so it counts as expired (${path.join(configDir, 'config.json')}, profile default)`, hint: null },
    });
    // In text, the same warning as a line.
    editToken(configDir, { expires_at: BAD });
    const text = await run(['quotes', 'EURUSD', '--format', 'tsv'], { env: CREDS });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stderr).toBe(`warning: the stored token's expiry "${BAD}" is not a date, so it counts as expired (${path.join(configDir, 'config.json')}, profile default)\n`);
    expect(Number.isFinite(Date.parse(storedToken(configDir).expires_at!))).toBe(true);
  });

  it('without client credentials is exit 4, not a request with a token of unknown age', async () => {
    const { configDir, run } = await start(600);
    expect((await run(['token'], { env: CREDS })).code).toBe(0);
    editToken(configDir, { expires_at: BAD });
    const quotesBefore = log.filter((entry) => entry.path === '/v1/market/quotes').length;
    const result = await run(['quotes', 'EURUSD'], { env: { MKT_ORG: 'org_demo' } });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain(path.join(configDir, 'config.json'));
    expect(log.filter((entry) => entry.path === '/v1/market/quotes').length).toBe(quotesBefore);
  });
});

describe('mkt status reads the clock once (issue 17, item 4)', () => {
  it('1.5 s after expiry, the Expires line and the problem both say 1s', async () => {
    const { configDir, run, sandbox: s } = await start(600);
    expect((await run(['token'], { env: CREDS })).code).toBe(0);
    const expiresAt = Date.parse(storedToken(configDir).expires_at!);
    const result = await run(['status'], { now: () => expiresAt + 1500 });
    expect(result.stdout).toMatch(/^ {2}Expires: +expired 1s ago \(/m);
    expect(result.stdout).toContain('Problem: the stored token expired 1s ago');
    const json = JSON.parse((await run(['status', '--json'], { now: () => expiresAt + 1500 })).stdout);
    expect(json.token).toMatchObject({ expires_in_seconds: -1, expired: true });
    expect(s.url).toBeTruthy();
  });
});

describe('the renewal margin (issue 19, item 7)', () => {
  it.each([
    [30, 3_000],
    [600, 60_000],
    [3600, 60_000],
    [5, 500],
  ])('a %i s token is renewed %i ms before it expires', (seconds, margin) => {
    const obtained = Date.UTC(2026, 0, 1);
    expect(renewalMargin({ obtained_at: new Date(obtained).toISOString(), expires_at: new Date(obtained + seconds * 1000).toISOString() })).toBe(margin);
  });

  it('a watch of 10 polls a second apart with 30 s tokens asks for one token and writes the config file once', async () => {
    const { run, sandbox: s } = await start(30);
    // Every write of the config file goes through a locked update: count those.
    const writes = countConfigWrites();
    const sleeps: number[] = [];
    const sleep = async (ms: number) => {
      sleeps.push(ms);
      if (sleeps.length > 20) throw new Error('the watch did not stop');
      s.clock.advance(ms);
    };
    const result = await run(['quotes', 'EURUSD', '--watch', '--interval', '1s', '--count', '10'], { env: CREDS, sleep });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim().split('\n')).toHaveLength(10);
    expect(tokenRequests()).toBe(1);
    expect(writes.count).toBe(1);
  });

  it('renews a 30 s token once 27 s of it are used, not before', async () => {
    const { configDir, run, sandbox: s } = await start(30);
    expect((await run(['token'], { env: CREDS })).code).toBe(0);
    const first = storedToken(configDir).access_token;
    s.clock.advance(26_500);
    expect((await run(['quotes', 'EURUSD'], { env: CREDS })).code).toBe(0);
    expect(storedToken(configDir).access_token).toBe(first);
    s.clock.advance(1_000);
    expect((await run(['quotes', 'EURUSD'], { env: CREDS })).code).toBe(0);
    expect(storedToken(configDir).access_token).not.toBe(first);
    expect(tokenRequests()).toBe(2);
  });
});
