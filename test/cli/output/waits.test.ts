// Issue 12 section 1, the command line's side: work that fits the quota finishes, every wait longer
// than about 2 s is announced (in a pipe too), --quiet silences the announcements, and a rate-limit
// plan the library foresaw is worded with mkt's flags. The clock is the sandbox's, and sleeping moves
// it: no test waits a real minute.
import path from 'node:path';
import type { Dispatcher } from 'undici';
import { describe, expect, it } from 'vitest';
import { RateLimitError } from '../../../src/api/errors.js';
import { explainError } from '../../../src/cli/errors/explain.js';
import { quotesExplainer } from '../../../src/cli/hints/quotes.js';
import { createTestDeps, runCli, tempDir, type TestDepsOptions } from '../../helpers/cli.js';
import { createProgress } from '../../../src/cli/output/progress.js';
import { sendQuotes, useServers, type FaultServer } from '../../helpers/fault-server.js';
import { pacedTransport } from '../../helpers/paced-transport.js';
import { startTestSandbox, type TestSandboxOptions } from '../../helpers/sandbox.js';

interface CountingSandbox {
  url: string;
  /** Every quotes response's status, in the order sent. */
  readonly statuses: number[];
  now(): number;
  /** Sleeps on the sandbox's clock, once the requests in flight are answered (../helpers/paced-transport.ts). */
  sleep(ms: number): Promise<void>;
  dispatcher: Dispatcher;
  close(): Promise<void>;
}

/** The sandbox on its own clock, and a transport that counts what it answered to quotes requests. */
async function countingSandbox(options: TestSandboxOptions): Promise<CountingSandbox> {
  const sandbox = await startTestSandbox(options);
  const transport = pacedTransport(sandbox.clock.advance);
  return {
    url: sandbox.url,
    get statuses() {
      return transport.responses.filter((response) => response.path === '/v1/market/quotes').map((response) => response.status);
    },
    now: sandbox.clock.now,
    sleep: transport.sleep,
    dispatcher: transport.dispatcher,
    close: async () => {
      await transport.close();
      await sandbox.close();
    },
  };
}

const servers = useServers();

/** mkt against `service`, in a pipe, sleeping on its clock. */
function cliOn(service: CountingSandbox, configDir: string) {
  return (argv: string[], options: TestDepsOptions = {}) => runCli(argv, {
    configDir, now: service.now, sleep: service.sleep, dispatcher: service.dispatcher, ...options,
    env: { MKT_BASE_URL: service.url, ...options.env },
  });
}

describe('work that fits the quota finishes (the issue\'s "Done when")', () => {
  it('80 symbols at 5 requests a minute and 10 symbols a request, default flags, in a pipe: exit 0, 80 rows in order, a wait line, no 429 it could foresee', async () => {
    const service = await countingSandbox({ limits: { perMinute: 5 }, maxSymbols: 10, synthetic: 80 });
    servers.closeLater(service);
    const run = cliOn(service, path.join(tempDir(), 'cfg'));
    expect((await run(['login', '--org', 'org_demo'], { env: { MKT_API_KEY: 'demo.demo-secret' } })).code).toBe(0);
    const symbols = Array.from({ length: 80 }, (_, i) => `SYN${String(i + 1).padStart(5, '0')}`);
    const result = await run(['quotes', '--symbols-file', '-'], { stdin: symbols.join('\n') });
    expect(result.stderr).toMatch(/^waiting \d+s for the rate limit \(\d+\/\d+ requests done\)$/m);
    expect(result.code).toBe(0);
    const rows = result.stdout.trimEnd().split('\n').slice(1);
    expect(rows.map((row) => row.split('\t')[0])).toEqual(symbols);
    // At most one 429, and only before the client had heard anything of the limit: after the
    // first answer that carried the rate-limit headers, none.
    const refused = service.statuses.filter((status) => status === 429);
    expect(refused.length).toBeLessThanOrEqual(1);
    if (refused.length === 1) expect(service.statuses[0]).toBe(429);
  });

  it('a service that takes fewer symbols than the default batch: the list goes in batches it takes', async () => {
    const service = await countingSandbox({ maxSymbols: 10, synthetic: 25 });
    servers.closeLater(service);
    const run = cliOn(service, path.join(tempDir(), 'cfg'));
    expect((await run(['login', '--org', 'org_demo'], { env: { MKT_API_KEY: 'demo.demo-secret' } })).code).toBe(0);
    const symbols = Array.from({ length: 25 }, (_, i) => `SYN${String(i + 1).padStart(5, '0')}`);
    const result = await run(['quotes', ...symbols]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout.trimEnd().split('\n')).toHaveLength(26);
    expect(service.statuses).toEqual([400, 200, 200, 200]);
    // A batch size the user chose is the user's to change.
    const chosen = await run(['quotes', ...symbols, '--batch-size', '20']);
    expect(chosen.code).toBe(2);
    expect(chosen.stderr).toContain('hint: the service takes at most 10 symbols in one request: use --batch-size 10 (or less)');
  });
});

describe('a watch under the quota', () => {
  const symbols = (count: number) => Array.from({ length: count }, (_, i) => `SYN${String(i + 1).padStart(5, '0')}`);

  it('keeps the batch size the service stated: one refusal in three polls, not one per poll', async () => {
    const service = await countingSandbox({ maxSymbols: 10, synthetic: 30 });
    servers.closeLater(service);
    const run = cliOn(service, path.join(tempDir(), 'cfg'));
    expect((await run(['login', '--org', 'org_demo'], { env: { MKT_API_KEY: 'demo.demo-secret' } })).code).toBe(0);
    const result = await run(['quotes', ...symbols(30), '--watch', '--count', '3', '--interval', '1s']);
    expect(result.code).toBe(0);
    expect(service.statuses).toEqual([400, ...Array(9).fill(200)]);
  });

  it('a poll that needs more waiting than --max-wait ends the watch with the plan, in mkt\'s words, after one poll', async () => {
    const service = await countingSandbox({ limits: { perMinute: 5 }, maxSymbols: 10, synthetic: 200 });
    servers.closeLater(service);
    const run = cliOn(service, path.join(tempDir(), 'cfg'));
    expect((await run(['login', '--org', 'org_demo'], { env: { MKT_API_KEY: 'demo.demo-secret' } })).code).toBe(0);
    const result = await run(['quotes', ...symbols(200), '--watch', '--count', '5', '--interval', '1s']);
    expect(result.code).toBe(6);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^error: 200 symbols need 20 requests; at 5 a minute that is about 4m, longer than --max-wait 90s\nhint: use --max-wait 4m /m);
    // The first poll's refused batch of 100 told the limits; nothing more, and no second poll.
    expect(service.statuses).toEqual([400]);
  });
});

describe('waits people can see', () => {
  /** 429 with Retry-After `seconds` on the first request, quotes after. */
  async function retryAfter(seconds: number): Promise<FaultServer> {
    return servers.start((req, res, { index }) => {
      if (index > 0) return sendQuotes(req, res);
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': String(seconds) }).end('{"error":{"code":"RATE_LIMITED","message":"slow down"}}');
    });
  }
  const env = (url: string) => ({ MKT_TOKEN: 'tok_wait_123456', MKT_ORG: 'org_demo', MKT_BASE_URL: url });
  const sleepless = { sleep: async () => {} };

  it('a wait over 2 s is announced in a pipe, one line when it starts', async () => {
    const server = await retryAfter(5);
    const result = await runCli(['quotes', 'EURUSD'], { env: env(server.url), ...sleepless });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('rate limited; retrying in 5s (1/2)\n');
  });

  it('a short one only on a terminal or with --verbose, as before', async () => {
    const server = await retryAfter(1);
    expect((await runCli(['quotes', 'EURUSD'], { env: env(server.url), ...sleepless })).stderr).toBe('');
  });

  it.each([[['--quiet']], [['-q']], [['--quiet', '--verbose']]])('%j silences it, on a terminal too', async (flags) => {
    const server = await retryAfter(5);
    const result = await runCli(['quotes', 'EURUSD', ...flags], { env: env(server.url), stderrIsTTY: true, ...sleepless });
    expect(result.code).toBe(0);
    expect(result.stderr).not.toContain('retrying in');
  });

  it('on a terminal, the progress line counts a long wait down', async () => {
    const service = await countingSandbox({ limits: { perMinute: 2 }, synthetic: 4 });
    servers.closeLater(service);
    const run = cliOn(service, path.join(tempDir(), 'cfg'));
    expect((await run(['login', '--org', 'org_demo'], { env: { MKT_API_KEY: 'demo.demo-secret' } })).code).toBe(0);
    const result = await run(['quotes', 'SYN00001', 'SYN00002', 'SYN00003', 'SYN00004', '--batch-size', '1', '--concurrency', '1'], { stderrIsTTY: true });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('\r\u001b[2Kwaiting 45s for the rate limit (2/4 requests done)\n\r\u001b[2Kfetched 2/4 batches; waiting 45s for the rate limit');
    // Cleared at the end: nothing of the progress line is left on the screen.
    expect(result.stderr.endsWith('\r\u001b[2K')).toBe(true);
  });
});

describe('the terminal\'s countdown', () => {
  it('counts the batches of the wait it was told, even before the first batch is done', () => {
    const test = createTestDeps({ stderrIsTTY: true });
    const progress = createProgress(test.deps, {});
    progress.onWait({ kind: 'retry', waitMs: 5000, reason: '503 Service Unavailable', done: 0, total: 3, attempt: 2, retries: 2 });
    progress.onBatch(1, 3);
    expect(test.stderr()).toContain('fetched 0/3 batches; waiting 5s to retry');
  });
});

describe('a rate-limit plan the library foresaw, in mkt\'s words', () => {
  const planned = (plan: object, message = 'rate limited: 100 requests need about 1m40s at 60 requests a minute, longer than maxWaitMs (30s)') =>
    Object.assign(new RateLimitError({ status: 0, code: 'RATE_LIMITED', method: 'GET', url: 'http://x/v1/market/quotes', operation: 'getQuotes', message, hint: 'raise maxWaitMs' }), { plan });

  it('10,000 symbols need 100 requests; at 60 a minute that is about 1m40s; use --max-wait 2m', () => {
    const error = planned({ requests: 100, limit: 60, windowMs: 60_000, waitMs: 60_000, maxWaitMs: 30_000 });
    expect(explainError(error, quotesExplainer(createTestDeps().deps, {}, 10_000))).toEqual({
      message: '10,000 symbols need 100 requests; at 60 a minute that is about 1m40s, longer than --max-wait 30s',
      hint: 'use --max-wait 2m (or MKT_MAX_WAIT=2m), or ask for fewer symbols at a time',
      requestId: undefined,
    });
  });

  it('one symbol needs one request: the verb agrees', () => {
    const error = planned({ requests: 1, limit: 1, windowMs: 60_000, waitMs: 60_000, maxWaitMs: 30_000 });
    expect(explainError(error, quotesExplainer(createTestDeps().deps, {}, 1)).message).toMatch(/^1 symbol needs 1 request; /);
  });

  it.each([
    [{ requests: 12, limit: 10, windowMs: 60_000, waitMs: 50_000, maxWaitMs: 30_000 }, 'about 1m12s', '--max-wait 2m'],
    [{ requests: 3, limit: 2, windowMs: 10_000, waitMs: 10_000, maxWaitMs: 5_000 }, 'at 2 per 10s that is about 15s', '--max-wait 20s'],
    [{ requests: 200, limit: 100, windowMs: 3_600_000, waitMs: 3_600_000, maxWaitMs: 90_000 }, 'at 100 an hour that is about 2h', '--max-wait 2h'],
  ])('%j: %s, %s (rounded up, and always more than the budget)', (plan, about, suggestion) => {
    const { message, hint } = explainError(planned(plan), quotesExplainer(createTestDeps().deps, {}, plan.requests));
    expect(message).toContain(about);
    expect(hint).toContain(`use ${suggestion} `);
  });

  it('without a plan, mkt\'s words from the wait and the budget, the library\'s hint as it is', () => {
    const error = new RateLimitError({
      status: 0, code: 'RATE_LIMITED', method: 'GET', url: 'http://x/v1/market/quotes', operation: 'getQuotes', retryAfterMs: 40_000, maxWaitMs: 30_000,
      message: 'the rate limit allows no more requests for 40s, longer than maxWaitMs (30s) allows; no request was sent for the rest', hint: 'try again after 12:00:40 UTC (in 40s)',
    });
    expect(explainError(error, quotesExplainer(createTestDeps().deps, {}, 1))).toMatchObject({
      message: 'the rate limit allows no more requests for 40s, longer than --max-wait 30s allows; no request was sent for the rest',
      hint: 'try again after 12:00:40 UTC (in 40s)',
    });
  });
});
