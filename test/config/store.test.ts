import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { ConfigError, ConfigStore, defaultConfigDir } from '../../src/config/store.js';
import { AbortError } from '../../src/shared/errors.js';
import type { Warning } from '../../src/shared/warnings.js';
import { runCli, tempDir } from '../helpers/cli.js';

const TOKEN = { access_token: 'tok_secret', token_type: 'Bearer', base_url: 'http://127.0.0.1:1', source: 'cli-login' as const, obtained_at: '2025-01-06T14:30:00.000Z' };

const mode = (target: string) => fs.statSync(target).mode & 0o777;

describe('the config store', () => {
  it('reads nothing and creates nothing before the first write', async () => {
    const dir = path.join(tempDir(), 'cfg');
    const store = new ConfigStore({ dir });
    expect(store.read()).toEqual({});
    expect(fs.existsSync(dir)).toBe(false);
  });

  it('writes the file 0600 in a 0700 directory', async () => {
    const dir = path.join(tempDir(), 'cfg');
    const store = new ConfigStore({ dir });
    await store.updateProfile('default', (profile) => ({ ...profile, org: 'org_demo' }));
    expect(mode(dir)).toBe(0o700);
    expect(mode(store.path)).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(store.path, 'utf8'))).toEqual({ profiles: { default: { org: 'org_demo' } } });
    expect(store.permissions()).toMatchObject({ safe: true, fileMode: 0o600, dirMode: 0o700 });
  });

  it('warns on read of a config.json others can read, not of its directory; a write makes the file 0600 and says what others see of the directory only when it wrote a secret', async () => {
    const dir = path.join(tempDir(), 'cfg');
    await new ConfigStore({ dir }).updateProfile('default', () => ({ org: 'org_a' }));
    const file = store(dir).path;
    fs.chmodSync(file, 0o644);
    fs.chmodSync(dir, 0o755);
    const warnings: Warning[] = [];
    const reopened = new ConfigStore({ dir, onWarning: (warning) => warnings.push(warning) });
    expect(reopened.permissions().safe).toBe(false);
    expect(reopened.profile('default')).toEqual({ org: 'org_a' });
    expect(mode(dir)).toBe(0o755);
    expect(mode(file)).toBe(0o644);
    expect(warnings).toEqual([
      { code: 'config_file_readable', message: `${file} is readable by other users (mode 0644)`, hint: `mkt closes it at its next write, or run chmod 0600 ${file}` },
    ]);
    // A setting, no secret: the file is closed, and the directory is nothing to say.
    await reopened.updateProfile('default', () => ({ org: 'org_b' }));
    expect(mode(dir)).toBe(0o755);
    expect(mode(file)).toBe(0o600);
    expect(warnings.slice(1)).toEqual([{ code: 'config_file_closed', message: `${file} was readable by other users (mode 0644); it is 0600 now` }]);
    // A token written into a directory others can list: said, with the chmod that closes it.
    await reopened.updateProfile('default', (profile) => ({ ...profile, token: TOKEN }));
    expect(mode(dir)).toBe(0o755);
    expect(warnings.slice(2)).toEqual([{
      code: 'config_dir_readable', message: `${dir} is readable by other users (mode 0755): config.json is kept private by its own mode (0600)`,
      hint: `if the directory should be yours alone: chmod 0700 ${dir}`,
    }]);
    // Read again by another run: the file is private now, and the directory is not said.
    const again: Warning[] = [];
    expect(new ConfigStore({ dir, onWarning: (warning) => again.push(warning) }).profile('default')?.org).toBe('org_b');
    expect(again).toEqual([]);
  });

  it('keeps the mode 0600 when a write replaces a file that had another mode', async () => {
    const dir = path.join(tempDir(), 'cfg');
    const first = new ConfigStore({ dir });
    await first.updateProfile('a', () => ({ org: 'org_a' }));
    fs.chmodSync(first.path, 0o640);
    const second = new ConfigStore({ dir, onWarning: () => {} });
    await second.updateProfile('b', () => ({ org: 'org_b' }));
    expect(mode(second.path)).toBe(0o600);
    expect(second.profileNames()).toEqual(['a', 'b']);
  });

  it('refuses a corrupt file with its path and the fix, and leaves it alone', async () => {
    const dir = path.join(tempDir(), 'cfg');
    fs.mkdirSync(dir, { mode: 0o700 });
    const file = path.join(dir, 'config.json');
    fs.writeFileSync(file, '{"profiles": {', { mode: 0o600 });
    const corrupt = new ConfigStore({ dir });
    expect(() => corrupt.read()).toThrow(ConfigError);
    expect(() => corrupt.read()).toThrow(file);
    await expect(corrupt.updateProfile('default', () => ({ org: 'org_x' }))).rejects.toThrow(/not valid JSON/);
    expect(fs.readFileSync(file, 'utf8')).toBe('{"profiles": {');
  });

  it.each([['{"profiles": 5}'], ['{"profiles": {"default": "x"}}']])('refuses valid JSON of the wrong shape: %s', (text) => {
    const dir = path.join(tempDir(), 'cfg');
    fs.mkdirSync(dir, { mode: 0o700 });
    fs.writeFileSync(path.join(dir, 'config.json'), text, { mode: 0o600 });
    expect(() => new ConfigStore({ dir }).read()).toThrow(ConfigError);
  });

  it('keeps a profile that becomes empty (logged out, not unknown) but does not offer it; undefined removes it', async () => {
    const dir = path.join(tempDir(), 'cfg');
    const s = new ConfigStore({ dir });
    await s.updateProfile('x', () => ({ org: 'org_x' }));
    await s.updateProfile('y', () => ({ org: 'org_y' }));
    expect(s.profileNames()).toEqual(['x', 'y']);
    await s.updateProfile('x', () => ({}));
    expect(JSON.parse(fs.readFileSync(s.path, 'utf8')).profiles).toEqual({ x: {}, y: { org: 'org_y' } });
    expect(s.profileNames()).toEqual(['y']);
    expect(s.hasProfile('x')).toBe(true);
    expect(new ConfigStore({ dir }).profileNames()).toEqual(['y']);
    await s.updateProfile('x', () => undefined);
    expect(s.hasProfile('x')).toBe(false);
    expect(s.profileNames()).toEqual(['y']);
  });

  it('an emptied profile is neither completed nor listed in hints, and --profile still takes it', async () => {
    const configDir = path.join(tempDir(), 'cfg');
    for (const name of ['kept', 'emptied']) expect((await runCli(['config', 'set', 'org', 'org_demo', '--profile', name], { configDir })).code).toBe(0);
    expect((await runCli(['config', 'unset', 'org', '--profile', 'emptied'], { configDir })).code).toBe(0);
    expect(await runCli(['__complete', '--', 'status', '--profile', ''], { configDir })).toMatchObject({ code: 0, stdout: 'kept\n:4\n' });
    const typo = await runCli(['status', '--profile', 'kpet'], { configDir });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('hint: the profiles are kept; ');
    const emptied = await runCli(['config', 'get', 'org', '--profile', 'emptied'], { configDir });
    expect(emptied.stderr).not.toContain('no profile');
  });

  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty'])('knows no profile %s that the file does not hold', (name) => {
    const dir = path.join(tempDir(), 'cfg');
    fs.mkdirSync(dir, { mode: 0o700 });
    fs.writeFileSync(path.join(dir, 'config.json'), '{"profiles": {"a": {"org": "org_a"}}}', { mode: 0o600 });
    const s = new ConfigStore({ dir });
    expect(s.profile(name)).toBeUndefined();
    expect(s.hasProfile(name)).toBe(false);
  });

  it('parses the file once per run; a write merges what another run changed meanwhile', async () => {
    const dir = path.join(tempDir(), 'cfg');
    await new ConfigStore({ dir }).updateProfile('a', () => ({ org: 'org_a' }));
    const run = new ConfigStore({ dir });
    expect(run.profileNames()).toEqual(['a']);
    await new ConfigStore({ dir }).updateProfile('b', () => ({ org: 'org_b' }));
    expect(run.profileNames()).toEqual(['a']);
    expect(run.profile('b')).toBeUndefined();
    await run.updateProfile('c', () => ({ org: 'org_c' }));
    expect(run.profileNames()).toEqual(['a', 'b', 'c']);
  });

  it('is read once by a command that asks for it several times (mkt config list --all)', async () => {
    const configDir = path.join(tempDir(), 'cfg');
    const store = new ConfigStore({ dir: configDir });
    for (const name of ['a', 'b', 'c']) await store.updateProfile(name, () => ({ org: `org_${name}` }));
    const open = vi.spyOn(fs, 'openSync');
    try {
      const result = await runCli(['config', 'list', '--all'], { configDir });
      expect(result.stdout).toBe('a.org=org_a\nb.org=org_b\nc.org=org_c\n');
      expect(open.mock.calls.filter(([file]) => file === store.path)).toHaveLength(1);
    } finally {
      open.mockRestore();
    }
  });

  it('writes through a symbolic link to the file it names, and keeps the link', async () => {
    const base = tempDir();
    const dir = path.join(base, 'cfg');
    const dotfiles = path.join(base, 'dotfiles');
    fs.mkdirSync(dir, { mode: 0o700 });
    fs.mkdirSync(dotfiles, { mode: 0o700 });
    fs.writeFileSync(path.join(dotfiles, 'mkt.json'), '{"profiles":{"a":{"org":"org_a"}}}', { mode: 0o600 });
    fs.symlinkSync(path.join(dotfiles, 'mkt.json'), path.join(dir, 'config.json'));
    await new ConfigStore({ dir }).updateProfile('b', () => ({ org: 'org_b' }));
    expect(fs.lstatSync(path.join(dir, 'config.json')).isSymbolicLink()).toBe(true);
    expect(new ConfigStore({ dir }).profileNames()).toEqual(['a', 'b']);
    expect(fs.readdirSync(dotfiles)).toEqual(['mkt.json']);
  });

  it('leaves a read-only file read-only, and its mode as it was on read', async () => {
    const dir = path.join(tempDir(), 'cfg');
    fs.mkdirSync(dir, { mode: 0o700 });
    fs.writeFileSync(path.join(dir, 'config.json'), '{}', { mode: 0o444 });
    fs.chmodSync(path.join(dir, 'config.json'), 0o444);
    const warnings: string[] = [];
    expect(new ConfigStore({ dir, onWarning: (warning) => warnings.push(`${warning.message}; ${warning.hint ?? ''}`) }).read()).toEqual({});
    expect(mode(path.join(dir, 'config.json'))).toBe(0o444);
    expect(warnings).toEqual([expect.stringContaining(`${path.join(dir, 'config.json')} is readable by other users (mode 0444)`)]);
    expect(warnings[0]).toMatch(/chmod 0400 /);
  });

  it('makes no write once its signal is aborted (Ctrl-C), waiting for the lock or not', async () => {
    const dir = path.join(tempDir(), 'cfg');
    await new ConfigStore({ dir }).updateProfile('a', () => ({ org: 'org_a' }));
    const before = fs.readFileSync(path.join(dir, 'config.json'), 'utf8');
    const aborted = new ConfigStore({ dir, signal: AbortSignal.abort() });
    await expect(aborted.updateProfile('b', () => ({ org: 'org_b' }))).rejects.toBeInstanceOf(AbortError);

    fs.writeFileSync(path.join(dir, 'config.json.lock'), ''); // another writer's, for now
    const controller = new AbortController();
    const waiting = new ConfigStore({ dir, signal: controller.signal }).updateProfile('c', () => ({ org: 'org_c' }));
    setTimeout(() => controller.abort(), 50);
    await expect(waiting).rejects.toBeInstanceOf(AbortError);
    fs.rmSync(path.join(dir, 'config.json.lock'));
    expect(fs.readFileSync(path.join(dir, 'config.json'), 'utf8')).toBe(before);
  });

  it('lives in the conventional place without MKT_CONFIG_DIR', async () => {
    expect(defaultConfigDir({ HOME: '/home/me' })).toBe(process.platform === 'linux' ? '/home/me/.config/mkt' : expect.any(String));
    if (process.platform === 'linux') expect(defaultConfigDir({ HOME: '/home/me', XDG_CONFIG_HOME: '/x' })).toBe('/x/mkt');
  });
});

function store(dir: string) {
  return new ConfigStore({ dir });
}
