// Local faults are local errors: a directory that cannot be written, another user's directory, a
// read-only config.json, a full disk, a read-only file system. Each is exit 2 (a configuration
// problem, not a bug and not the network) with the path and the fix, no stack, nothing on stdout,
// and the config file left as it was.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, collect, MKT_SH } from '../helpers/bin.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { asRoot, cannotRunUnprivileged, canRunUnprivileged, NOBODY, reachableDir, runUnprivileged } from './as-another-user.js';

if (!canRunUnprivileged) console.warn(`test/config/local-faults.test.ts: the permission cases are skipped: ${cannotRunUnprivileged}`);

const TOKEN = 'STOREDTOKEN00000000000000000001';
const CONFIG = `${JSON.stringify({
  profiles: {
    default: {
      org: 'org_demo',
      token: { access_token: TOKEN, token_type: 'Bearer', base_url: 'http://127.0.0.1:9', source: 'cli-login', obtained_at: '2025-01-01T00:00:00.000Z' },
    },
  },
})}\n`;

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

function expectLocalError(run: { code: number | null; stdout: string; stderr: string }, message: RegExp, hint: RegExp): void {
  expect(run.stdout).toBe('');
  expect(run.stderr).toMatch(message);
  expect(run.stderr).toMatch(hint);
  expect(run.stderr).not.toMatch(/internal error|\n\s+at |request failed/);
  expect(run.code).toBe(2);
}

describe.runIf(canRunUnprivileged)('a config directory mkt cannot write', () => {
  it('that cannot be created (EACCES on mkdir): exit 2 naming it and the parent to fix', async () => {
    const parent = path.join(reachableDir(), 'parent');
    fs.mkdirSync(parent, { mode: 0o555 });
    const dir = path.join(parent, 'mkt');
    const run = await runUnprivileged(['config', 'set', 'format', 'json'], { MKT_CONFIG_DIR: dir });
    expectLocalError(run, new RegExp(`^error: cannot create the config directory ${dir}: permission denied \\(EACCES\\)$`, 'm'),
      new RegExp(`^hint: check that ${parent} and the files in it are yours and writable`, 'm'));
    expect(fs.readdirSync(parent)).toEqual([]);
  });

  it.each(['config set format json', 'logout'])('that exists but is not writable: mkt %s is exit 2 and changes nothing', async (command) => {
    const args = command.split(' ');
    const dir = path.join(reachableDir(), 'mkt');
    fs.mkdirSync(dir, { mode: 0o700 });
    fs.writeFileSync(path.join(dir, 'config.json'), CONFIG, { mode: 0o600 });
    if (asRoot) fs.chownSync(path.join(dir, 'config.json'), NOBODY, NOBODY);
    if (asRoot) fs.chownSync(dir, NOBODY, NOBODY);
    fs.chmodSync(dir, 0o500);
    const run = await runUnprivileged(args, { MKT_CONFIG_DIR: dir });
    expectLocalError(run, new RegExp(`^error: cannot write the config file ${dir}/config\\.json: permission denied \\(EACCES on ${dir}/config\\.json\\.lock\\.`, 'm'),
      /^hint: check that .* are yours and writable/m);
    expect(run.stderr).not.toContain('Removed');
    expect(fs.readdirSync(dir)).toEqual(['config.json']);
    expect(fs.readFileSync(path.join(dir, 'config.json'), 'utf8')).toBe(CONFIG);
    fs.chmodSync(dir, 0o700);
  });

  it.runIf(asRoot)("that is root's, open to read: reads warn of the file, writes are exit 2", async () => {
    const dir = path.join(reachableDir(), 'mkt');
    fs.mkdirSync(dir, { mode: 0o755 });
    fs.chmodSync(dir, 0o755);
    fs.writeFileSync(path.join(dir, 'config.json'), CONFIG, { mode: 0o644 });
    fs.chmodSync(path.join(dir, 'config.json'), 0o644);

    const read = await runUnprivileged(['config', 'get', 'org'], { MKT_CONFIG_DIR: dir });
    expect(read).toMatchObject({ code: 0, stdout: 'org_demo\n' });
    // The file, at every read; the directory is said only where mkt writes a secret into it.
    expect(read.stderr).toBe(`warning: ${dir}/config.json is readable by other users (mode 0644); its owner can close it with chmod 0600 ${dir}/config.json\n`);

    for (const args of [['config', 'set', 'format', 'json'], ['logout']]) {
      const run = await runUnprivileged(args, { MKT_CONFIG_DIR: dir });
      expectLocalError(run, /^error: cannot write the config file .*: permission denied \(EACCES on /m, /^hint: check that /m);
      expect(run.stderr).not.toContain('Removed');
    }
    expect(fs.readFileSync(path.join(dir, 'config.json'), 'utf8')).toBe(CONFIG);
  });
});

describe('a read-only config.json (0400)', () => {
  it.each(['config set format json', 'logout', 'login --org org_demo'])('is refused, not replaced: mkt %s', async (command) => {
    const args = command.split(' ');
    const configDir = path.join(tempDir(), 'mkt');
    fs.mkdirSync(configDir, { mode: 0o700 });
    const file = path.join(configDir, 'config.json');
    fs.writeFileSync(file, CONFIG, { mode: 0o400 });
    const run = await runCli(args, { configDir, env: { MKT_BASE_URL: sandbox.url, MKT_API_KEY: 'demo.demo-secret' } });
    expectLocalError(run, new RegExp(`^error: the config file ${file} is read-only \\(mode 0400\\), so mkt leaves it as it is$`, 'm'),
      new RegExp(`^hint: to let mkt change it: chmod 600 ${file}$`, 'm'));
    expect(run.stderr).not.toMatch(/Removed|Logged in/);
    expect(fs.readFileSync(file, 'utf8')).toBe(CONFIG);
    expect(fs.statSync(file).mode & 0o777).toBe(0o400);
    expect(fs.readdirSync(configDir)).toEqual(['config.json']);
  });
});

// A full disk and a read-only file system, made real: a small tmpfs mounted in a mount namespace
// of mkt's own (unshare), where root is not needed when the system allows user namespaces.
const canMount = (() => {
  const dir = tempDir();
  try {
    execFileSync('unshare', ['-rm', 'sh', '-c', 'mount -t tmpfs -o size=64k tmpfs "$0"', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

interface Mounted {
  run: { code: number; stdout: string; stderr: string };
  files: string[];
  config: string;
}

/** mkt `args` with MKT_CONFIG_DIR on a fresh tmpfs holding CONFIG, mounted with `options`, filled when `fill`. */
function onTmpfs(args: string[], options: string, fill: boolean): Promise<Mounted> {
  const dir = tempDir();
  const script = `
    mount -t tmpfs -o size=64k tmpfs "$DIR" && printf '%s' "$CONFIG" > "$DIR/config.json" && chmod 600 "$DIR/config.json" && chmod 700 "$DIR" || exit 99
    ${fill ? 'cat /dev/zero > "$DIR/fill" 2>/dev/null' : ''}
    ${options === 'ro' ? 'mount -o remount,ro "$DIR" || exit 99' : ''}
    ${MKT_SH} "$@"; code=$?
    printf '\\n--after--\\n%s\\n' "$code"; ls -A "$DIR"; printf -- '--file--\\n'; cat "$DIR/config.json"`;
  const child = spawn('unshare', ['-rm', 'sh', '-c', script, 'sh', ...args], {
    env: baseEnv({ DIR: dir, CONFIG, MKT_CONFIG_DIR: dir, MKT_BASE_URL: sandbox.url, MKT_API_KEY: 'demo.demo-secret' }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  return collect(child, performance.now(), undefined, 20_000).then((result) => {
    const [stdout = '', after = ''] = result.stdout.split('\n--after--\n');
    const [listing = '', config = ''] = after.split('--file--\n');
    const [code = '', ...files] = listing.trim().split('\n');
    return { run: { code: Number(code), stdout: stdout.replace(/\n$/, ''), stderr: result.stderr }, files, config };
  });
}

describe.runIf(canMount)('a disk that cannot take the write', () => {
  it.each(['config set format json', 'logout', 'login --org org_demo'])('full (ENOSPC): mkt %s is exit 2 and leaves the file and nothing else', async (command) => {
    const { run, files, config } = await onTmpfs(command.split(' '), 'rw', true);
    expectLocalError(run, /^error: cannot write the config file .*config\.json: no space left on device \(ENOSPC/m,
      /^hint: the disk is full: free some space, or set MKT_CONFIG_DIR to a directory of your own on another disk$/m);
    expect(run.stderr).not.toMatch(/Removed|Logged in/);
    expect(files.sort()).toEqual(['config.json', 'fill']);
    expect(config).toBe(CONFIG);
  });

  it('read-only (EROFS): mkt config set is exit 2 naming the file system', async () => {
    const { run, files, config } = await onTmpfs(['config', 'set', 'format', 'json'], 'ro', false);
    expectLocalError(run, /^error: cannot write the config file .*: read-only file system \(EROFS/m, /^hint: that file system is mounted read-only/m);
    expect(files).toEqual(['config.json']);
    expect(config).toBe(CONFIG);
  });
});
