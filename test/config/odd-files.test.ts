// Odd things where the config file or its lock should be: a FIFO, a device, a directory, a socket,
// and contents mkt could read but not write back (nesting, size). Each is exit 2 naming the file and
// what it is, at once and before any request; nothing hangs, nothing grows without bound, nothing is
// lost. The hanging cases run the built bin as a child with a deadline (a blocked open() ignores
// SIGTERM and would stop an in-process test from ever timing out).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type BinResult, runBin } from '../helpers/bin.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const posix = process.platform !== 'win32';
const MiB = 1024 * 1024;
const CAP = 16 * MiB; // the README's cap, stated here rather than imported from the code under test
const VALID = `${JSON.stringify({ profiles: { a: { org: 'org_a' }, b: { org: 'org_b' } } })}\n`;

const dirs: string[] = [];
const closers: Array<() => void> = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function configDir(): string {
  const dir = tempDir();
  dirs.push(dir);
  return dir;
}

/** mkt `args` with its config in `dir`; a run that does not end within 10 s fails the test. */
function run(dir: string, args: string[]): Promise<BinResult> {
  return runBin(args, { env: { MKT_CONFIG_DIR: dir }, timeoutMs: 10_000 });
}

function expectRefused(result: BinResult, message: RegExp): void {
  expect(result.stdout).toBe('');
  expect(result.stderr).toMatch(message);
  expect(result.stderr).not.toMatch(/internal error|\n\s+at /);
  expect(result.code).toBe(2);
}

/** A Unix socket listening at `file` until the test ends. */
async function socketAt(file: string): Promise<void> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(file, resolve));
  closers.push(() => server.close());
}

describe.runIf(posix)('config.json that is not a regular file', () => {
  const kinds: Array<[string, (file: string) => void | Promise<void>, string]> = [
    ['a FIFO', (file) => execFileSync('mkfifo', [file]), 'is a FIFO \\(named pipe\\), not a regular file'],
    ['a link to /dev/zero', (file) => fs.symlinkSync('/dev/zero', file), 'is a character device \\(it links to /dev/zero\\), not a regular file'],
    ['a link to /dev/null', (file) => fs.symlinkSync('/dev/null', file), 'is a character device \\(it links to /dev/null\\), not a regular file'],
    ['a directory', (file) => fs.mkdirSync(file), 'is a directory, not a regular file'],
    ['a socket', socketAt, 'is a socket, not a regular file'],
  ];

  it.each(kinds)('%s: status is exit 2 at once, naming the file and what it is', async (_name, make, what) => {
    const dir = configDir();
    const file = path.join(dir, 'config.json');
    await make(file);
    expectRefused(await run(dir, ['status']), new RegExp(`^error: the config file ${file} ${what}$`, 'm'));
  });

  it.each(kinds.slice(0, 2))('%s: config set is exit 2 and replaces nothing', async (_name, make, what) => {
    const dir = configDir();
    const file = path.join(dir, 'config.json');
    await make(file);
    const before = fs.lstatSync(file);
    expectRefused(await run(dir, ['config', 'set', 'format', 'json']), new RegExp(`^error: the config file ${file} ${what}$`, 'm'));
    expect(fs.lstatSync(file)).toMatchObject({ ino: before.ino, mode: before.mode });
    expect(fs.readdirSync(dir)).toEqual(['config.json']);
  });

  it.each(kinds.slice(0, 2))('%s: Tab completion prints nothing and ends', async (_name, make) => {
    const dir = configDir();
    await make(path.join(dir, 'config.json'));
    expect(await run(dir, ['__complete', '--', 'status', '--profile', ''])).toMatchObject({ code: 0, stdout: ':4\n' });
  });
});

describe.runIf(posix)('a lock that is not a regular file, beside a valid config', () => {
  function withFifoLock(): { dir: string; lock: string } {
    const dir = configDir();
    fs.writeFileSync(path.join(dir, 'config.json'), VALID, { mode: 0o600 });
    const lock = path.join(dir, 'config.json.lock');
    execFileSync('mkfifo', [lock]);
    return { dir, lock };
  }

  // Worded for what the command does: one that only reads is not told mkt cannot change the file.
  const readCommands = ['status', 'config list', 'config get org --profile a'];
  const changeCommands = ['config set format json', 'config unset org --profile a', 'logout', 'login --org org_a --base-url http://127.0.0.1:9', 'token --base-url http://127.0.0.1:9'];
  it.each([
    ...readCommands.map((command) => [command, 'read the config file safely']),
    ...changeCommands.map((command) => [command, 'change the config file']),
  ])('mkt %s is exit 2 at once, naming the lock: mkt cannot %s', async (command, what) => {
    const { dir, lock } = withFifoLock();
    const result = await run(dir, command.split(' '));
    expectRefused(result, new RegExp(`^error: the config file's lock ${lock} is a FIFO \\(named pipe\\), not a regular file, so mkt cannot ${what}$`, 'm'));
    expect(result.stderr).toContain(`hint: mkt makes its lock as a regular file and removes it when done: remove this one (rm ${lock})`);
    expect(fs.readFileSync(path.join(dir, 'config.json'), 'utf8')).toBe(VALID);
    expect(fs.lstatSync(lock).isFIFO()).toBe(true);
  });

  it('Tab completion prints nothing and ends', async () => {
    const { dir } = withFifoLock();
    expect(await run(dir, ['__complete', '--', 'status', '--profile', ''])).toMatchObject({ code: 0, stdout: ':4\n' });
  });

  it("FIFOs named as a writer's leftovers are neither opened nor removed, and the write goes ahead", async () => {
    const dir = configDir();
    fs.writeFileSync(path.join(dir, 'config.json'), VALID, { mode: 0o600 });
    const odd = ['config.json.lock.new-0123456789', 'config.json.lock.takeover-0123456789', 'config.json.tmp-0123456789'];
    for (const name of odd) execFileSync('mkfifo', [path.join(dir, name)]);
    const result = await run(dir, ['config', 'set', 'format', 'json']);
    expect(result).toMatchObject({ code: 0, stderr: 'Set format to json (profile default).\n' });
    expect(fs.readdirSync(dir).sort()).toEqual(['config.json', ...odd].sort());
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'config.json'), 'utf8')).profiles.default).toEqual({ format: 'json' });
  });
});

describe('contents mkt could read but not write back', () => {
  let sandbox: TestSandbox;
  let requests = 0;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ onRequest: () => void requests++ });
  });
  afterAll(() => sandbox.close());

  /** `mkt login` with the config file holding `text`: what it said, and how many requests reached the service. */
  async function login(text: string | ((file: string) => void)) {
    const dir = configDir();
    const file = path.join(dir, 'config.json');
    if (typeof text === 'string') fs.writeFileSync(file, text, { mode: 0o600 });
    else text(file);
    const before = fs.statSync(file);
    requests = 0;
    const result = await runCli(['login', '--org', 'org_demo', '--base-url', sandbox.url], { configDir: dir, env: { MKT_API_KEY: 'demo.demo-secret' } });
    const after = fs.statSync(file);
    return { result, file, requests, unchanged: after.ino === before.ino && after.size === before.size && after.mtimeMs === before.mtimeMs, dir };
  }

  function nested(depth: number): string {
    return `{"profiles": {"default": {"org": "org_demo", "x": ${'['.repeat(depth)}${']'.repeat(depth)}}}}\n`;
  }

  it('an array nested 200,000 deep: exit 2 naming the file, before any request, and the file as it was', async () => {
    const { result, file, requests: sent, unchanged, dir } = await login(nested(200_000));
    expect(result.stderr).toMatch(new RegExp(`^error: the config file ${file} nests values more than 64 levels deep, more than mkt reads$`, 'm'));
    expect(result.stderr).not.toMatch(/internal error|Maximum call stack/);
    expect(result.code).toBe(2);
    expect(sent).toBe(0);
    expect(unchanged).toBe(true);
    expect(fs.readdirSync(dir)).toEqual(['config.json']);
  });

  it('nesting up to the limit is read and written back whole; brackets inside strings do not count', async () => {
    // The file is 1 level, profiles 2, default 3, so "x" holds 64 - 3 = 61 levels.
    const text = nested(61).replace('"org_demo"', '"org_demo", "note": "[[[[{{{{\\"[[["');
    const { result, file, requests: sent } = await login(text);
    expect(result.stderr).toContain('Logged in');
    expect(result.code).toBe(0);
    expect(sent).toBeGreaterThan(0);
    const written = JSON.parse(fs.readFileSync(file, 'utf8'));
    const original = JSON.parse(text);
    expect(written.profiles.default.x).toEqual(original.profiles.default.x);
    expect(written.profiles.default.note).toBe(original.profiles.default.note);
    expect(typeof written.profiles.default.token.access_token).toBe('string');
    expect((await login(nested(62))).result.code).toBe(2);
  });

  it('a 600 MB file: exit 2 naming the file and the cap, before any request, without reading it', async () => {
    const { result, file, requests: sent, unchanged } = await login((at) => {
      fs.writeFileSync(at, VALID, { mode: 0o600 });
      fs.truncateSync(at, 600 * 1000 * 1000); // sparse: no disk is used
    });
    expect(result.stderr).toMatch(new RegExp(`^error: the config file ${file} is larger than 16 MiB, more than mkt reads$`, 'm'));
    expect(result.stderr).not.toMatch(/internal error|Cannot create a string/);
    expect(result.code).toBe(2);
    expect(sent).toBe(0);
    expect(unchanged).toBe(true);
  });

  it('the cap is 16 MiB exactly: a file of that size is read, one byte more is refused', async () => {
    const padded = (size: number) => VALID.replace('{', `{${' '.repeat(size - VALID.length)}`);
    const dir = configDir();
    const file = path.join(dir, 'config.json');
    fs.writeFileSync(file, padded(CAP), { mode: 0o600 });
    expect(await runCli(['config', 'list', '--all'], { configDir: dir })).toMatchObject({ code: 0, stdout: 'a.org=org_a\nb.org=org_b\n' });
    fs.writeFileSync(file, padded(CAP + 1), { mode: 0o600 });
    const refused = await runCli(['config', 'list', '--all'], { configDir: dir });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`the config file ${file} is larger than 16 MiB`);
  });

  it('a file under the cap that would be over it as mkt writes it (indented) is refused when read', async () => {
    // 300,000 zeros, 600 KB as "0,0,...", inside 60 arrays under default: mkt writes each on a line of
    // its own, indented 63 tabs (the file, profiles, default, 60 arrays): "\t" x 63 + "0,\n", 66 bytes.
    const zeros = `${'0,'.repeat(299_999)}0`;
    const text = `{"profiles": {"default": {"org": "org_demo", "x": ${'['.repeat(60)}${zeros}${']'.repeat(60)}}}}`;
    expect(text.length).toBeLessThan(CAP);
    expect(300_000 * 66).toBeGreaterThan(CAP);
    const { result, file, requests: sent, unchanged } = await login(text);
    expect(result.stderr).toMatch(new RegExp(`^error: the config file ${file} would be larger than 16 MiB as mkt writes it \\(indented\\), more than mkt reads$`, 'm'));
    expect(result.code).toBe(2);
    expect(sent).toBe(0);
    expect(unchanged).toBe(true);
  });
});
