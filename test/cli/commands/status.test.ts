// Issue 12 section 2: a pre-flight a CI job can trust. Offline, `mkt status` counts client
// credentials in the environment as usable and warns when the organization is not the token's;
// `mkt status --check` asks the service with one quotes request and exits with its answer's code.
import { describe, expect, it } from 'vitest';
import { sendError, useServers } from '../../helpers/fault-server.js';
import { useSandboxSession } from '../../helpers/sandbox-session.js';

const session = useSandboxSession();
const { run, login } = session;
const servers = useServers();
const later = () => session.sandbox.clock.now() + 3_600_000;
const clientCredentials = { MKT_CLIENT_ID: 'demo', MKT_CLIENT_SECRET: 'demo-secret', MKT_ORG: 'org_demo' };

describe('red while quotes work: client credentials in the environment are usable', () => {
  it('with no stored token: status exits 0, and so does quotes', async () => {
    const status = await run(['status'], { env: clientCredentials });
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/^Client credentials: +demo {2}\(from MKT_CLIENT_ID and MKT_CLIENT_SECRET\)$/m);
    expect(status.stdout).toContain(`Warning: no stored token of client demo for ${session.sandbox.url}; MKT_CLIENT_ID and MKT_CLIENT_SECRET will get a new one when a command needs it`);
    expect(status.stdout).toContain('Credentials are usable.');
    const json = JSON.parse((await run(['status', '--json'], { env: clientCredentials })).stdout);
    expect(json).toMatchObject({ usable: true, client_credentials: { present: true, client_id: 'demo', renews_token: true }, check: null });
    expect((await run(['quotes', 'EURUSD'], { env: clientCredentials })).code).toBe(0);
  });

  it('with an expired stored token of that client: the same', async () => {
    expect((await run(['token'], { env: clientCredentials })).code).toBe(0);
    expect((await run(['status'], { now: later })).code).toBe(4);
    const status = await run(['status'], { now: later, env: clientCredentials });
    expect(status.code).toBe(0);
    expect(status.stdout).toContain('Warning: the stored token expired 50m ago; MKT_CLIENT_ID and MKT_CLIENT_SECRET will get a new one');
  });

  it('--check proves it: a token is minted and the service answers', async () => {
    const result = await run(['status', '--check', '--json'], { env: clientCredentials });
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.schema_version).toBe(1);
    expect(report.check).toEqual({
      ok: true, symbol: 'EURUSD', status: 200, quote_found: true, exit_code: 0, error: null,
      rate_limit: { limit: 60, remaining: expect.any(Number), reset_seconds: 45 },
    });
  });
});

describe('green while quotes fail: --check tells the truth', () => {
  it('MKT_TOKEN=garbage: usable offline, exit 4 with --check', async () => {
    const env = { MKT_TOKEN: 'garbage', MKT_ORG: 'org_demo' };
    expect((await run(['status'], { env })).code).toBe(0);
    const result = await run(['status', '--check'], { env });
    expect(result.code).toBe(4);
    expect(result.stdout).toMatch(/^Check: +failed \(exit 4\): not authenticated \(401 UNAUTHORIZED\): invalid or expired access token$/m);
    expect(result.stdout).toMatch(/^ {2}Request id: +req_[0-9a-f]+$/m);
    expect(result.stdout).toMatch(/^Problem: the check failed: .*; MKT_TOKEN is set, and overrides any stored token/m);
    expect(result.stdout).not.toContain('Credentials are usable');
    expect((await run(['quotes', 'EURUSD'], { env })).code).toBe(4);
  });

  it('MKT_ORG=org_other with a token issued for org_demo: a warning offline, exit 5 with --check', async () => {
    await login();
    const env = { MKT_ORG: 'org_other' };
    const offline = await run(['status'], { env });
    expect(offline.code).toBe(0);
    expect(offline.stdout).toContain('Warning: the stored token was issued for org_demo, not org_other (from MKT_ORG): the service will refuse quotes (403)');
    const result = await run(['status', '--check', '--json'], { env });
    expect(result.code).toBe(5);
    const report = JSON.parse(result.stdout);
    expect(report.usable).toBe(false);
    expect(report.check).toMatchObject({ ok: false, status: 403, exit_code: 5, error: { code: 'FORBIDDEN', hint: expect.stringContaining('use --org org_demo') } });
    expect((await run(['quotes', 'EURUSD'], { env })).code).toBe(5);
  });

  it('an expired stored token and no client credentials: exit 4, and --check sends nothing', async () => {
    const server = await servers.answering(200, '{"access_token":"tok_short_lived_1","token_type":"Bearer","expires_in":60,"scope":"market.read"}');
    const env = { MKT_BASE_URL: server.url };
    expect((await run(['login', '--org', 'org_demo'], { env: { ...env, MKT_API_KEY: 'demo.demo-secret' } })).code).toBe(0);
    const result = await run(['status', '--check', '--json'], { env, now: later });
    expect(result.code).toBe(4);
    expect(JSON.parse(result.stdout)).toMatchObject({ usable: false, check: null });
    expect(server.requests.map((request) => request.url)).toEqual(['/auth/cli-login']);
  });
});

describe('--check against services that fail', () => {
  const env = (url: string) => ({ MKT_TOKEN: 'tok_check_123456', MKT_ORG: 'org_demo', MKT_BASE_URL: url });

  it.each([
    ['429', 6, (res: Parameters<typeof sendError>[0]) => sendError(res, 429, 'RATE_LIMITED', { 'retry-after': '3600' })],
    ['503', 7, (res: Parameters<typeof sendError>[0]) => sendError(res, 503, 'UNAVAILABLE', { 'retry-after': '0' })],
  ] as const)('%s: exit %i, the status still printed', async (_name, code, answer) => {
    const server = await servers.start((_req, res) => answer(res));
    const result = await run(['status', '--check', '--retries', '0'], { env: env(server.url) });
    expect(result.code).toBe(code);
    expect(result.stdout).toMatch(new RegExp(`^Check: +failed \\(exit ${code}\\)`, 'm'));
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.url).toBe('/v1/market/quotes?symbols=EURUSD');
  });

  it('nothing listening: exit 7', async () => {
    const result = await run(['status', '--check', '--json'], { env: env('http://127.0.0.1:9') });
    expect(result.code).toBe(7);
    expect(JSON.parse(result.stdout).check).toMatchObject({ ok: false, status: null, exit_code: 7, error: { code: 'ECONNREFUSED' } });
  });

  it('--check-symbol picks the symbol, and a bad one is exit 2 before any request', async () => {
    const server = await servers.answering(200, '{"data":[]}');
    const result = await run(['status', '--check', '--check-symbol', 'aapl'], { env: env(server.url) });
    expect(result.code).toBe(0);
    expect(server.requests[0]!.url).toBe('/v1/market/quotes?symbols=AAPL');
    expect(result.stdout).toContain('Warning: the service has no quote for AAPL');
    const bad = await run(['status', '--check', '--check-symbol', 'A B'], { env: env(server.url) });
    expect(bad.code).toBe(2);
    expect(server.requests).toHaveLength(1);
  });

  it('the text shows the rate-limit headroom', async () => {
    await login();
    const result = await run(['status', '--check']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Check: +ok: the service answered 200 for EURUSD$/m);
    expect(result.stdout).toMatch(/^ {2}Rate limit: +\d+ of 60 requests left; the window resets in 45s$/m);
    expect(result.stdout).toContain('Credentials are usable: the service took them.');
  });
});
