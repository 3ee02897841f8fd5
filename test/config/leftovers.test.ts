// A writer killed between its write and its rename leaves its lock and the new file (with the new
// token) beside config.json. The next writer, and logout, remove them; the lock of a dead writer is
// taken over at once. Real processes (the built bin) against the leftovers such a writer leaves.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBin } from '../helpers/bin.js';
import { tempDir } from '../helpers/cli.js';
import { deadLock, deadProcess } from './dead-writer.js';

const OLD_TOKEN = 'OLDTOKEN0000000000000000000001';
const NEW_TOKEN = 'NEWTOKEN0000000000000000000002';

function token(accessToken: string) {
  return {
    access_token: accessToken, token_type: 'Bearer', expires_at: '2099-01-01T00:00:00.000Z', base_url: 'http://127.0.0.1:9',
    source: 'cli-login', obtained_at: '2025-01-01T00:00:00.000Z',
  };
}

/** A config dir as a killed login leaves it: the old file, the new one written aside, the lock. */
async function killedLogin(old: object): Promise<string> {
  const dir = tempDir();
  const file = path.join(dir, 'config.json');
  fs.writeFileSync(file, JSON.stringify(old), { mode: 0o600 });
  const next = JSON.stringify({ profiles: { default: { org: 'org_demo', token: token(NEW_TOKEN) } } });
  // One as this mkt names them, one as the conf-based mkt did.
  fs.writeFileSync(`${file}.tmp-m1k2j3h4g5f6`, next, { mode: 0o600 });
  fs.writeFileSync(`${file}.tmp-1767225600a1b2c3`, next, { mode: 0o600 });
  fs.writeFileSync(`${file}.lock`, deadLock(await deadProcess()));
  // A lock's age cannot vouch for it here (its clock says it is new): only its dead holder can.
  const future = new Date(Date.now() + 3_600_000);
  fs.utimesSync(`${file}.lock`, future, future);
  return dir;
}

/** Every file in `dir` that holds `text`. */
function holding(dir: string, text: string): string[] {
  return fs.readdirSync(dir).filter((name) => fs.readFileSync(path.join(dir, name), 'utf8').includes(text));
}

describe("a killed writer's leftovers", () => {
  it('are removed by the next writer, which takes over the dead lock at once', async () => {
    const dir = await killedLogin({ profiles: { default: { org: 'org_demo', token: token(OLD_TOKEN) } } });
    const run = await runBin(['config', 'set', 'format', 'json'], { env: { MKT_CONFIG_DIR: dir } });
    expect(run.stderr).toBe('Set format to json (profile default).\n');
    expect(run.code).toBe(0);
    expect(fs.readdirSync(dir)).toEqual(['config.json']);
    expect(holding(dir, NEW_TOKEN)).toEqual([]);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'config.json'), 'utf8')).profiles.default).toMatchObject({ format: 'json' });
  });

  it('are removed by logout, which leaves no copy of the token it says it removed', async () => {
    const dir = await killedLogin({ profiles: { default: { org: 'org_demo', token: token(OLD_TOKEN) } } });
    const run = await runBin(['logout'], { env: { MKT_CONFIG_DIR: dir } });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^Removed the stored token of profile default\./);
    expect(fs.readdirSync(dir)).toEqual(['config.json']);
    expect([...holding(dir, OLD_TOKEN), ...holding(dir, NEW_TOKEN)]).toEqual([]);
  });

  it('are removed by logout when the file itself holds no token (the killed login was the first)', async () => {
    const dir = await killedLogin({ profiles: { default: { org: 'org_demo' } } });
    const run = await runBin(['logout'], { env: { MKT_CONFIG_DIR: dir } });
    expect(run).toMatchObject({ code: 0, stderr: 'No stored token for profile default.\n' });
    expect(fs.readdirSync(dir)).toEqual(['config.json']);
    expect(holding(dir, NEW_TOKEN)).toEqual([]);
  });
});
