// Issue 19, item 6: with client credentials at hand, a 401 to a data request renews the token once
// and repeats the request once; a second 401 is exit 4. A service that lost its tokens (a restart)
// is played by a server that takes only the last token it issued.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir, type TestDepsOptions } from '../../helpers/cli.js';
import { FINGERPRINT_KEY, fingerprintOf } from '../../helpers/client-token.js';
import { useServers } from '../../helpers/fault-server.js';

const servers = useServers();
const CREDS = { MKT_CLIENT_ID: 'demo', MKT_CLIENT_SECRET: 'demo-secret', MKT_ORG: 'org_demo' };
const NOW = Date.UTC(2026, 10, 24, 12);

/** Issues tok-1, tok-2...; quotes only with the last one issued (none at first: the restart), or never. */
async function restartedService(options: { acceptsAny?: false } = {}) {
  let issued = 0;
  const server = await servers.start((req, res) => {
    if (req.url === '/v1/auth/token') {
      issued++;
      return res.writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ access_token: `tok-${issued}`, token_type: 'Bearer', expires_in: 3600, scope: 'market.read' }));
    }
    const good = options.acceptsAny !== false && issued > 0 && req.headers.authorization === `Bearer tok-${issued}`;
    if (!good) return res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":{"code":"UNAUTHORIZED","message":"invalid token"}}');
    return res.writeHead(200, { 'content-type': 'application/json' })
      .end('{"data":[{"symbol":"EURUSD","bid":1.1,"ask":1.2,"mid":1.15,"timestamp":"2026-11-24T12:00:00Z"}]}');
  });
  const configDir = path.join(tempDir(), 'cfg');
  fs.mkdirSync(configDir, { mode: 0o700 });
  // The client's own token from before the restart, an hour from expiry by the stored clock.
  fs.writeFileSync(path.join(configDir, 'config.json'), JSON.stringify({ fingerprint_key: FINGERPRINT_KEY, profiles: { default: { token: {
    access_token: 'tok-before-restart', token_type: 'Bearer', base_url: server.url, source: 'client-credentials', client_id: 'demo',
    secret_fingerprint: fingerprintOf('demo-secret'), obtained_at: new Date(NOW).toISOString(), expires_at: new Date(NOW + 3_600_000).toISOString(),
  } } } }), { mode: 0o600 });
  // A clock that the watch's sleeps move, so that its waits cost no real time.
  let time = NOW + 60_000;
  const sleep = async (ms: number) => {
    time += ms;
  };
  const run = (argv: string[], options: TestDepsOptions = {}) =>
    runCli(argv, { configDir, now: () => time, sleep, ...options, env: { MKT_BASE_URL: server.url, ...options.env } });
  const count = (what: string) => server.requests.filter((request) => request.url.startsWith(what)).length;
  const stored = () => JSON.parse(fs.readFileSync(path.join(configDir, 'config.json'), 'utf8')).profiles.default.token.access_token as string;
  return { server, run, count, stored };
}

describe('a 401 with client credentials at hand', () => {
  it('mkt quotes renews the token once and asks again: exit 0', async () => {
    const service = await restartedService();
    const result = await service.run(['quotes', 'EURUSD', '--json'], { env: CREDS });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).data[0].symbol).toBe('EURUSD');
    expect(service.count('/v1/auth/token')).toBe(1);
    expect(service.count('/v1/market/quotes')).toBe(2);
    expect(service.stored()).toBe('tok-1');
  });

  it('mkt quotes --watch renews and goes on', async () => {
    const service = await restartedService();
    const result = await service.run(['quotes', 'EURUSD', '--watch', '--count', '2', '--interval', '1s'], { env: CREDS });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim().split('\n')).toHaveLength(2);
    expect(service.count('/v1/auth/token')).toBe(1);
    expect(service.count('/v1/market/quotes')).toBe(3);
  });

  it('mkt status --check renews and passes', async () => {
    const service = await restartedService();
    const result = await service.run(['status', '--check', '--json'], { env: CREDS });
    expect(result.code, result.stdout).toBe(0);
    expect(JSON.parse(result.stdout).check).toMatchObject({ ok: true, status: 200 });
    expect(service.count('/v1/auth/token')).toBe(1);
  });

  it.each([
    ['mkt quotes', ['quotes', 'EURUSD']],
    ['mkt quotes --watch', ['quotes', 'EURUSD', '--watch', '--count', '3', '--interval', '1s']],
  ])('%s: a second 401 is exit 4, after one renewal', async (_name, argv) => {
    const service = await restartedService({ acceptsAny: false });
    const result = await service.run(argv, { env: CREDS });
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/401/);
    expect(result.stderr).toMatch(/hint: the service refused a token mkt had just got with MKT_CLIENT_ID/);
    expect(service.count('/v1/auth/token')).toBe(1);
    expect(service.count('/v1/market/quotes')).toBe(2);
  });

  it('without client credentials a 401 is exit 4 at once, with no token request', async () => {
    const service = await restartedService();
    const result = await service.run(['quotes', 'EURUSD'], { env: { MKT_ORG: 'org_demo' } });
    expect(result.code).toBe(4);
    expect(service.count('/v1/auth/token')).toBe(0);
    expect(service.count('/v1/market/quotes')).toBe(1);
  });

  it('MKT_TOKEN is never replaced: exit 4, with no token request', async () => {
    const service = await restartedService();
    const result = await service.run(['quotes', 'EURUSD'], { env: { ...CREDS, MKT_TOKEN: 'tok-from-env' } });
    expect(result.code).toBe(4);
    expect(service.count('/v1/auth/token')).toBe(0);
  });
});
