// Values from a file, the environment or an argument reach the terminal made safe, by one helper
// (printable, src/shared/text.ts): an OSC title, an SGR colour, a bidi override or a line break in
// the config file, MKT_CONFIG_DIR or `mkt sandbox --host` is dropped, the rest of the text kept.
// And `mkt config get base-url` gives what `mkt status` shows: the setting, or the base URL the
// stored token came from, saying so.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigStore, type TokenRecord } from '../../../src/config/store.js';
import { printable } from '../../../src/shared/text.js';
import { runCli, tempDir } from '../../helpers/cli.js';

const OSC = '\u001b]0;PWNED\u0007';
const SGR = '\u001b[31m';
const RLO = '\u202e';
/** Anything a terminal acts on: C0 (but the line feed ending each line), DEL, C1, bidi overrides, line separators. */
const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

function token(extra: Partial<TokenRecord> = {}): TokenRecord {
  return {
    access_token: 'tok_stored_0123456789', token_type: 'Bearer', base_url: 'http://127.0.0.1:4010', source: 'cli-login',
    obtained_at: '2026-01-01T00:00:00.000Z', expires_at: '2999-01-01T00:00:00.000Z', organization_id: 'org_demo', scope: 'market.read', ...extra,
  };
}

async function configWith(profiles: Record<string, object>): Promise<string> {
  const configDir = path.join(tempDir(), 'cfg');
  const store = new ConfigStore({ dir: configDir });
  for (const [name, record] of Object.entries(profiles)) await store.updateProfile(name, () => record);
  return configDir;
}

describe('printable', () => {
  it.each([
    ['an OSC title', `x${OSC}y`, 'x]0;PWNEDy'],
    ['SGR colour', `${SGR}red`, '[31mred'],
    ['a bidi override', `abc${RLO}def`, 'abcdef'],
    ['line breaks of every kind', 'a\nb\r\nc\u2028d\u2029e\u0085f', 'abcdef'],
    ['digits and letters of any script, as they are', '1.084150000000000001 Zürich 東京', '1.084150000000000001 Zürich 東京'],
  ])('%s', (_name, text, shown) => {
    expect(printable(text)).toBe(shown);
  });

  it('cuts at a length, whole characters, with a marker; quotes as JSON does', () => {
    expect(printable('😀😀😀', { max: 2 })).toBe('😀😀…');
    expect(printable('abc', { max: 3 })).toBe('abc');
    expect(printable(`a"b${OSC}`, { quote: true })).toBe('"a\\"b]0;PWNED"');
    expect(printable(42)).toBe('42');
  });
});

describe('config values reach the terminal made safe', () => {
  const hostile = () => configWith({
    default: { base_url: `http://x${OSC}`, org: `org_${SGR}red`, format: `${RLO}tsv`, token: token({ source: `cli${SGR}-login` as TokenRecord['source'] }) },
    [`e${OSC}vil`]: { org: 'org_o' },
  });

  it('mkt config list --all: every value, and the profile names from the file', async () => {
    const result = await runCli(['config', 'list', '--all'], { configDir: await hostile() });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(UNSAFE);
    expect(result.stdout).toBe([
      'default.base-url=http://x]0;PWNED', 'default.org=org_[31mred', 'default.format=tsv', 'default.token=(stored, via cli[31m-login)', 'e]0;PWNEDvil.org=org_o', '',
    ].join('\n'));
  });

  it.each([
    ['base-url', 'http://x]0;PWNED\n'],
    ['org', 'org_[31mred\n'],
    ['format', 'tsv\n'],
  ])('mkt config get %s', async (key, shown) => {
    const result = await runCli(['config', 'get', key], { configDir: await hostile() });
    expect(result.stdout).toBe(shown);
    expect(result.stderr).not.toMatch(UNSAFE);
  });

  it('mkt status, which already did: the same values the same way', async () => {
    const result = await runCli(['status'], { configDir: await hostile() });
    expect(result.stdout).toContain('Base URL:      http://x]0;PWNED  (from ');
    expect(`${result.stdout}${result.stderr}`).not.toMatch(UNSAFE);
  });

  it('mkt config path, from MKT_CONFIG_DIR', async () => {
    const configDir = path.join(tempDir(), `dir${OSC}`);
    const result = await runCli(['config', 'path'], { configDir });
    expect(result.stdout).toBe(`${printable(configDir)}/config.json\n`);
    expect(result.stdout).not.toMatch(UNSAFE);
  });

  it('mkt config set names the value as set, and a bad key or value as typed, made safe', async () => {
    const bad = await runCli(['config', 'set', 'format', `csv${OSC}`]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('format must be one of table, tsv, json, ndjson, csv, not "csv]0;PWNED"');
    expect(bad.stderr).not.toMatch(UNSAFE);
  });
});

describe('mkt sandbox --host', () => {
  it('names the host made safe in its warning and its error', async () => {
    const result = await runCli(['sandbox', '--host', OSC, '--port', '0']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('warning: --host ]0;PWNED is not a loopback address');
    expect(result.stderr).not.toMatch(UNSAFE);
  });

  it('refuses a host the resolver cannot take (a bidi override, a label over 63 characters) as a usage error, named made safe', async () => {
    const bidi = await runCli(['sandbox', '--host', `evil${RLO}host`, '--port', '0']);
    expect(bidi.code).toBe(2);
    expect(bidi.stderr).toContain('error: cannot listen on host evilhost: it is not a valid host name (it holds characters that cannot be shown, left out here)\nhint: use --host 127.0.0.1');
    expect(bidi.stderr).not.toMatch(/internal error|EINVAL/);
    expect(bidi.stderr).not.toMatch(UNSAFE);
    // A host name's labels are at most 63 characters (RFC 1035); a long one is named cut to 100.
    const long = await runCli(['sandbox', '--host', 'a'.repeat(300), '--port', '0']);
    expect(long.code).toBe(2);
    expect(long.stderr).toContain(`error: cannot listen on host ${'a'.repeat(100)}…: it is not a valid host name\n`);
    expect(long.stderr).not.toMatch(/internal error|EINVAL/);
  });
});

describe('mkt config get and mkt status agree on the base URL and organization', () => {
  it('unset in the profile: the stored token\'s, said on stderr, as status shows it', async () => {
    const configDir = await configWith({ default: { token: token() } });
    const status = JSON.parse((await runCli(['status', '--json'], { configDir })).stdout);
    expect(status.base_url).toMatchObject({ value: 'http://127.0.0.1:4010', kind: 'token' });
    const baseUrl = await runCli(['config', 'get', 'base-url'], { configDir });
    expect(baseUrl.stdout).toBe(`${status.base_url.value}\n`);
    expect(baseUrl.stderr).toBe('base-url is not set in profile default: this is the base URL its stored token was issued by\n');
    const org = await runCli(['config', 'get', 'org'], { configDir });
    expect(org.stdout).toBe(`${status.organization.value}\n`);
    expect(org.stderr).toBe('org is not set in profile default: this is the organization its stored token was issued for\n');
  });

  it('set in the profile: the setting alone, nothing on stderr', async () => {
    const configDir = await configWith({ default: { base_url: 'https://api.example.com', token: token() } });
    const result = await runCli(['config', 'get', 'base-url'], { configDir });
    expect(result).toMatchObject({ code: 0, stdout: 'https://api.example.com\n', stderr: '' });
  });

  it('overridden by the environment: the profile\'s, and a note that the variable wins', async () => {
    const configDir = await configWith({ default: { base_url: 'https://api.example.com' } });
    const result = await runCli(['config', 'get', 'base-url'], { configDir, env: { MKT_BASE_URL: `https://other.example.com${OSC}` } });
    expect(result.stdout).toBe('https://api.example.com\n');
    expect(result.stderr).toBe('note: MKT_BASE_URL=https://other.example.com]0;PWNED overrides it for every command\n');
  });

  it('nothing stored: nothing printed, as before', async () => {
    const result = await runCli(['config', 'get', 'base-url']);
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });
});
