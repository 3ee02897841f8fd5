// Directories that are not mkt's. mkt sets modes only on what it creates: a directory it did not
// make (a shared /tmp-like one, the working directory, a home) keeps its mode, with a warning, and
// the token stays private by the file's own mode. And, as ssh does, a config file or directory that
// another user owns (root aside) or can write to (without the sticky bit) is refused, before any
// request: whoever can change config.json decides where the client secret is sent.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, collect, mkt, runBin, type BinResult } from '../helpers/bin.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { asRoot, canBindAccounts, cannotRunUnprivileged, NOBODY, reachableDir, runUnprivileged, runWithAccounts, SOLO, TEAM } from './as-another-user.js';

const posix = process.platform !== 'win32';
const mode = (target: string) => fs.statSync(target).mode & 0o7777;
if (!asRoot) console.warn('test/config/shared-dirs.test.ts: the cases with files of another user are skipped: only root can give a file to another user');

let sandbox: TestSandbox;
/** A listener as another user would run it: it counts what reaches it. */
let listener: http.Server;
let listened: string[] = [];
let listenerUrl = '';
beforeAll(async () => {
  sandbox = await startTestSandbox();
  listener = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      listened.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''} ${body}`);
      res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  listenerUrl = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await sandbox.close();
  await new Promise((resolve) => listener.close(resolve));
});
afterEach(() => {
  listened = [];
});

/** A config file sending everything to the listener. */
const PLANTED = () => `${JSON.stringify({ profiles: { default: { base_url: listenerUrl, org: 'org_demo' } } })}\n`;
const SECRETS = { MKT_CLIENT_ID: 'demo', MKT_CLIENT_SECRET: 'demo-secret' };

/** `mkt quotes EURUSD` with client credentials in the environment and the config in `dir`. */
function quotes(dir: string): Promise<BinResult> {
  return runBin(['quotes', 'EURUSD'], { env: { MKT_CONFIG_DIR: dir, ...SECRETS }, timeoutMs: 20_000 });
}

function expectRefused(result: BinResult | { code: number | null; stdout: string; stderr: string }, message: string, hint: string): void {
  expect(result.stderr).toContain(`error: ${message}`);
  expect(result.stderr).toContain(`hint: ${hint}`);
  expect(result.stdout).toBe('');
  expect(result.stderr).not.toMatch(/internal error|\n\s+at /);
  expect(result.code).toBe(2);
}

const RISK = "who could change mkt's settings, such as where the token and client secret are sent";

describe.runIf(posix)('directories mkt did not make keep their modes', () => {
  it('a directory at 1777: login stores the token 0600 in it, and the directory stays 1777, as the warning says', async () => {
    const dir = path.join(tempDir(), 't');
    fs.mkdirSync(dir);
    fs.chmodSync(dir, 0o1777);
    const result = await runCli(['login', '--org', 'org_demo', '--base-url', sandbox.url], { configDir: dir, env: { MKT_API_KEY: 'demo.demo-secret' } });
    expect(result.code).toBe(0);
    expect(mode(dir)).toBe(0o1777);
    expect(mode(path.join(dir, 'config.json'))).toBe(0o600);
    expect(result.stderr).toContain(`warning: ${dir} is shared with other users (mode 1777): config.json is kept private by its own mode (0600), `
      + 'but they can see what is in it and hold its lock; a directory of your own is better (set MKT_CONFIG_DIR)\n');
    expect(result.stderr).not.toContain('0777');
  });

  it('MKT_CONFIG_DIR=. leaves the working directory as it was (0755), and says so when a token is written there, not for a setting', async () => {
    const cwd = tempDir();
    fs.chmodSync(cwd, 0o755);
    const child = spawn(...mkt(['config', 'set', 'format', 'json']), { cwd, env: baseEnv({ MKT_CONFIG_DIR: '.' }), stdio: ['pipe', 'pipe', 'pipe'] });
    const result = await collect(child, performance.now(), '', 20_000);
    expect(result.code).toBe(0);
    expect(mode(cwd)).toBe(0o755);
    expect(mode(path.join(cwd, 'config.json'))).toBe(0o600);
    expect(result.stderr).toBe('Set format to json (profile default).\n');
    const login = spawn(...mkt(['login', '--org', 'org_demo', '--base-url', sandbox.url]), { cwd, env: baseEnv({ MKT_CONFIG_DIR: '.', MKT_API_KEY: 'demo.demo-secret' }), stdio: ['pipe', 'pipe', 'pipe'] });
    const loggedIn = await collect(login, performance.now(), '', 20_000);
    expect(loggedIn.code).toBe(0);
    expect(mode(cwd)).toBe(0o755);
    expect(loggedIn.stderr).toContain(`warning: ${cwd} is readable by other users (mode 0755): config.json is kept private by its own mode (0600); if the directory should be yours alone: chmod 0700 ${cwd}\n`);
  });

  it('a home at 0755 stays 0755; the directories mkt makes under it are 0700', async () => {
    const home = tempDir();
    fs.chmodSync(home, 0o755);
    const result = await runBin(['config', 'set', 'format', 'json'], { env: { HOME: home } });
    expect(result.code).toBe(0);
    expect(mode(home)).toBe(0o755);
    expect(mode(path.join(home, '.config'))).toBe(0o700);
    expect(mode(path.join(home, '.config', 'mkt'))).toBe(0o700);
    expect(mode(path.join(home, '.config', 'mkt', 'config.json'))).toBe(0o600);

    const inHome = await runCli(['config', 'set', 'org', 'org_demo'], { configDir: home });
    expect(inHome.code).toBe(0);
    expect(mode(home)).toBe(0o755);
    expect(mode(path.join(home, 'config.json'))).toBe(0o600);
  });
});

describe.runIf(posix)('a config that others can change is refused, and nothing is sent', () => {
  it.runIf(asRoot)("the issue's case: a directory of another user, at 0777, holding that user's config.json", async () => {
    const dir = path.join(tempDir(), 'shared');
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'config.json'), PLANTED());
    fs.chownSync(path.join(dir, 'config.json'), NOBODY, NOBODY);
    fs.chownSync(dir, NOBODY, NOBODY);
    fs.chmodSync(dir, 0o777);
    const result = await quotes(dir);
    expectRefused(result, `the config directory ${dir} belongs to another user (uid ${NOBODY}`,
      `use a directory of your own (set MKT_CONFIG_DIR), or, if ${dir} should be yours: sudo chown "$USER" ${dir}`);
    expect(listened).toEqual([]);
  });

  it('a directory of its own at 0777 (no sticky bit)', async () => {
    const dir = path.join(tempDir(), 'open');
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'config.json'), PLANTED(), { mode: 0o600 });
    fs.chmodSync(dir, 0o777);
    expectRefused(await quotes(dir), `the config directory ${dir} can be changed by other users (mode 0777), ${RISK}`,
      `chmod o-w ${dir} (or chmod +t ${dir}, as /tmp is, if it is meant to be shared), or set MKT_CONFIG_DIR to a directory of your own`);
    expect(listened).toEqual([]);
  });

  it('a directory of its own inside one that all can write to', async () => {
    const parent = path.join(tempDir(), 'open');
    const dir = path.join(parent, 'mkt');
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(path.join(dir, 'config.json'), PLANTED(), { mode: 0o600 });
    fs.chmodSync(parent, 0o777);
    expectRefused(await quotes(dir), `${parent}, above the config directory ${dir}, can be changed by other users (mode 0777)`, `chmod o-w ${parent}`);
    expect(listened).toEqual([]);
    // Nor is anything created there.
    fs.rmSync(dir, { recursive: true });
    expectRefused(await runBin(['config', 'set', 'format', 'json'], { env: { MKT_CONFIG_DIR: dir } }), `${parent}, above the config directory ${dir}, can be changed`, 'chmod o-w');
    expect(fs.readdirSync(parent)).toEqual([]);
  });

  it('a config.json that all can write to (0666)', async () => {
    const dir = path.join(tempDir(), 'mkt');
    fs.mkdirSync(dir, { mode: 0o700 });
    const file = path.join(dir, 'config.json');
    fs.writeFileSync(file, PLANTED());
    fs.chmodSync(file, 0o666);
    expectRefused(await quotes(dir), `the config file ${file} can be changed by other users (mode 0666), ${RISK}`,
      `chmod 600 ${file}, or set MKT_CONFIG_DIR to a directory of your own`);
    expect(listened).toEqual([]);
    expect(mode(file)).toBe(0o666);
  });

  it.runIf(asRoot)('a config.json that another user put in a shared (sticky) directory, or that a link leads to', async () => {
    const dir = path.join(tempDir(), 'sticky');
    fs.mkdirSync(dir);
    fs.chmodSync(dir, 0o1777);
    const file = path.join(dir, 'config.json');
    fs.writeFileSync(file, PLANTED(), { mode: 0o600 });
    fs.chownSync(file, NOBODY, NOBODY);
    expectRefused(await quotes(dir), `the config file ${file} belongs to another user (uid ${NOBODY}`, 'use a directory of your own');
    expect(listened).toEqual([]);

    // The same file behind a link of this user's own.
    const elsewhere = path.join(tempDir(), 'mkt');
    fs.mkdirSync(elsewhere, { mode: 0o700 });
    fs.symlinkSync(file, path.join(elsewhere, 'config.json'));
    expectRefused(await quotes(elsewhere), `the config file ${path.join(elsewhere, 'config.json')} belongs to another user (uid ${NOBODY}`, 'use a directory of your own');
    expect(listened).toEqual([]);
  });

  it('as a control: the same planted file, in a directory of its own at 0700, is used (and reaches the listener)', async () => {
    const dir = path.join(tempDir(), 'mkt');
    fs.mkdirSync(dir, { mode: 0o700 });
    fs.writeFileSync(path.join(dir, 'config.json'), PLANTED(), { mode: 0o600 });
    await quotes(dir);
    expect(listened.length).toBeGreaterThan(0);
  });
});

if (asRoot && cannotRunUnprivileged !== undefined) console.warn(`test/config/shared-dirs.test.ts: the case as an ordinary user is skipped: ${cannotRunUnprivileged}`);

describe.runIf(posix)('root aside, as an ordinary user (nobody)', () => {
  it("root's directory and file are trusted; another user's are not", async ({ skip }) => {
    skip(!asRoot, 'only root can give a file to another user');
    skip(cannotRunUnprivileged !== undefined, cannotRunUnprivileged);
    const dir = path.join(reachableDir(), 'mkt');
    fs.mkdirSync(dir, { mode: 0o755 });
    fs.chmodSync(dir, 0o755);
    fs.writeFileSync(path.join(dir, 'config.json'), '{"profiles": {"default": {"org": "org_root"}}}\n', { mode: 0o644 });
    expect(await runUnprivileged(['config', 'get', 'org'], { MKT_CONFIG_DIR: dir })).toMatchObject({ code: 0, stdout: 'org_root\n' });

    const other = path.join(reachableDir(), 'mkt');
    fs.mkdirSync(other, { mode: 0o755 });
    fs.chmodSync(other, 0o755);
    fs.writeFileSync(path.join(other, 'config.json'), '{"profiles": {"default": {"org": "org_other"}}}\n', { mode: 0o644 });
    fs.chownSync(other, NOBODY - 1, NOBODY - 1);
    const refused = await runUnprivileged(['config', 'get', 'org'], { MKT_CONFIG_DIR: other });
    expectRefused(refused, `the config directory ${other} belongs to another user (uid ${NOBODY - 1}`, 'use a directory of your own');
  });
});

if (!canBindAccounts) console.warn('test/config/shared-dirs.test.ts: the group cases are skipped: they need root and unshare -m');

describe.runIf(canBindAccounts)('a config directory its group can write to', () => {
  it('is refused when the group has another member', async () => {
    const dir = path.join(tempDir(), 'mkt');
    fs.mkdirSync(dir, { mode: 0o700 });
    fs.writeFileSync(path.join(dir, 'config.json'), PLANTED(), { mode: 0o600 });
    fs.chownSync(dir, 0, TEAM);
    fs.chmodSync(dir, 0o770);
    const result = await runWithAccounts(['quotes', 'EURUSD'], { MKT_CONFIG_DIR: dir, ...SECRETS });
    expectRefused(result, `the config directory ${dir} can be changed by the other members of group ${TEAM} (mode 0770), ${RISK}`, `chmod g-w ${dir}`);
    expect(listened).toEqual([]);
  });

  it("is used when the group is the user's alone, without a warning", async () => {
    const dir = path.join(tempDir(), 'mkt');
    fs.mkdirSync(dir, { mode: 0o700 });
    fs.chownSync(dir, 0, SOLO);
    fs.chmodSync(dir, 0o770);
    const result = await runWithAccounts(['config', 'set', 'format', 'json'], { MKT_CONFIG_DIR: dir });
    expect(result).toMatchObject({ code: 0, stderr: 'Set format to json (profile default).\n' });
    expect(mode(dir)).toBe(0o770);
  });
});
