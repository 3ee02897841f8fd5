// The V8 code cache of the built CLI (src/cli/code-cache.ts, src/cli/launch.ts): written once per
// build, Node version and command, used by the runs after, never holding data, and never able to
// make a run fail.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { BIN, baseEnv, collect, runBin, startSandboxProcess, type SandboxProcess } from '../helpers/bin.js';

// A client of this run's own: its secret appears nowhere in mkt's source, so finding it in a cache
// would mean the cache kept data.
const SECRET = `s${randomBytes(12).toString('hex')}`;
let sandbox: SandboxProcess;
beforeAll(async () => {
  const clients = path.join(tempDir(), 'clients.json');
  fs.writeFileSync(clients, JSON.stringify([{ client_id: 'cachetest', client_secret: SECRET, orgs: ['org_cache'], scopes: ['market.read'] }]));
  sandbox = await startSandboxProcess(['--per-minute', '1000', '--clients', clients]);
});
afterAll(() => sandbox.stop());

function runBinIn(cwd: string, args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env: baseEnv(env), stdio: ['pipe', 'pipe', 'pipe'] });
  return collect(child, performance.now(), '', 20_000);
}

/** A logged-in user of their own, whose code caches go to `<home>/cache/mkt/code-cache`. */
async function user(extra: Record<string, string> = {}) {
  const home = tempDir();
  const env = { HOME: home, XDG_CACHE_HOME: path.join(home, 'cache'), MKT_CONFIG_DIR: path.join(home, 'config'), MKT_BASE_URL: sandbox.url, ...extra };
  const login = await runBin(['login', '--with-api-key', '--org', 'org_cache'], { env, input: `cachetest.${SECRET}\n` });
  expect(login.code).toBe(0);
  const dir = path.join(home, 'cache', 'mkt', 'code-cache');
  const files = () => (fs.existsSync(dir) ? fs.readdirSync(dir).sort() : []);
  const cacheOf = (command: string) => {
    const name = files().find((file) => file.endsWith(`-${process.version}-${process.arch}-${command}.v8cache`));
    return name === undefined ? undefined : path.join(dir, name);
  };
  return { home, env, dir, files, cacheOf };
}

describe('the code cache', () => {
  it('is written after a successful run, one per command, readable by the user alone', async () => {
    const { env, dir, files, cacheOf } = await user();
    expect(files()).toHaveLength(1);
    expect(cacheOf('login')).toBeDefined();
    expect((await runBin(['--version'], { env })).code).toBe(0);
    expect(files()).toHaveLength(1);
    const quotes = await runBin(['quotes', 'EURUSD', '--json'], { env });
    expect(quotes).toMatchObject({ code: 0, stderr: '' });
    const file = cacheOf('quotes')!;
    expect(fs.statSync(file).size).toBeGreaterThan(10_000);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect(files().filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('is used by the next run: V8 accepts it, so it is not written again', async () => {
    const { env, cacheOf } = await user();
    const first = await runBin(['quotes', 'EURUSD', 'AAPL', '--json'], { env });
    expect(first.code).toBe(0);
    const before = fs.statSync(cacheOf('quotes')!);
    const second = await runBin(['quotes', 'EURUSD', 'AAPL', '--json'], { env });
    expect(second).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(second.stdout).data.map((q: { symbol: string }) => q.symbol)).toEqual(['EURUSD', 'AAPL']);
    const after = fs.statSync(cacheOf('quotes')!);
    // A refused cache is replaced through a rename: another inode.
    expect(after.ino).toBe(before.ino);
    expect(after.mtimeMs).toBe(before.mtimeMs);
  });

  it('holds compiled code only: no token, secret or quote of the run that wrote it', async () => {
    const { env, home, cacheOf } = await user();
    const quotes = await runBin(['quotes', 'EURUSD', 'GBPUSD', '--json'], { env });
    expect(quotes.code).toBe(0);
    const token = JSON.parse(fs.readFileSync(path.join(home, 'config', 'config.json'), 'utf8')).profiles.default.token.access_token as string;
    expect(token.length).toBeGreaterThan(10);
    const texts = ['quotes', 'login'].map((command) => fs.readFileSync(cacheOf(command)!, 'latin1'));
    const data = JSON.parse(quotes.stdout).data as Array<{ timestamp: string }>;
    for (const text of texts) {
      expect(text).not.toContain(token);
      expect(text).not.toContain(SECRET);
      for (const quote of data) expect(text).not.toContain(quote.timestamp);
      // In UTF-16 as well, as V8 may keep strings.
      expect(text).not.toContain(Buffer.from(token, 'utf16le').toString('latin1'));
      expect(text).not.toContain(Buffer.from(SECRET, 'utf16le').toString('latin1'));
    }
  });

  it.each([
    ['garbage', () => Buffer.from('not a code cache')],
    ['a cut-off cache', (file: string) => fs.readFileSync(file).subarray(0, 4000)],
    ['an empty file', () => Buffer.alloc(0)],
    // V8 would run this one, and crash, without the checksum it is told to check.
    ['one byte flipped inside', (file: string) => {
      const data = fs.readFileSync(file);
      data[200] = data[200]! ^ 0xff;
      return data;
    }],
  ])('a damaged one (%s) is ignored and replaced', async (_name, damage) => {
    const { env, cacheOf } = await user();
    expect((await runBin(['quotes', 'EURUSD', '--json'], { env })).code).toBe(0);
    const file = cacheOf('quotes')!;
    const size = fs.statSync(file).size;
    fs.writeFileSync(file, damage(file));
    const run = await runBin(['quotes', 'EURUSD', '--json'], { env });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(run.stdout).data[0].symbol).toBe('EURUSD');
    expect(fs.statSync(cacheOf('quotes')!).size).toBeGreaterThan(size / 2);
  });

  it('is neither read nor written with NODE_DISABLE_COMPILE_CACHE=1', async () => {
    const { env, dir, files } = await user({ NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(fs.existsSync(dir)).toBe(false);
    expect((await runBin(['quotes', 'EURUSD', '--json'], { env })).code).toBe(0);
    expect(files()).toEqual([]);
  });

  it('changes nothing when it cannot be written', async () => {
    const home = tempDir();
    const blocked = path.join(home, 'not-a-directory');
    fs.writeFileSync(blocked, '');
    const { env } = await user({ XDG_CACHE_HOME: blocked });
    const run = await runBin(['quotes', 'EURUSD', '--json'], { env });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(run.stdout).data[0].symbol).toBe('EURUSD');
  });

  it('is used only from a directory and a file of this user alone', async () => {
    const { env, dir, cacheOf } = await user();
    expect((await runBin(['quotes', 'EURUSD', '--json'], { env })).code).toBe(0);
    const file = cacheOf('quotes')!;
    // A cache runs as code. In a directory others could write to, it is neither read nor written.
    // (Damaged first: read, it would be refused and so replaced.)
    fs.writeFileSync(file, 'not a cache');
    for (const [target, mode] of [[dir, 0o777], [path.dirname(dir), 0o775]] as const) {
      fs.chmodSync(target, mode);
      const before = fs.statSync(file);
      const run = await runBin(['quotes', 'EURUSD', '--json'], { env });
      expect(run).toMatchObject({ code: 0, stderr: '' });
      expect(fs.statSync(file).ino).toBe(before.ino);
      fs.chmodSync(target, 0o700);
    }
    // A file others could write to, in a directory of the user's alone, is not read: a new one replaces it.
    fs.chmodSync(file, 0o666);
    const before = fs.statSync(file);
    expect((await runBin(['quotes', 'EURUSD', '--json'], { env })).code).toBe(0);
    expect(fs.statSync(file).ino).not.toBe(before.ino);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it('never follows a link or waits on a pipe at its place', async () => {
    const { env, home, cacheOf } = await user();
    expect((await runBin(['quotes', 'EURUSD', '--json'], { env })).code).toBe(0);
    const file = cacheOf('quotes')!;
    // A link to a good cache: followed, it would be used and left in place.
    const outside = path.join(home, 'outside');
    fs.copyFileSync(file, outside);
    const good = fs.readFileSync(outside);
    fs.rmSync(file);
    fs.symlinkSync(outside, file);
    expect((await runBin(['quotes', 'EURUSD', '--json'], { env })).code).toBe(0);
    expect(fs.lstatSync(file).isFile()).toBe(true);
    expect(fs.readFileSync(outside).equals(good)).toBe(true);
    fs.rmSync(file);
    execFileSync('mkfifo', [file]);
    const run = await runBin(['quotes', 'EURUSD', '--json'], { env, timeoutMs: 10_000 });
    expect(run).toMatchObject({ code: 0, stderr: '' });
  });

  it('ignores a relative XDG_CACHE_HOME, which would follow the working directory', async () => {
    const { env, home } = await user({ XDG_CACHE_HOME: 'relative-cache' });
    const cwd = tempDir();
    const run = await runBinIn(cwd, ['quotes', 'EURUSD', '--json'], env);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(fs.existsSync(path.join(cwd, 'relative-cache'))).toBe(false);
    expect(fs.readdirSync(path.join(home, '.cache', 'mkt', 'code-cache')).some((name) => name.endsWith('-quotes.v8cache'))).toBe(true);
  });

  it('is not written by a failed run', async () => {
    const { env, cacheOf } = await user();
    const run = await runBin(['quotes', 'EURUSD'], { env: { ...env, MKT_TOKEN: 'bogus' } });
    expect(run.code).toBe(4);
    expect(cacheOf('quotes')).toBeUndefined();
  });

  it('removes caches unused for 30 days when it writes one, and keeps the rest', async () => {
    const { env, dir, files } = await user();
    const old = path.join(dir, `0000000000000000-v0.0.0-x64-quotes.v8cache`);
    const recent = path.join(dir, `1111111111111111-v0.0.0-x64-quotes.v8cache`);
    const unrelated = path.join(dir, 'notes.txt');
    for (const file of [old, recent, unrelated]) fs.writeFileSync(file, 'x');
    const longAgo = new Date(Date.now() - 40 * 24 * 60 * 60 * 1000);
    fs.utimesSync(old, longAgo, longAgo);
    fs.utimesSync(unrelated, longAgo, longAgo);
    expect((await runBin(['status'], { env })).code).toBe(0);
    expect(files()).not.toContain(path.basename(old));
    expect(files()).toContain(path.basename(recent));
    expect(files()).toContain(path.basename(unrelated));
  });
});
