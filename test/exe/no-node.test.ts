// The standalone executable (npm run build:exe) on a machine without Node: every directory holding a
// `node` is hidden under an empty tmpfs in a private mount namespace (unshare -rm), and each
// command runs there, the sandbox too. Runs under npm run test:exe (MKT_TEST_EXE).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, collect, EXE, ROOT, type BinResult } from '../helpers/bin.js';
import { tempDir } from '../helpers/cli.js';

const VERSION = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version as string;
const hasUnshare = spawnSync('unshare', ['-rm', 'true'], { stdio: 'ignore' }).status === 0;

/** Every directory a `node` could be found in: PATH's and the one running these tests. */
function nodeDirectories(): string[] {
  const dirs = new Set<string>();
  for (const dir of [...(process.env.PATH ?? '').split(path.delimiter), path.dirname(process.execPath)]) {
    if (dir && fs.existsSync(path.join(dir, 'node'))) dirs.add(fs.realpathSync(dir));
  }
  dirs.add(path.dirname(fs.realpathSync(process.execPath)));
  // The deepest first: a directory under another one is hidden before its parent is.
  return [...dirs].sort((a, b) => b.length - a.length);
}

// Mounts an empty tmpfs over each directory, checks that no node is left, then runs mkt.
const HIDE_NODE = `
for dir in $MKT_HIDE; do mount -t tmpfs -o size=4k,mode=755 tmpfs "$dir" || exit 99; done
if command -v node >/dev/null 2>&1; then echo "a node is still there: $(command -v node)" >&2; exit 98; fi
exec "$@"`;

function spawnHidden(args: string[], env: Record<string, string | undefined>, stdin: 'pipe' | 'ignore'): ChildProcess {
  return spawn('unshare', ['-rm', '/bin/sh', '-c', HIDE_NODE, 'sh', EXE!, ...args], {
    env: baseEnv({ ...env, MKT_HIDE: nodeDirectories().join(' ') }),
    stdio: [stdin, 'pipe', 'pipe'],
  });
}

function runHidden(args: string[], env: Record<string, string | undefined> = {}, input?: string): Promise<BinResult> {
  return collect(spawnHidden(args, env, 'pipe'), performance.now(), input, 30_000);
}

describe.runIf(EXE !== undefined && hasUnshare)('the executable with no node anywhere (npm run test:exe; needs unshare -rm)', () => {
  let sandbox: ChildProcess;
  let url: string;
  let config: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    sandbox = spawnHidden(['sandbox', '--port', '0'], {}, 'ignore');
    url = await new Promise<string>((resolve, reject) => {
      sandbox.once('exit', (code) => reject(new Error(`the sandbox exited with ${code}`)));
      createInterface({ input: sandbox.stdout! }).once('line', (line) => resolve(line.trim()));
    });
    config = tempDir();
    env = { MKT_CONFIG_DIR: config, MKT_BASE_URL: url, XDG_CACHE_HOME: tempDir() };
  });

  afterAll(async () => {
    if (sandbox.exitCode === null) await new Promise((done) => sandbox.once('exit', done).kill('SIGTERM'));
  });

  it('hides node: a shell in there finds none, and mkt still starts', async () => {
    const probe = await collect(spawn('unshare', ['-rm', '/bin/sh', '-c', HIDE_NODE, 'sh', '/bin/sh', '-c', 'node --version'], {
      env: baseEnv({ MKT_HIDE: nodeDirectories().join(' ') }),
      stdio: ['ignore', 'pipe', 'pipe'],
    }), performance.now(), undefined, 10_000);
    expect(probe.code).toBe(127);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('prints the package version and nothing else: no SEA warning', async () => {
    expect(await runHidden(['--version'])).toMatchObject({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
  });

  it('logs in, gets a token, and keeps the config file private (0600)', async () => {
    const login = await runHidden(['login', '--with-api-key', '--org', 'org_demo'], env, 'demo.demo-secret\n');
    expect(login).toMatchObject({ code: 0, stdout: '' });
    expect(login.stderr).not.toMatch(/Warning|single-executable/);
    const token = await runHidden(['token', '--profile', 'ci', '--org', 'org_demo'], { ...env, MKT_CLIENT_ID: 'demo', MKT_CLIENT_SECRET: 'demo-secret' });
    expect(token.code).toBe(0);
    const file = path.join(config, 'config.json');
    expect(Object.keys(JSON.parse(fs.readFileSync(file, 'utf8')).profiles).sort()).toEqual(['ci', 'default']);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it.each([
    ['json', (out: string) => expect(JSON.parse(out).data.map((q: { symbol: string }) => q.symbol)).toEqual(['EURUSD', 'AAPL'])],
    ['ndjson', (out: string) => expect(out.trim().split('\n').map((line) => JSON.parse(line).symbol)).toEqual(['EURUSD', 'AAPL'])],
    ['csv', (out: string) => expect(out.split('\n').slice(1, 3).map((line) => line.split(',')[0])).toEqual(['EURUSD', 'AAPL'])],
    ['tsv', (out: string) => expect(out.split('\n').slice(1, 3).map((line) => line.split('\t')[0])).toEqual(['EURUSD', 'AAPL'])],
    ['table', (out: string) => expect(out).toMatch(/EURUSD[\s\S]*AAPL/)],
  ])('mkt quotes --format %s', async (format, check) => {
    const result = await runHidden(['quotes', 'EURUSD', 'AAPL', '--format', format], env);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    check(result.stdout);
  });

  it('mkt quotes --watch polls and ends after --count', async () => {
    const result = await runHidden(['quotes', 'EURUSD', '--watch', '--interval', '1s', '--count', '2', '--format', 'ndjson'], env);
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split('\n').map((line) => JSON.parse(line).symbol)).toEqual(['EURUSD', 'EURUSD']);
  });

  it('status --check, config and completion', async () => {
    expect(await runHidden(['status', '--check'], env)).toMatchObject({ code: 0 });
    expect(await runHidden(['config', 'set', 'format', 'csv'], env)).toMatchObject({ code: 0 });
    expect(await runHidden(['config', 'get', 'format'], env)).toMatchObject({ code: 0, stdout: 'csv\n' });
    for (const shell of ['bash', 'zsh', 'fish']) {
      const completion = await runHidden(['completion', shell], env);
      expect(completion).toMatchObject({ code: 0, stderr: '' });
      expect(completion.stdout).toMatch(/mkt/);
    }
  });

  it('treats the compile-cache directory as the npm install does: $XDG_CACHE_HOME/mkt, 0700; nothing with NODE_DISABLE_COMPILE_CACHE', async () => {
    const cache = tempDir();
    expect((await runHidden(['quotes', 'EURUSD', '--json'], { ...env, XDG_CACHE_HOME: cache })).code).toBe(0);
    expect(fs.statSync(path.join(cache, 'mkt')).mode & 0o777).toBe(0o700);
    const off = tempDir();
    expect((await runHidden(['quotes', 'EURUSD', '--json'], { ...env, XDG_CACHE_HOME: off, NODE_DISABLE_COMPILE_CACHE: '1' })).code).toBe(0);
    expect(fs.readdirSync(off)).toEqual([]);
  });

  it('exits with the codes of the README: 2, 3, 4, 5, 7', async () => {
    expect((await runHidden(['quotes', '--frobnicate'], env)).code).toBe(2);
    expect((await runHidden(['quotes', 'EURUSD', 'NOPE', '--strict'], env)).code).toBe(3);
    expect((await runHidden(['quotes', 'EURUSD'], { ...env, MKT_TOKEN: 'bogus' })).code).toBe(4);
    expect((await runHidden(['quotes', 'EURUSD'], { ...env, MKT_ORG: 'org_nope' })).code).toBe(5);
    const unreachable = await runHidden(['quotes', 'EURUSD', '--retries', '0'], { ...env, MKT_BASE_URL: 'http://127.0.0.1:9', MKT_TOKEN: 'x' });
    expect(unreachable.code).toBe(7);
    expect(unreachable.stderr).not.toMatch(/\n\s+at /);
  });
});
