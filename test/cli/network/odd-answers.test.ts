// Issue 19, item 12: a byte-order mark before the JSON, a rate limit of 2^32 with none left, and the
// status of a 200 or 204 the client cannot use. (An unsolicited 100 Continue: interim-responses.test.ts.)
import { describe, expect, it } from 'vitest';
import { runCli, type TestDepsOptions } from '../../helpers/cli.js';
import { useServers } from '../../helpers/fault-server.js';

const servers = useServers();
const QUOTES = '{"data":[{"symbol":"EURUSD","bid":1.10005,"ask":1.10007,"mid":1.10006,"timestamp":"2026-11-24T12:00:00Z"}]}';
const env = (url: string) => ({ MKT_BASE_URL: url, MKT_TOKEN: 'tok-test', MKT_ORG: 'org_demo' });
const run = (url: string, argv: string[], options: TestDepsOptions = {}) => runCli(argv, { ...options, env: { ...env(url), ...options.env } });

describe('answers mkt reads as HTTP and JSON allow', () => {
  it('a UTF-8 byte-order mark before the JSON is ignored', async () => {
    const server = await servers.start((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(QUOTES)])));
    const result = await run(server.url, ['quotes', 'EURUSD', '--format', 'tsv']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^EURUSD\t1\.10005\t1\.10007\t/m);
  });

  it('a byte-order mark before a token response is ignored too', async () => {
    const server = await servers.start((_req, res) => res.writeHead(200, { 'content-type': 'application/json' })
      .end(`\uFEFF${JSON.stringify({ access_token: 'tok-bom', token_type: 'Bearer', expires_in: 3600 })}`));
    const result = await runCli(['token', '--org', 'org_demo', '--print'], { env: { MKT_BASE_URL: server.url, MKT_CLIENT_ID: 'demo', MKT_CLIENT_SECRET: 'demo-secret' } });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('tok-bom\n');
  });

  it('RateLimit-Limit 4294967296 with none left and a reset in 59 s: the plan says 59 s, not 0 s', async () => {
    const server = await servers.start((_req, res) => res.writeHead(200, {
      'content-type': 'application/json', 'ratelimit-limit': '4294967296', 'ratelimit-remaining': '0', 'ratelimit-reset': '59',
    }).end(QUOTES));
    const result = await run(server.url, ['quotes', 'EURUSD', 'GBPUSD', '--batch-size', '1', '--max-wait', '5s']);
    expect(result.code).toBe(6);
    expect(result.stderr).not.toMatch(/about 0s/);
    expect(result.stderr).toMatch(/that is about 59s, longer than --max-wait 5s/);
    expect(server.requests).toHaveLength(1);
  });

  it.each([
    ['a 200 that is not JSON', 200, 'not json'],
    ['a 200 with an empty body', 200, ''],
    ['a 204', 204, ''],
  ])('%s is reported with its status, not null', async (_name, status, body) => {
    const server = await servers.start((_req, res) => res.writeHead(status, status === 204 ? {} : { 'content-type': 'application/json' }).end(body));
    const result = await run(server.url, ['quotes', 'EURUSD', '--json']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stderr).error).toMatchObject({ code: 'INVALID_RESPONSE', status });
  });
});
