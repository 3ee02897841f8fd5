// Without HOME, the config file is in the account's home from the system, never
// under the working directory; with no home at all, exit 2.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultConfigDir } from '../../src/config/config-dir.js';
import { ConfigError } from '../../src/config/errors.js';
import { collect, mkt } from '../helpers/bin.js';
import { tempDir } from '../helpers/cli.js';

const linux = process.platform === 'linux';

describe.runIf(linux)('the config directory without HOME', () => {
  it.each([
    ['HOME unset', {}],
    ['HOME empty', { HOME: '' }],
    ['HOME relative', { HOME: 'me' }],
  ])('%s: the home the system names', (_name, env) => {
    expect(defaultConfigDir(env, () => '/home/from-passwd')).toBe('/home/from-passwd/.config/mkt');
  });

  it('a relative XDG_CONFIG_HOME is ignored, as the XDG specification says', () => {
    expect(defaultConfigDir({ HOME: '/home/me', XDG_CONFIG_HOME: '.config' })).toBe('/home/me/.config/mkt');
    expect(defaultConfigDir({ XDG_CONFIG_HOME: '/x' }, () => '')).toBe('/x/mkt');
  });

  it.each([[''], ['relative/home']])('no absolute home anywhere (%j from the system) is a ConfigError (exit 2), not ./.config', (system) => {
    expect(() => defaultConfigDir({}, () => system)).toThrow(ConfigError);
    expect(() => defaultConfigDir({ HOME: '.' }, () => system)).toThrow(/HOME is not set/);
  });

  it('env -u HOME: mkt status names the account\'s config file and creates nothing under the working directory', async () => {
    const cwd = tempDir();
    try {
      const env: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' };
      const child = spawn(...mkt(['status', '--json']), { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
      const result = await collect(child, performance.now(), '', 20_000);
      expect(result.stderr).not.toMatch(/internal error|at .*\.js:\d+/);
      const report = JSON.parse(result.stdout) as { config_file: { path: string } };
      expect(report.config_file.path).toBe(path.join(os.userInfo().homedir, '.config', 'mkt', 'config.json'));
      expect(fs.readdirSync(cwd)).toEqual([]);
    } finally {
      fs.rmSync(cwd, { recursive: true, force: true });
    }
  });
});
