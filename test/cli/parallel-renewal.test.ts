// Issue 19, item 5: renewal is single-flight across processes. Twenty `mkt quotes` started together
// with client credentials and an expired stored token, against a service issuing at most five
// tokens a minute: one of them mints, the others find its token in the file under the lock.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '../../src/sandbox/index.js';
import { baseEnv, collect, mkt } from '../helpers/bin.js';
import { tempDir } from '../helpers/cli.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

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
    fs.writeFileSync(path.join(configDir, 'config.json'), JSON.stringify({ profiles: { default: { token: {
      access_token: 'expired-token', token_type: 'Bearer', base_url: sandbox.url, source: 'client-credentials', client_id: 'demo',
      obtained_at: new Date(hourAgo - 3_600_000).toISOString(), expires_at: new Date(hourAgo).toISOString(),
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
