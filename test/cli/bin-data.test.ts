// Issue 17 item 2: the data on stdout is written as the service sent it, in every format, even when a
// secret mkt holds happens to occur in it; only the diagnostics on stderr are scrubbed (secrets.ts).
// The built bin against the sandbox and a purpose-built server, holding 4-character secrets that
// occur in a timestamp (the year, `2026` when the issue was filed) and in a price (`0000` in 1.100005).
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBin } from '../helpers/bin.js';
import { tempDir } from '../helpers/cli.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { useServers } from '../helpers/fault-server.js';

const servers = useServers();

// This year (`2026` when the issue was filed): mkt dates a token's expiry by the system clock.
const YEAR = new Date().getUTCFullYear();

describe('a client secret that occurs in the data (the year, in every timestamp of the year)', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox({
      clients: [{ client_id: 'ci', client_secret: String(YEAR), orgs: ['org_ci'], scopes: ['market.read'] }],
      startAt: Date.UTC(YEAR, 10, 24, 18, 46, 30, 894),
      tokenTtlSeconds: 600,
    });
  });
  afterAll(() => sandbox.close());

  it('leaves the timestamps whole in --json', async () => {
    const result = await runBin(['quotes', 'EURUSD', '--org', 'org_ci', '--json'], {
      env: { MKT_CLIENT_ID: 'ci', MKT_CLIENT_SECRET: String(YEAR), MKT_BASE_URL: sandbox.url, MKT_CONFIG_DIR: path.join(tempDir(), 'cfg') },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toContain('[redacted]');
    const { data } = JSON.parse(result.stdout) as { data: Array<{ symbol: string; timestamp: string }> };
    expect(data[0]!.symbol).toBe('EURUSD');
    expect(data[0]!.timestamp).toMatch(new RegExp(`^${YEAR}-11-24T18:4\\d:\\d\\d\\.\\d{3}Z$`));
  });

  it('leaves the token\'s expiry whole in mkt status --json, a report on stdout', async () => {
    const env = { MKT_CLIENT_ID: 'ci', MKT_CLIENT_SECRET: String(YEAR), MKT_BASE_URL: sandbox.url, MKT_CONFIG_DIR: path.join(tempDir(), 'cfg') };
    expect((await runBin(['token', '--org', 'org_ci'], { env })).code).toBe(0);
    const result = await runBin(['status', '--json'], { env });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toContain('[redacted]');
    expect(JSON.parse(result.stdout).token.expires_at).toMatch(new RegExp(`^${YEAR}-`));
  });
});

describe('MKT_TOKEN=0000 and a service sending "bid":1.100005', () => {
  const TOKEN = '0000';
  const BODY = '{"data":[{"symbol":"EURUSD","bid":1.100005,"ask":1.100007,"mid":1.100006,"timestamp":"2026-11-24T18:46:30.894Z"}]}';
  const DIGITS = ['1.100005', '1.100007', '1.100006'];

  /** Answers quotes with BODY; with `echoFirst`, the first request gets a 503 quoting its Authorization header. */
  const serve = (echoFirst = false) => servers.start((req, res, context) => {
    if (echoFirst && context.index === 0) {
      const body = JSON.stringify({ error: { code: 'UNAVAILABLE', message: `upstream refused ${req.headers.authorization ?? ''}` } });
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '0' }).end(body);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(BODY);
  });
  const run = (url: string, args: string[]) => runBin(['quotes', 'EURUSD', ...args], { env: { MKT_TOKEN: TOKEN, MKT_ORG: 'org_demo', MKT_BASE_URL: url, MKT_CONFIG_DIR: path.join(tempDir(), 'cfg') } });

  it.each<[string, string[], (stdout: string) => unknown]>([
    ['json', ['--json'], (stdout) => JSON.parse(stdout)],
    ['ndjson', ['--format', 'ndjson'], (stdout) => stdout.trimEnd().split('\n').map((line) => JSON.parse(line))],
    ['ndjson of --watch', ['--watch', '--count', '1'], (stdout) => stdout.trimEnd().split('\n').map((line) => JSON.parse(line))],
    ['csv', ['--format', 'csv'], (stdout) => stdout.split('\n')[1]!.split(',')],
    ['tsv', ['--format', 'tsv'], (stdout) => stdout.split('\n')[1]!.split('\t')],
    ['table', ['--format', 'table'], (stdout) => stdout],
  ])('keeps every digit in %s', async (_name, args, parse) => {
    const server = await serve();
    const result = await run(server.url, args);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toContain('[redacted]');
    for (const digits of DIGITS) expect(result.stdout).toContain(digits);
    expect(() => parse(result.stdout)).not.toThrow();
  });

  it('still scrubs the token from stderr when the service echoes it, and leaves the data whole on stdout', async () => {
    const server = await serve(true);
    const result = await run(server.url, ['--format', 'ndjson', '-v']);
    expect(result.code, result.stderr).toBe(0);
    expect(server.requests).toHaveLength(2);
    expect(result.stderr).toContain('upstream refused Bearer [redacted]');
    expect(result.stderr).not.toContain(TOKEN);
    expect(JSON.parse(result.stdout)).toMatchObject({ symbol: 'EURUSD', timestamp: '2026-11-24T18:46:30.894Z' });
    for (const digits of DIGITS) expect(result.stdout).toContain(digits);
  });

  it('still scrubs every secret held from the service\'s words in mkt status --check --json, on stdout', async () => {
    // MKT_CLIENT_SECRET is held though the check does not send it (MKT_TOKEN wins): only the run's
    // scrubbing, not the request's, knows it.
    const clientSecret = 'cs_SECRET_held_3e1f';
    const server = await servers.start((req, res) => {
      const body = JSON.stringify({ error: { code: 'INVALID_REQUEST', message: `bad token ${req.headers.authorization ?? ''} for ${clientSecret}` } });
      res.writeHead(400, { 'content-type': 'application/json', 'x-request-id': `req ${clientSecret}` }).end(body);
    });
    const result = await runBin(['status', '--check', '--json'], {
      env: { MKT_TOKEN: TOKEN, MKT_CLIENT_SECRET: clientSecret, MKT_ORG: 'org_demo', MKT_BASE_URL: server.url, MKT_CONFIG_DIR: path.join(tempDir(), 'cfg') },
    });
    expect(result.code).toBe(2);
    const report = JSON.parse(result.stdout) as { check: { error: { message: string; request_id: string } } };
    expect(report.check.error.message).toContain('bad token Bearer [redacted] for [redacted]');
    expect(report.check.error.request_id).toBe('req [redacted]');
    expect(result.stdout).not.toContain(TOKEN);
    expect(result.stdout).not.toContain(clientSecret);
  });

  it('still scrubs the token from an error message that echoes it', async () => {
    const server = await servers.start((req, res) => {
      const body = JSON.stringify({ error: { code: 'INVALID_REQUEST', message: `bad token ${req.headers.authorization ?? ''}` } });
      res.writeHead(400, { 'content-type': 'application/json' }).end(body);
    });
    const result = await run(server.url, ['--json']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(JSON.parse(result.stderr).error.message).toContain('bad token Bearer [redacted]');
    expect(result.stderr).not.toContain(TOKEN);
  });
});
