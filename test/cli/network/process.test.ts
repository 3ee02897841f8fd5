// What only a real process shows: Ctrl-C (and SIGTERM) during a request or a wait ends the built
// bin at once with exit 130 and leaves the config store as it was; NODE_EXTRA_CA_CERTS, which Node
// reads at start-up, is trusted. Needs dist/ (npm test builds it first).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { ROOT, baseEnv, collect, runBin, mkt } from '../../helpers/bin.js';
import { tempDir } from '../../helpers/cli.js';
import { sendError, sendQuotes, useServers } from '../../helpers/fault-server.js';
import { createTestCertificates } from '../../helpers/tls.js';
import { API_KEY, TOKEN } from '../../helpers/quotes-env.js';

const { start: server } = useServers();

beforeAll(() => {
  if (!fs.existsSync(path.join(ROOT, 'dist', 'cli', 'main.cjs'))) {
    throw new Error('dist/ is missing: run `npm run build` (npm test does it first)');
  }
});

/** A config dir holding a profile, written by the bin itself; returns its path and bytes. */
async function preparedConfig(): Promise<{ env: Record<string, string>; file: string; before: string }> {
  const home = tempDir('mkt-home-');
  const env = { HOME: home, MKT_CONFIG_DIR: path.join(home, 'config') };
  const set = await runBin(['config', 'set', 'org', 'org_demo'], { env });
  expect(set.code).toBe(0);
  const file = (await runBin(['config', 'path'], { env })).stdout.trim();
  return { env, file, before: fs.readFileSync(file, 'utf8') };
}

async function until(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('interrupted: exit 130 at once, the config store intact', () => {
  const hang = () => {};
  const rateLimitFor30s = (_req: unknown, res: import('node:http').ServerResponse) => sendError(res, 429, 'RATE_LIMITED', { 'retry-after': '30' });

  it.each([
    ['SIGINT', 'during a request', ['quotes', 'EURUSD'], hang, 'request'],
    ['SIGTERM', 'during a request', ['quotes', 'EURUSD'], hang, 'request'],
    ['SIGINT', 'during a Retry-After wait', ['quotes', 'EURUSD', '--max-wait', '1m', '--verbose'], rateLimitFor30s, 'wait'],
    ['SIGINT', 'during login', ['login'], hang, 'request'],
  ] as const)('%s %s', async (signal, _when, argv, handler, stage) => {
    const api = await server(handler);
    const config = await preparedConfig();
    const child = spawn(...mkt([...argv]), {
      env: baseEnv({ ...config.env, MKT_BASE_URL: api.url, MKT_TOKEN: TOKEN, MKT_API_KEY: API_KEY }),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const done = collect(child, performance.now(), undefined, 20_000);
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    await api.waitForRequests(1);
    if (stage === 'wait') await until(() => stderr.includes('rate limited; retrying in 30s (1/2)'), 'the wait to start');
    child.kill(signal);
    // Left alone, the request would hang for its 15 s timeout and be sent again, and the wait would
    // last 30 s: collect's 20 s deadline and the one request below fail either, with no timing asserted.
    const result = await done;

    expect(result.signal).toBeNull();
    expect(result.code).toBe(130);
    expect(result.stderr).toMatch(/^error: interrupted$/m);
    expect(result.stdout).toBe('');
    expect(api.requests).toHaveLength(1);
    const after = fs.readFileSync(config.file, 'utf8');
    expect(after).toBe(config.before);
    expect(JSON.parse(after)).toBeTypeOf('object');
  });
});

describe('NODE_EXTRA_CA_CERTS', () => {
  it('is trusted by the built bin, and its absence is the unknown-authority error', async () => {
    const certs = createTestCertificates();
    onTestFinished(() => fs.rmSync(certs.dir, { recursive: true, force: true }));
    const api = await server((req, res) => sendQuotes(req, res), { tls: certs });
    const home = tempDir('mkt-home-');
    const env = { HOME: home, MKT_CONFIG_DIR: path.join(home, 'config'), MKT_BASE_URL: api.url, MKT_TOKEN: TOKEN, MKT_ORG: 'org_demo' };
    const trusted = await runBin(['quotes', 'EURUSD'], { env: { ...env, NODE_EXTRA_CA_CERTS: certs.caFile } });
    expect(trusted.stderr).toBe('');
    expect(trusted.code).toBe(0);
    expect(trusted.stdout).toContain('EURUSD');
    const untrusted = await runBin(['quotes', 'EURUSD'], { env });
    expect(untrusted.code).toBe(7);
    expect(untrusted.stderr).toContain('certificate signed by an unknown authority');
  });
});
