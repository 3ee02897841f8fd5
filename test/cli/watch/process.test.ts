// The watch in a pipe as a real process: it ends (exit 0) when the reader goes away, as in
// `mkt quotes EURUSD --watch | head -3`, and on SIGTERM; each poll reaches the reader as it happens.
// With --count it ends by itself even when the service is down, as a CI job needs.
import { spawn } from 'node:child_process';
import net from 'node:net';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { baseEnv, collect, mkt } from '../../helpers/bin.js';
import { cliLogin } from '../../helpers/sandbox.js';

let sandbox: Sandbox;
let env: Record<string, string>;
beforeAll(async () => {
  sandbox = await startSandbox({ host: '127.0.0.1', port: 0 });
  env = baseEnv({ MKT_BASE_URL: sandbox.url, MKT_ORG: 'org_demo', MKT_TOKEN: await cliLogin(sandbox.url) });
});
afterAll(() => sandbox.close());

function watch() {
  const started = performance.now();
  const child = spawn(...mkt(['quotes', 'EURUSD', '--watch', '--interval', '1s']), { env, stdio: ['pipe', 'pipe', 'pipe'] });
  const firstLine = new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once('line', resolve));
  return { child, firstLine, started };
}

describe('the NDJSON stream as a process', () => {
  it('streams each poll as it happens and ends with exit 0 when the reader goes away', async () => {
    const { child, firstLine, started } = watch();
    const done = collect(child, started, undefined, 15_000);
    expect(JSON.parse(await firstLine).symbol).toBe('EURUSD');
    child.stdout!.destroy(); // the reader leaves, like head -1
    const result = await done;
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
  });

  it('ends with exit 0 on SIGTERM', async () => {
    const { child, firstLine, started } = watch();
    const done = collect(child, started, undefined, 15_000);
    await firstLine;
    child.kill('SIGTERM');
    const result = await done;
    expect(result).toMatchObject({ code: 0, signal: null, stderr: '' });
  });
});

describe('--count against a dead service, as a process', () => {
  it('ends after two polls (one real 1 s wait) with exit 7 instead of retrying forever', async () => {
    // A port that was free a moment ago and has nothing listening now: connection refused.
    const port = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    const child = spawn(...mkt(['quotes', 'EURUSD', '--watch', '--interval', '1s', '--count', '2']), {
      env: { ...env, MKT_BASE_URL: `http://127.0.0.1:${port}` }, stdio: ['pipe', 'pipe', 'pipe'],
    });
    // collect's deadline fails a watch that kept waiting rather than ending: no timing is asserted.
    const result = await collect(child, performance.now(), undefined, 15_000);
    expect(result.code).toBe(7);
    expect(result.stdout).toBe('');
    // One retry, then the error: the warning and the error, and nothing between them.
    expect(result.stderr).toMatch(/^warning: connection refused .*; retrying at .*\nerror: connection refused /);
  });
});
