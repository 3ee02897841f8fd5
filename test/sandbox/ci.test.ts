// A sandbox made for CI: GET /healthz, --ready-file, --log, a warning beyond loopback, and a
// --clients file that cannot hang the start (a device or an idle pipe).
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { SandboxConfigError, startSandbox, type RequestLogEntry } from '../../src/sandbox/index.js';
import { baseEnv, collect, mkt } from '../helpers/bin.js';
import { createTestDeps, runCli, tempDir } from '../helpers/cli.js';
import { getQuotes, getToken, postForm, startTestSandbox, waitFor, type TestSandbox } from '../helpers/sandbox.js';

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function sandbox(options: Parameters<typeof startTestSandbox>[0] = {}): Promise<TestSandbox> {
  const sb = await startTestSandbox(options);
  cleanup.push(() => sb.close());
  return sb;
}

function scratch(): string {
  const dir = tempDir('mkt-ci-');
  cleanup.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** `mkt sandbox --port 0 ARGS` in-process through main; `stop()` interrupts it and gives its exit code. */
function runSandbox(args: string[]) {
  const controller = new AbortController();
  const test = createTestDeps({ signal: controller.signal });
  const running = main(['sandbox', '--port', '0', ...args], test.deps);
  return {
    test,
    /** Resolves once the banner is out, to the base URL on its first line. */
    url: async () => {
      await waitFor(() => test.stdout().includes('mkt quotes'));
      return test.stdout().split('\n')[0]!;
    },
    stop: () => {
      controller.abort();
      return running;
    },
  };
}

describe('GET /healthz', () => {
  it('answers 200 without credentials, is never rate limited, and counts against nothing', async () => {
    const sb = await sandbox({ limits: { perMinute: 1 } });
    for (let i = 0; i < 5; i++) {
      const response = await fetch(`${sb.url}/healthz`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: 'ok' });
      expect(response.headers.get('x-request-id')).toMatch(/^req_/);
      expect(response.headers.get('ratelimit-limit')).toBeNull();
    }
    const quotes = await getQuotes(sb.url, await getToken(sb.url), 'symbols=EURUSD');
    expect(quotes.status).toBe(200);
    expect(quotes.headers.get('ratelimit-remaining')).toBe('0');
    expect((await fetch(`${sb.url}/healthz`, { method: 'POST' })).status).toBe(405);
  });
});

describe('the ready file', () => {
  it('is written once listening, whole, with the URL and PID; replaces a stale one; and goes on close', async () => {
    const file = path.join(scratch(), 'sandbox.env');
    fs.writeFileSync(file, 'MKT_BASE_URL=http://127.0.0.1:1\nMKT_SANDBOX_PID=1\n');
    const sb = await startSandbox({ host: '127.0.0.1', port: 0, readyFile: file });
    const closed = sb.close.bind(sb);
    cleanup.push(closed);
    expect(fs.readFileSync(file, 'utf8')).toBe(`MKT_BASE_URL=${sb.url}\nMKT_SANDBOX_PID=${process.pid}\n`);
    expect(fs.readdirSync(path.dirname(file))).toEqual(['sandbox.env']);
    expect((await fetch(`${sb.url}/healthz`)).status).toBe(200);
    await sb.close();
    expect(fs.existsSync(file)).toBe(false);
  });

  it('leaves alone a ready file another sandbox has written since', async () => {
    const file = path.join(scratch(), 'sandbox.env');
    const sb = await startSandbox({ host: '127.0.0.1', port: 0, readyFile: file });
    cleanup.push(() => sb.close());
    fs.writeFileSync(file, 'MKT_BASE_URL=http://127.0.0.1:2\nMKT_SANDBOX_PID=2\n');
    await sb.close();
    expect(fs.existsSync(file)).toBe(true);
  });

  it.each([
    ['a missing directory', (dir: string) => path.join(dir, 'no', 'such', 'dir', 'sandbox.env'), /cannot write the ready file .*: its directory does not exist/],
    ['a directory', (dir: string) => dir, /cannot write the ready file .*: it is a directory/],
  ])('refuses %s before listening, as a usage error (exit 2)', async (_name, target, pattern) => {
    const file = target(scratch());
    await expect(startSandbox({ host: '127.0.0.1', port: 0, readyFile: file })).rejects.toBeInstanceOf(SandboxConfigError);
    const result = await runCli(['sandbox', '--port', '0', '--ready-file', file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(pattern);
    expect(result.stdout).toBe('');
  });

  it('is written by mkt sandbox --ready-file, and removed when it stops', async () => {
    const file = path.join(scratch(), 'sandbox.env');
    const sandboxRun = runSandbox(['--ready-file', file]);
    await waitFor(() => fs.existsSync(file));
    const url = /^MKT_BASE_URL=(\S+)$/m.exec(fs.readFileSync(file, 'utf8'))![1]!;
    expect(await sandboxRun.url()).toBe(url);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    expect(await sandboxRun.stop()).toBe(0);
    expect(fs.existsSync(file)).toBe(false);
  });
});

describe('the request log', () => {
  it('gives onRequest one entry per answered request: method, path without the query, status, client, time', async () => {
    const entries: RequestLogEntry[] = [];
    const sb = await sandbox({ onRequest: (entry) => entries.push(entry) });
    const token = await getToken(sb.url);
    await getQuotes(sb.url, token, 'symbols=EURUSD');
    await fetch(`${sb.url}/nowhere`);
    await waitFor(() => entries.length === 3);
    expect(entries.map(({ method, path: p, status, clientId }) => [method, p, status, clientId])).toEqual([
      ['POST', '/v1/auth/token', 200, 'demo'],
      ['GET', '/v1/market/quotes', 200, 'demo'],
      ['GET', '/nowhere', 404, undefined],
    ]);
    expect(entries[0]!.time).toBe(sb.clock.now());
    expect(entries.every((entry) => entry.durationMs >= 0 && /^req_/.test(entry.requestId))).toBe(true);
  });

  it('mkt sandbox --log writes one line per request on stderr, and never a secret or the query', async () => {
    const sandboxRun = runSandbox(['--log']);
    const { test } = sandboxRun;
    const url = await sandboxRun.url();
    const basic = `Basic ${Buffer.from('demo:demo-secret').toString('base64')}`;
    const token = (await postForm(`${url}/v1/auth/token`, { grant_type: 'client_credentials' }, { authorization: basic })).json as { access_token: string };
    await fetch(`${url}/v1/market/quotes?symbols=EURUSD&access_token=${token.access_token}`, {
      headers: { authorization: `Bearer ${token.access_token}`, 'x-organization-id': 'org_demo' },
    });
    await postForm(`${url}/v1/auth/token`, { grant_type: 'client_credentials', client_id: 'demo', client_secret: 'not-the-secret' });
    await waitFor(() => test.stderr().split('\n').filter((line) => line.includes(' req_')).length === 3);
    expect(await sandboxRun.stop()).toBe(0);
    const lines = test.stderr().split('\n').filter((line) => line.includes(' req_'));
    const shape = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (POST|GET) (\/\S*) (\d{3}) (\S+) \d+\.\dms req_[0-9a-f]{20}$/;
    expect(lines.map((line) => shape.exec(line)?.slice(1, 5))).toEqual([
      ['POST', '/v1/auth/token', '200', 'demo'],
      ['GET', '/v1/market/quotes', '400', 'demo'],
      ['POST', '/v1/auth/token', '401', '-'],
    ]);
    for (const secret of ['demo-secret', 'not-the-secret', token.access_token, 'symbols']) expect(test.stderr()).not.toContain(secret);
  });
});

describe('listening beyond loopback', () => {
  it('warns on stderr, before anything listens, for a host that is not loopback', async () => {
    // 192.0.2.1 (TEST-NET-1) is no address of this machine: the warning shows and nothing listens.
    const result = await runCli(['sandbox', '--port', '0', '--host', '192.0.2.1']);
    expect(result.stderr).toMatch(/warning: --host 192\.0\.2\.1 is not a loopback address: other machines .* --host 127\.0\.0\.1/);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('cannot listen on host 192.0.2.1');
  });

  it.each(['127.0.0.1', 'localhost', '::1'])('stays quiet for %s', async (host) => {
    const sandboxRun = runSandbox(['--host', host]);
    await sandboxRun.url();
    expect(await sandboxRun.stop()).toBe(0);
    expect(sandboxRun.test.stderr()).not.toContain('warning');
  });
});

describe('a clients file without a size', () => {
  it('ends --clients /dev/zero with exit 2 naming the limit', async () => {
    const result = await runCli(['sandbox', '--port', '0', '--clients', '/dev/zero']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error: clients file /dev/zero is larger than 1 MiB');
    expect(result.stdout).toBe('');
  });

  it('stops on SIGTERM while waiting on a pipe nobody writes to (exit 130)', async () => {
    const fifo = path.join(scratch(), 'clients.fifo');
    execFileSync('mkfifo', [fifo]);
    const child = spawn(...mkt(['sandbox', '--port', '0', '--clients', fifo]), { env: baseEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    cleanup.push(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
    const result = collect(child, performance.now(), undefined, 20_000);
    // The pipe opens for writing (without blocking) only once the process has it open to read: it
    // is then waiting on it, however long a busy machine took to get there. Nothing is written.
    const writer = await openWhenRead(fifo);
    child.kill('SIGTERM');
    const { code, stderr, stdout } = await result;
    fs.closeSync(writer);
    expect(code).toBe(130);
    expect(stderr).toBe('error: interrupted\n');
    expect(stdout).toBe('');
  });

  it('reads a pipe whose writer comes later', async () => {
    const fifo = path.join(scratch(), 'clients.fifo');
    execFileSync('mkfifo', [fifo]);
    const sandboxRun = runSandbox(['--clients', fifo]);
    // The write end opens without blocking once the sandbox has the pipe open to read. A blocking
    // open here would wait on this very thread, which the in-process sandbox needs to get there.
    const writer = await openWhenRead(fifo);
    fs.writeSync(writer, JSON.stringify([{ client_id: 'ci', client_secret: 's3cret', orgs: ['org_ci'], scopes: ['market.read'] }]));
    fs.closeSync(writer);
    const url = await sandboxRun.url();
    expect((await getQuotes(url, await getToken(url, 'ci', 's3cret'), 'symbols=EURUSD', 'org_ci')).status).toBe(200);
    expect(await sandboxRun.stop()).toBe(0);
  });
});

/** A write end of `fifo`, once a reader has it open (ENXIO until then); gives up after 15 s. */
async function openWhenRead(fifo: string): Promise<number> {
  const until = Date.now() + 15_000;
  for (;;) {
    try {
      return fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENXIO' || Date.now() > until) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}
