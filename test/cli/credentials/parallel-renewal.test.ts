// Issue 19, item 5: renewal is single-flight across processes. Twenty `mkt quotes` started together
// with client credentials and an expired stored token, against a service issuing at most five
// tokens a minute: one of them mints, the others find its token in the file under the lock.
// Issue 36, item 1: and it is single-flight per client: two clients renewing at once each mint
// their own token, and neither uses nor replaces the other's.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '../../../src/sandbox/index.js';
import { baseEnv, collect, mkt } from '../../helpers/bin.js';
import { tempDir } from '../../helpers/cli.js';
import { FINGERPRINT_KEY, fingerprintOf } from '../../helpers/client-token.js';
import { startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';

const PROCESSES = 20;
let sandbox: TestSandbox | undefined;
let root: string | undefined;
afterEach(async () => {
  await sandbox?.close();
  if (root !== undefined) fs.rmSync(root, { recursive: true, force: true });
  sandbox = undefined;
  root = undefined;
});

describe('twenty processes renewing one expired token', () => {
  it('send one token request between them, and all exit 0', async () => {
    const log: RequestLogEntry[] = [];
    sandbox = await startTestSandbox({ limits: { tokensPerMinute: 5 }, onRequest: (entry) => log.push(entry) });
    root = tempDir();
    const configDir = path.join(root, 'cfg');
    fs.mkdirSync(configDir, { mode: 0o700 });
    const hourAgo = Date.now() - 3_600_000;
    fs.writeFileSync(path.join(configDir, 'config.json'), JSON.stringify({ fingerprint_key: FINGERPRINT_KEY, profiles: { default: { token: {
      access_token: 'expired-token', token_type: 'Bearer', base_url: sandbox.url, source: 'client-credentials', client_id: 'demo',
      secret_fingerprint: fingerprintOf('demo-secret'), obtained_at: new Date(hourAgo - 3_600_000).toISOString(), expires_at: new Date(hourAgo).toISOString(),
    } } } }), { mode: 0o600 });
    const env = baseEnv({
      MKT_CONFIG_DIR: configDir, MKT_BASE_URL: sandbox.url, MKT_ORG: 'org_demo', MKT_CLIENT_ID: 'demo', MKT_CLIENT_SECRET: 'demo-secret',
    });
    const runs = await Promise.all(Array.from({ length: PROCESSES }, () => {
      const child = spawn(...mkt(['quotes', 'EURUSD', '--format', 'tsv']), { env, stdio: ['pipe', 'pipe', 'pipe'] });
      return collect(child, performance.now(), '', 90_000);
    }));
    const tokenRequests = log.filter((entry) => entry.path === '/v1/auth/token').length;
    expect(tokenRequests).toBeGreaterThanOrEqual(1);
    expect(tokenRequests, `${tokenRequests} token requests; exits: ${runs.map((run) => run.code).join(" ")}`).toBeLessThanOrEqual(2);
    const failed = runs.filter((run) => run.code !== 0);
    expect(failed.map((run) => run.stderr)).toEqual([]);
    expect(runs.every((run) => /^EURUSD\t/m.test(run.stdout))).toBe(true);
    const stored = JSON.parse(fs.readFileSync(path.join(configDir, 'config.json'), 'utf8')).profiles.default.token;
    expect(stored.access_token).not.toBe('expired-token');
  }, 120_000);
});

describe('twelve processes of two clients, at once', () => {
  it('each client mints its own token, uses it, and leaves the other\'s', async () => {
    const log: RequestLogEntry[] = [];
    sandbox = await startTestSandbox({
      limits: { tokensPerMinute: 5 }, onRequest: (entry) => log.push(entry),
      clients: [{ client_id: 'someoneelse', client_secret: 'other-secret', orgs: ['org_demo'], scopes: ['market.read'] }],
    });
    root = tempDir();
    const configDir = path.join(root, 'cfg');
    fs.mkdirSync(configDir, { mode: 0o700 });
    // demo's own token, expired; someoneelse has none.
    const hourAgo = Date.now() - 3_600_000;
    fs.writeFileSync(path.join(configDir, 'config.json'), JSON.stringify({ fingerprint_key: FINGERPRINT_KEY, profiles: { default: { token: {
      access_token: 'expired-token', token_type: 'Bearer', base_url: sandbox.url, source: 'client-credentials', client_id: 'demo',
      secret_fingerprint: fingerprintOf('demo-secret'), obtained_at: new Date(hourAgo - 3_600_000).toISOString(), expires_at: new Date(hourAgo).toISOString(),
    } } } }), { mode: 0o600 });
    const clients = [['demo', 'demo-secret'], ['someoneelse', 'other-secret']] as const;
    const runs = await Promise.all(Array.from({ length: 12 }, (_, i) => {
      const [id, secret] = clients[i % 2]!;
      const env = baseEnv({ MKT_CONFIG_DIR: configDir, MKT_BASE_URL: sandbox!.url, MKT_ORG: 'org_demo', MKT_CLIENT_ID: id, MKT_CLIENT_SECRET: secret });
      const child = spawn(...mkt(['quotes', 'EURUSD', '--format', 'tsv']), { env, stdio: ['pipe', 'pipe', 'pipe'] });
      return collect(child, performance.now(), '', 90_000);
    }));
    expect(runs.filter((run) => run.code !== 0).map((run) => run.stderr)).toEqual([]);
    for (const [id] of clients) {
      const minted = log.filter((entry) => entry.path === '/v1/auth/token' && entry.clientId === id).length;
      expect(minted, `${id} minted ${minted} tokens`).toBeGreaterThanOrEqual(1);
      expect(minted, `${id} minted ${minted} tokens`).toBeLessThanOrEqual(2);
      expect(log.filter((entry) => entry.path === '/v1/market/quotes' && entry.clientId === id)).toHaveLength(6);
    }
    const profile = JSON.parse(fs.readFileSync(path.join(configDir, 'config.json'), 'utf8')).profiles.default;
    expect(profile.token).toMatchObject({ client_id: 'demo', secret_fingerprint: fingerprintOf('demo-secret') });
    expect(profile.token.access_token).not.toBe('expired-token');
    expect(profile.client_tokens).toHaveLength(1);
    expect(profile.client_tokens[0]).toMatchObject({ client_id: 'someoneelse', secret_fingerprint: fingerprintOf('other-secret') });
  }, 120_000);
});
