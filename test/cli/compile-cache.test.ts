// Node's compile cache for the built CLI (src/cli/launch.ts): in a directory of this user's alone,
// never created through a link, honouring NODE_DISABLE_COMPILE_CACHE, holding no data, and never
// serving the code of another build. Node 20 has no compile cache: there the CLI runs without one
// and these tests check that it creates nothing.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { BIN, ROOT, baseEnv, collect, runBin, startSandboxProcess, type SandboxProcess } from '../helpers/bin.js';
import { canBindAccounts, runWithAccounts, SOLO, TEAM } from '../config/as-another-user.js';

const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
const hasCompileCache = major > 22 || (major === 22 && minor >= 1);
/** Why the cache's own tests are skipped on an older Node: said by each (a verbose reporter shows it) and once for the file. */
const NO_COMPILE_CACHE = `Node ${process.versions.node} has no compile cache (module.enableCompileCache came in Node 22.1)`;
if (!hasCompileCache) console.warn(`test/cli/compile-cache.test.ts: the tests of the cache itself are skipped: ${NO_COMPILE_CACHE}`);
/** Why the group case is skipped where the cache is there: it needs other account files. */
const NO_ACCOUNTS = 'it needs root and unshare -m, for account files of its own';

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

/** A logged-in user of their own, whose compile cache goes to `<home>/cache/mkt`. */
async function user(extra: Record<string, string> = {}) {
  const home = tempDir();
  const env = { HOME: home, XDG_CACHE_HOME: path.join(home, 'cache'), MKT_CONFIG_DIR: path.join(home, 'config'), MKT_BASE_URL: sandbox.url, ...extra };
  const login = await runBin(['login', '--with-api-key', '--org', 'org_cache'], { env, input: `cachetest.${SECRET}\n` });
  expect(login.code).toBe(0);
  const dir = path.join(home, 'cache', 'mkt');
  /** Every file under the cache directory, relative to it. */
  const files = () => (fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true }).map(String).filter((f) => fs.lstatSync(path.join(dir, f)).isFile()).sort() : []);
  return { home, env, dir, files };
}

/** The built CLI (bin/, dist/cli/, package.json) copied to a directory of its own. */
function copyOfBuild(): string {
  const dir = tempDir();
  fs.cpSync(path.join(ROOT, 'bin'), path.join(dir, 'bin'), { recursive: true });
  fs.cpSync(path.join(ROOT, 'dist', 'cli'), path.join(dir, 'dist', 'cli'), { recursive: true });
  fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(dir, 'package.json'));
  return dir;
}

function runCopy(copy: string, args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [path.join(copy, 'bin', 'mkt.cjs'), ...args], { env: baseEnv(env), stdio: ['pipe', 'pipe', 'pipe'] });
  return collect(child, performance.now(), '', 20_000);
}

/** The edit: the table's header "Symbol" becomes "HACKED", the same length, so that only the text differs. */
function hack(copy: string): void {
  const file = path.join(copy, 'dist', 'cli', 'main.cjs');
  const text = fs.readFileSync(file, 'utf8');
  const literal = /(["'])Symbol\1/g;
  if (!literal.test(text)) throw new Error('the bundle has no "Symbol" literal: choose another same-length edit for this test');
  fs.writeFileSync(file, text.replace(literal, '$1HACKED$1'));
}

describe('the compile cache', () => {
  it('is written to $XDG_CACHE_HOME/mkt (0700) and used by the next run', async ({ skip }) => {
    skip(!hasCompileCache, NO_COMPILE_CACHE);
    const { env, dir, files } = await user();
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    const first = await runBin(['quotes', 'EURUSD', '--json'], { env });
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(files().length).toBeGreaterThan(0);
    const second = await runBin(['quotes', 'EURUSD', 'AAPL', '--json'], { env: { ...env, NODE_DEBUG_NATIVE: 'COMPILE_CACHE' } });
    expect(second.code).toBe(0);
    expect(second.stderr).toMatch(/main\.cjs was accepted/);
    expect(JSON.parse(second.stdout).data.map((q: { symbol: string }) => q.symbol)).toEqual(['EURUSD', 'AAPL']);
  });

  it('holds compiled code only: no token, secret or quote of the runs that wrote it', async ({ skip }) => {
    skip(!hasCompileCache, NO_COMPILE_CACHE);
    const { env, home, dir, files } = await user();
    const quotes = await runBin(['quotes', 'EURUSD', 'GBPUSD', '--json'], { env });
    expect(quotes.code).toBe(0);
    const token = JSON.parse(fs.readFileSync(path.join(home, 'config', 'config.json'), 'utf8')).profiles.default.token.access_token as string;
    expect(token.length).toBeGreaterThan(10);
    const data = JSON.parse(quotes.stdout).data as Array<{ timestamp: string }>;
    expect(files().length).toBeGreaterThan(0);
    for (const file of files()) {
      const text = fs.readFileSync(path.join(dir, file), 'latin1');
      for (const secret of [token, SECRET]) {
        expect(text).not.toContain(secret);
        // In UTF-16 as well, as V8 may keep strings.
        expect(text).not.toContain(Buffer.from(secret, 'utf16le').toString('latin1'));
      }
      for (const quote of data) expect(text).not.toContain(quote.timestamp);
    }
  });

  // V8's flags are part of the cache's key: another directory would mean other flags. A short run's
  // one flag comes at its first connection (src/cli/network/wasm-budget.ts), after the bundle is compiled,
  // so short and long-running commands (sandbox, --watch) share one cache.
  it('is one cache for every command: the flags are the same when the bundle is compiled', async ({ skip }) => {
    skip(!hasCompileCache, NO_COMPILE_CACHE);
    const { env, dir } = await user();
    expect((await runBin(['quotes', 'EURUSD', '--json'], { env })).code).toBe(0);
    const tags = () => fs.readdirSync(dir).sort();
    expect(tags()).toHaveLength(1);
    const [tag] = tags();
    // Each entry and its bytes: a cache V8 rejected would be written again.
    const entries = () => fs.readdirSync(path.join(dir, tag!)).sort().map((name) => [name, fs.readFileSync(path.join(dir, tag!, name)).toString('base64')]);
    const written = entries();
    expect(written.length).toBeGreaterThan(0);
    const watch = await runBin(['quotes', 'EURUSD', '--watch', '--count', '1'], { env });
    expect(watch.code).toBe(0);
    const sandboxRun = await runBin(['sandbox', '--port', 'nonsense'], { env });
    expect(sandboxRun.code).toBe(2);
    expect(tags()).toEqual([tag]);
    expect(entries()).toEqual(written);
  });

  it('is neither read nor written with NODE_DISABLE_COMPILE_CACHE set', async () => {
    const { env, dir } = await user({ NODE_DISABLE_COMPILE_CACHE: '1' });
    expect((await runBin(['quotes', 'EURUSD', '--json'], { env })).code).toBe(0);
    expect(fs.existsSync(dir)).toBe(false);
  });

  it('changes nothing but speed when it cannot be written', async () => {
    const blocked = path.join(tempDir(), 'not-a-directory');
    fs.writeFileSync(blocked, '');
    const { env } = await user({ XDG_CACHE_HOME: blocked });
    const run = await runBin(['quotes', 'EURUSD', '--json'], { env });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(run.stdout).data[0].symbol).toBe('EURUSD');
  });

  it('creates nothing through a link: $XDG_CACHE_HOME/mkt pointing at a shared directory is not used', async () => {
    const { env, home } = await user();
    const shared = path.join(home, 'shared');
    fs.mkdirSync(shared, { mode: 0o777 });
    fs.chmodSync(shared, 0o777);
    const dir = path.join(home, 'cache', 'mkt');
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    fs.symlinkSync(shared, dir);
    for (let i = 0; i < 2; i++) expect(await runBin(['quotes', 'EURUSD', '--json'], { env })).toMatchObject({ code: 0, stderr: '' });
    expect(fs.readdirSync(shared)).toEqual([]);
    expect(fs.lstatSync(dir).isSymbolicLink()).toBe(true);
  });

  it('is not used from a directory others can write to, or whose parent all can write to', async () => {
    const { env, dir } = await user();
    // Empty, as the login left it on a Node with a compile cache.
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    for (const [target, mode] of [[dir, 0o777], [dir, 0o720], [path.dirname(dir), 0o777]] as const) {
      fs.chmodSync(target, mode);
      expect(await runBin(['quotes', 'EURUSD', '--json'], { env })).toMatchObject({ code: 0, stderr: '' });
      expect(fs.readdirSync(dir)).toEqual([]);
      fs.chmodSync(target, 0o700);
    }
  });

  // The directory above is writable by its group: used only when nobody else is in that group.
  it('is not used when the directory above it is writable by a group with another member', async ({ skip }) => {
    skip(!hasCompileCache, NO_COMPILE_CACHE);
    skip(!canBindAccounts, NO_ACCOUNTS);
    const { env, dir, files } = await user();
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    fs.chownSync(path.dirname(dir), 0, TEAM);
    fs.chmodSync(path.dirname(dir), 0o770);
    expect(await runWithAccounts(['quotes', 'EURUSD', '--json'], env)).toMatchObject({ code: 0, stderr: '' });
    expect(files()).toEqual([]);
    fs.chownSync(path.dirname(dir), 0, SOLO);
    expect(await runWithAccounts(['quotes', 'EURUSD', '--json'], env)).toMatchObject({ code: 0, stderr: '' });
    expect(files().length).toBeGreaterThan(0);
  });

  it('ignores a relative XDG_CACHE_HOME, which would follow the working directory', async () => {
    const { env, home } = await user({ XDG_CACHE_HOME: 'relative-cache' });
    const cwd = tempDir();
    const child = spawn(process.execPath, [BIN, 'quotes', 'EURUSD', '--json'], { cwd, env: baseEnv(env), stdio: ['pipe', 'pipe', 'pipe'] });
    expect(await collect(child, performance.now(), '', 20_000)).toMatchObject({ code: 0, stderr: '' });
    expect(fs.existsSync(path.join(cwd, 'relative-cache'))).toBe(false);
    expect(fs.existsSync(path.join(home, '.cache', 'mkt'))).toBe(hasCompileCache);
  });

  it('never serves the code of another build: a same-length edit of a copy, cached first, does not reach the original', async () => {
    const { env } = await user();
    const original = copyOfBuild();
    const hacked = copyOfBuild();
    hack(hacked);
    for (let i = 0; i < 2; i++) {
      const run = await runCopy(hacked, ['quotes', 'EURUSD', '--format', 'table'], env);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('│ HACKED │');
    }
    const run = await runCopy(original, ['quotes', 'EURUSD', '--format', 'table'], env);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('│ Symbol │');
    expect(run.stdout).not.toContain('HACKED');
  });

  it('never serves stale code: a same-length edit of a cached bundle, in place, is what runs next', async () => {
    const { env } = await user();
    const copy = copyOfBuild();
    for (let i = 0; i < 2; i++) expect((await runCopy(copy, ['quotes', 'EURUSD', '--format', 'table'], env)).stdout).toContain('│ Symbol │');
    hack(copy);
    const run = await runCopy(copy, ['quotes', 'EURUSD', '--format', 'table'], env);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('│ HACKED │');
  });

  it('a damaged cache is refused and replaced', async ({ skip }) => {
    skip(!hasCompileCache, NO_COMPILE_CACHE);
    const { env, dir, files } = await user();
    expect((await runBin(['quotes', 'EURUSD', '--json'], { env })).code).toBe(0);
    for (const file of files()) {
      const data = fs.readFileSync(path.join(dir, file));
      for (let i = 64; i < data.length; i += 97) data[i] = data[i]! ^ 0xff;
      fs.writeFileSync(path.join(dir, file), data);
    }
    const run = await runBin(['quotes', 'EURUSD', '--json'], { env });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(run.stdout).data[0].symbol).toBe('EURUSD');
  });
});
