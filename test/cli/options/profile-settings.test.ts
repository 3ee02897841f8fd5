// A setting in the config file that mkt cannot read (hand-edited: `"format": "jsn"`) is refused, as
// the same value in MKT_FORMAT or MKT_PRECISION is: exit 2 before any request, naming the file, the
// profile and the key, and how to mend it. It was once passed over without a word.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../../helpers/cli.js';

let dir: string;
let book: string;
beforeAll(() => {
  dir = tempDir('mkt-profile-settings-');
  book = path.join(dir, 'book.csv');
  fs.writeFileSync(book, 'symbol,quantity,currency\nAAPL,1,USD\n');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

// No request may go out: a port nothing listens on, and a token so that none is asked for.
const env = { MKT_BASE_URL: 'http://127.0.0.1:9', MKT_TOKEN: 'tok-profile-settings-0123456789', MKT_ORG: 'org_demo' };

/** A config directory whose profile holds `settings`, written by hand as a user would edit it. */
async function configWith(profile: string, settings: Record<string, unknown>): Promise<string> {
  const configDir = tempDir('mkt-profile-settings-config-');
  const created = await runCli(['config', 'set', 'org', 'org_demo', '--profile', profile], { configDir });
  expect(created.code).toBe(0);
  const file = path.join(configDir, 'config.json');
  const data = JSON.parse(fs.readFileSync(file, 'utf8')) as { profiles: Record<string, Record<string, unknown>> };
  Object.assign(data.profiles[profile]!, settings);
  fs.writeFileSync(file, JSON.stringify(data), { mode: 0o600 });
  return configDir;
}

describe('a profile setting mkt cannot read', () => {
  it.each<[string, string, Record<string, unknown>, string[], RegExp, string]>([
    ['a format that is none', 'default', { format: 'jsn' }, ['quotes', 'EURUSD'],
      /^error: the profile default's format in .*config\.json is "jsn", which is not one of table, tsv, json, ndjson, csv\n/, 'hint: set it with `mkt config set format <value>`, or remove it with `mkt config unset format`'],
    ['a format that is a number, in a named profile', 'work', { format: 5 }, ['value', '<book>', '--base', 'USD', '--profile', 'work'],
      /^error: the profile work's format in .*config\.json is 5, which is not one of table/, 'or remove it with `mkt config unset format --profile work`'],
    ['a precision that is none', 'default', { precision: 'cents' }, ['value', '<book>', '--base', 'USD', '--format', 'csv'],
      /^error: the profile default's precision in .*config\.json is "cents", which is not minor, full or 0 to 34\n/, 'hint: set it with `mkt config set precision <value>`'],
  ])('%s: exit 2 before any request, naming the file, the profile and the key', async (_name, profile, settings, argv, message, hint) => {
    const configDir = await configWith(profile, settings);
    try {
      const result = await runCli(argv.map((arg) => (arg === '<book>' ? book : arg)), { configDir, env });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stderr).toContain(hint);
      expect(result.stdout).toBe('');
    } finally {
      fs.rmSync(configDir, { recursive: true, force: true });
    }
  });

  it('is not read where a flag or the environment decides, nor by a command that has no use for it', async () => {
    const configDir = await configWith('default', { format: 'jsn', precision: 'cents' });
    try {
      // --json and --precision decide: the stored values are not read, and the run goes as far as the network (exit 7: nothing listens).
      const decided = await runCli(['value', book, '--base', 'USD', '--json', '--precision', 'full'], { configDir, env });
      expect(decided.code).toBe(7);
      expect(decided.stderr).not.toContain('config.json');
      const fromEnv = await runCli(['value', book, '--base', 'USD'], { configDir, env: { ...env, MKT_FORMAT: 'csv', MKT_PRECISION: '2' } });
      expect(fromEnv.code).toBe(7);
      // mkt config list still shows what the file holds, so that it can be mended.
      const listed = await runCli(['config', 'list'], { configDir });
      expect(listed.code).toBe(0);
      expect(listed.stdout).toContain('format=jsn');
    } finally {
      fs.rmSync(configDir, { recursive: true, force: true });
    }
  });
});
