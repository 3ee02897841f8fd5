// Issue 19, item 11: `mkt logout --all` makes one write for all profiles (it made one per profile,
// each reading and writing the whole file: 3.7 s for 1,000) and lets a signal in.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ProfileRecord } from '../../../src/config/store.js';
import { baseEnv, collect, mkt } from '../../helpers/bin.js';
import { countConfigWrites } from '../../helpers/config-writes.js';
import { runCli, tempDir } from '../../helpers/cli.js';
import { waitFor } from '../../helpers/sandbox.js';

const dirs: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A config directory whose file holds `count` profiles, each with a token and an organization. */
function manyProfiles(count: number): string {
  const root = tempDir();
  dirs.push(root);
  const dir = path.join(root, 'cfg');
  fs.mkdirSync(dir, { mode: 0o700 });
  const profiles: Record<string, ProfileRecord> = {};
  for (let i = 0; i < count; i++) {
    profiles[`p${i}`] = { org: 'org_demo', token: {
      access_token: `token-${i}`, token_type: 'Bearer', base_url: 'http://127.0.0.1:9', source: 'cli-login',
      obtained_at: '2026-11-24T12:00:00.000Z', expires_at: '2026-11-24T13:00:00.000Z',
    } };
  }
  fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ profiles }), { mode: 0o600 });
  return dir;
}

const profilesIn = (dir: string): Record<string, ProfileRecord> => JSON.parse(fs.readFileSync(path.join(dir, 'config.json'), 'utf8')).profiles;

describe('mkt logout --all', () => {
  it('removes 1,000 profiles\' tokens in one write, keeping their settings', async () => {
    const configDir = manyProfiles(1000);
    const writes = countConfigWrites();
    const result = await runCli(['logout', '--all'], { configDir, now: () => Date.parse('2026-11-24T12:30:00Z') });
    expect(result.code).toBe(0);
    expect(writes.count).toBe(1);
    const profiles = profilesIn(configDir);
    expect(Object.keys(profiles)).toHaveLength(1000);
    expect(Object.values(profiles).every((profile) => profile.token === undefined && profile.org === 'org_demo')).toBe(true);
    expect(result.stderr.split('\n').filter((line) => line.startsWith('Removed the stored token of profile '))).toHaveLength(1000);
    expect(result.stderr).toContain('Removed the stored token of profile p999. The service defines no revocation: the token stays valid for 30m more, until it expires.');
  });

  it('a SIGINT once the file starts changing ends the run at once: all tokens gone (exit 0) or none (130), never some', async () => {
    const configDir = manyProfiles(2000);
    const file = path.join(configDir, 'config.json');
    const before = fs.statSync(file).ino;
    const child = spawn(...mkt(['logout', '--all']), { env: baseEnv({ MKT_CONFIG_DIR: configDir }), stdio: ['pipe', 'pipe', 'pipe'] });
    const done = collect(child, performance.now(), '', 15_000);
    // The first write replaces the file (a new inode); one write per profile made 2,000 of them.
    await waitFor(() => child.exitCode !== null || fs.statSync(file).ino !== before, 15_000);
    child.kill('SIGINT');
    const result = await done;
    expect([0, 130]).toContain(result.code);
    const tokens = Object.values(profilesIn(configDir)).filter((profile) => profile.token !== undefined).length;
    expect(tokens).toBe(result.code === 0 ? 0 : 2000);
  }, 30_000);
});
