// What happens after login: status, logout, profiles, precedence, expiry and transparent renewal,
// and mkt config. One sandbox with an injected clock shared with the CLI.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';
import { startTestSandbox } from '../../helpers/sandbox.js';
import { useSandboxSession } from '../../helpers/sandbox-session.js';

const session = useSandboxSession();
const { run, login } = session;

const configFile = () => path.join(session.configDir, 'config.json');

describe('mkt status', () => {
  it('says where each setting comes from, and exits 0 when usable', async () => {
    await login();
    const result = await run(['status']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Profile: +default {2}\(default\)$/m);
    expect(result.stdout).toMatch(new RegExp(`^Base URL: +${session.sandbox.url.replace(/\./g, '\\.')} {2}\\(from MKT_BASE_URL\\)$`, 'm'));
    expect(result.stdout).toMatch(/^Organization: +org_demo {2}\(from .*config\.json \(profile default\)\)$/m);
    expect(result.stdout).toMatch(/^ {2}Expires: +in 10m \(/m);
    expect(result.stdout).toMatch(/mode 0600, directory 0700, private/);
    expect(result.stdout).toContain('Credentials are usable.');
  });

  it('never prints the token, only a fingerprint', async () => {
    await login();
    const token = JSON.parse(fs.readFileSync(configFile(), 'utf8')).profiles.default.token.access_token as string;
    for (const args of [['status'], ['status', '--json']]) {
      const result = await run(args);
      expect(result.stdout + result.stderr).not.toContain(token);
      expect(result.stdout).toMatch(/sha256:[0-9a-f]{12}/);
    }
  });

  it('has a stable JSON schema', async () => {
    await login();
    const result = await run(['status', '--json', '--org', 'org_demo']);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    // Version 1's fields first, in their order; the ones added since after them.
    expect(Object.keys(report)).toEqual(['schema_version', 'usable', 'problems', 'profile', 'base_url', 'organization', 'token', 'config_file',
      'warnings', 'client_credentials', 'check']);
    expect(report).toMatchObject({
      schema_version: 1, usable: true, problems: [],
      profile: { value: 'default', kind: 'default' },
      base_url: { value: session.sandbox.url, kind: 'env', source: 'MKT_BASE_URL' },
      organization: { value: 'org_demo', kind: 'flag', source: '--org' },
      token: { present: true, kind: 'config', obtained_via: 'cli-login', type: 'Bearer', scope: 'market.read', expires_in_seconds: 600, expired: false },
      config_file: { path: configFile(), exists: true, mode: '0600', dir_mode: '0700', safe: true },
    });
  });

  it('exits 4 without credentials and says why', async () => {
    const result = await run(['status']);
    expect(result.code).toBe(4);
    expect(result.stdout).toContain('Problem: not logged in');
    expect(result.stdout).toContain('(not created yet)');
  });

  it('reports an expired token as "expired … ago" and exits 4', async () => {
    await login();
    const result = await run(['status', '--json'], { now: () => session.sandbox.clock.now() + 3 * 3_600_000 });
    expect(result.code).toBe(4);
    const report = JSON.parse(result.stdout);
    expect(report.token.expired).toBe(true);
    expect(report.problems.join()).toMatch(/the stored token expired 2h 50m ago/);
    const text = await run(['status'], { now: () => session.sandbox.clock.now() + 3 * 3_600_000 });
    expect(text.stdout).toMatch(/Expires: +expired 2h 50m ago/);
  });

  it('flags a config file readable by others (a read changes nothing; the next write repairs it)', async () => {
    await login();
    fs.chmodSync(configFile(), 0o644);
    const text = await run(['status']);
    expect(text.stderr).toBe(`warning: ${configFile()} is readable by other users (mode 0644); mkt closes it at its next write, or run chmod 0600 ${configFile()}\n`);
    // Under --json, the same warning as a JSON line.
    const result = await run(['status', '--json']);
    expect(JSON.parse(result.stderr)).toEqual({
      warning: { code: 'config_file_readable', message: `${configFile()} is readable by other users (mode 0644)`, hint: `mkt closes it at its next write, or run chmod 0600 ${configFile()}` },
    });
    expect(JSON.parse(result.stdout).config_file).toMatchObject({ mode: '0644', safe: false });
    expect(fs.statSync(configFile()).mode & 0o777).toBe(0o644);
    await run(['config', 'set', 'format', 'json']);
    expect(fs.statSync(configFile()).mode & 0o777).toBe(0o600);
  });

  it('accepts MKT_TOKEN with MKT_ORG and no stored token', async () => {
    const result = await run(['status', '--json'], { env: { MKT_TOKEN: 'abc', MKT_ORG: 'org_demo' } });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).token).toMatchObject({ kind: 'env', source: 'MKT_TOKEN', obtained_via: 'environment' });
  });
});

describe('mkt logout', () => {
  it('removes the token, keeps the settings, and says there is no revocation', async () => {
    await login();
    expect((await run(['config', 'set', 'format', 'json'])).code).toBe(0);
    const result = await run(['logout']);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/Removed the stored token of profile default\. The service defines no revocation: the token stays valid for 10m more, until it expires\./);
    const profile = JSON.parse(fs.readFileSync(configFile(), 'utf8')).profiles.default;
    expect(profile).toEqual({ org: 'org_demo', format: 'json' });
    expect((await run(['status'])).code).toBe(4);
  });

  it('--all removes every profile\'s token', async () => {
    await login();
    await login(['--profile', 'ci']);
    const result = await run(['logout', '--all']);
    expect(result.code).toBe(0);
    expect(result.stderr.match(/Removed the stored token/g)).toHaveLength(2);
    expect(fs.readFileSync(configFile(), 'utf8')).not.toContain('access_token');
  });

  it('says so when there is nothing to remove', async () => {
    expect((await run(['config', 'set', 'format', 'csv', '--profile', 'nobody'])).code).toBe(0);
    const result = await run(['logout', '--profile', 'nobody']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('No stored token for profile nobody.\n');
  });

  it('refuses --all with --profile', async () => {
    expect((await run(['logout', '--all', '--profile', 'x'])).code).toBe(2);
  });
});

describe('profiles and precedence', () => {
  it('keeps profiles apart', async () => {
    await login(['--profile', 'ci']);
    expect((await run(['quotes', 'EURUSD'])).code).toBe(4);
    expect((await run(['quotes', 'EURUSD', '--profile', 'ci'])).code).toBe(0);
    expect((await run(['quotes', 'EURUSD'], { env: { MKT_PROFILE: 'ci' } })).code).toBe(0);
  });

  it('flag > environment > profile > default, for every setting', async () => {
    expect((await run(['config', 'set', 'org', 'org_fromconfig'])).code).toBe(0);
    const org = async (args: string[], env: Record<string, string> = {}) => JSON.parse((await run(['status', '--json', ...args], { env })).stdout).organization;
    expect(await org([])).toMatchObject({ value: 'org_fromconfig', kind: 'config' });
    expect(await org([], { MKT_ORG: 'org_fromenv' })).toMatchObject({ value: 'org_fromenv', kind: 'env', source: 'MKT_ORG' });
    expect(await org(['--org', 'org_fromflag'], { MKT_ORG: 'org_fromenv' })).toMatchObject({ value: 'org_fromflag', kind: 'flag', source: '--org' });
    expect((await run(['config', 'set', 'format', 'csv', '--profile', 'other'])).code).toBe(0);
    const profile = JSON.parse((await run(['status', '--json'], { env: { MKT_PROFILE: 'other' } })).stdout).profile;
    expect(profile).toMatchObject({ value: 'other', kind: 'env', source: 'MKT_PROFILE' });
  });

  it('never sends a stored token to another service', async () => {
    await login();
    const other = await startTestSandbox();
    try {
      const result = await run(['quotes', 'EURUSD', '--base-url', other.url]);
      expect(result.code).toBe(4);
      expect(result.stderr).toContain(`the stored token was issued by ${session.sandbox.url}, not ${other.url}`);
    } finally {
      await other.close();
    }
  });

  it('rejects a bad profile name', async () => {
    const result = await run(['status', '--profile', '../../etc']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('invalid profile name');
  });
});

describe('expiry and transparent renewal', () => {
  it('an expired token is exit 4 with the next step', async () => {
    await login();
    const later = () => session.sandbox.clock.now() + 601_000;
    const result = await run(['quotes', 'EURUSD'], { now: later });
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/error: the stored token expired 1s ago \(profile default\)/);
    expect(result.stderr).toMatch(/hint: run `mkt login`/);
  });

  it('the service\'s own 401 for a token it has expired is exit 4', async () => {
    await login();
    // The CLI's clock thinks the token is fresh; the service's does not.
    session.sandbox.clock.advance(601_000);
    const result = await run(['quotes', 'EURUSD'], { now: () => session.sandbox.clock.now() - 601_000 });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('401');
  });

  it('with MKT_CLIENT_ID and MKT_CLIENT_SECRET, renews an expiring client-credentials token by itself', async () => {
    const creds = { MKT_CLIENT_ID: 'demo', MKT_CLIENT_SECRET: 'demo-secret', MKT_ORG: 'org_demo' };
    expect((await run(['token'], { env: creds })).code).toBe(0);
    const first = JSON.parse(fs.readFileSync(configFile(), 'utf8')).profiles.default.token;
    session.sandbox.clock.advance(550_000); // 50 s left: inside the 60 s renewal window
    const result = await run(['quotes', 'EURUSD', '--json'], { env: creds });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).data[0].symbol).toBe('EURUSD');
    const second = JSON.parse(fs.readFileSync(configFile(), 'utf8')).profiles.default.token;
    expect(second.access_token).not.toBe(first.access_token);
    expect(Date.parse(second.expires_at)).toBe(session.sandbox.clock.now() + 600_000);
  });

  it('mints a token when there is none and client credentials are set, kept for that client', async () => {
    const result = await run(['quotes', 'EURUSD'], { env: { MKT_CLIENT_ID: 'demo', MKT_CLIENT_SECRET: 'demo-secret', MKT_ORG: 'org_demo' } });
    expect(result.code).toBe(0);
    const profile = JSON.parse(fs.readFileSync(configFile(), 'utf8')).profiles.default;
    expect(profile.token).toBeUndefined();
    expect(profile.client_tokens).toMatchObject([{ source: 'client-credentials', client_id: 'demo' }]);
  });

  it('uses a still-valid token of the same client without renewing it', async () => {
    const env = { MKT_CLIENT_ID: 'demo', MKT_CLIENT_SECRET: 'demo-secret' };
    expect((await run(['token', '--org', 'org_demo'], { env })).code).toBe(0);
    const before = fs.readFileSync(configFile(), 'utf8');
    const result = await run(['quotes', 'EURUSD'], { env });
    expect(result.code).toBe(0);
    expect(fs.readFileSync(configFile(), 'utf8')).toBe(before);
  });
});

describe('mkt config', () => {
  it('sets, gets, lists and unsets, per profile', async () => {
    expect((await run(['config', 'set', 'base-url', 'https://api.example.com/'])).stderr).toBe('Set base-url to https://api.example.com (profile default).\n');
    expect((await run(['config', 'set', 'org', 'org_x', '--profile', 'ci'])).code).toBe(0);
    expect((await run(['config', 'get', 'base-url'])).stdout).toBe('https://api.example.com\n');
    expect((await run(['config', 'get', 'org'])).stdout).toBe('');
    expect((await run(['config', 'list', '--all'])).stdout).toBe('ci.org=org_x\ndefault.base-url=https://api.example.com\n');
    expect((await run(['config', 'unset', 'base-url'])).code).toBe(0);
    expect((await run(['config', 'list'])).stdout).toBe('');
    expect((await run(['config', 'path'])).stdout).toBe(`${configFile()}\n`);
  });

  it.each([
    [['config', 'set', 'org', 'acme'], /not of the form org_<id>/],
    [['config', 'set', 'format', 'xml'], /format must be one of table, tsv, json, ndjson, csv/],
    [['config', 'set', 'base-url', 'ftp://x'], /must use http:\/\/ or https:\/\//],
    [['config', 'set', 'base-url', 'http://example.com'], /refusing to send credentials over plain http/],
    [['config', 'set', 'color', 'on'], /unknown config key "color"\nhint: the keys are base-url, org, format/],
    [['config', 'get'], /missing required argument/],
  ])('refuses %j with exit 2', async (args, message) => {
    const result = await run(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(fs.existsSync(configFile())).toBe(false);
  });
});

describe('a corrupt config file', () => {
  it('is reported with its path and the fix, never a stack trace, and left alone', async () => {
    fs.mkdirSync(session.configDir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(configFile(), '{"profiles": {"default": {', { mode: 0o600 });
    for (const args of [['status'], ['quotes', 'EURUSD'], ['login', '--org', 'org_demo'], ['config', 'set', 'org', 'org_a']]) {
      const result = await run(args, { env: { MKT_API_KEY: 'demo.demo-secret' } });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`the config file ${configFile()} is not valid JSON`);
      expect(result.stderr).toContain(`mv ${configFile()} ${configFile()}.bak`);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
    expect(fs.readFileSync(configFile(), 'utf8')).toBe('{"profiles": {"default": {');
  });

  it('says where the fault is without quoting the file, which may hold a token', async () => {
    fs.mkdirSync(session.configDir, { recursive: true, mode: 0o700 });
    // Where Node's message gives a position (here on every supported version) the place is named;
    // an unexpected token inside the text gets no position, and the message says it cannot be parsed.
    fs.writeFileSync(configFile(), '{"profiles": {}}\n SUPERSECRETTOKEN', { mode: 0o600 });
    const result = await run(['status']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('is not valid JSON (at line 2, column 2)');
    expect(result.stderr).not.toContain('SUPERSECRE');
  });
});

describe('an organization that is not org_<id>', () => {
  it.each([
    ['--org with a line break', ['--org', 'org_a\nX-Evil: 1'], {}],
    ['MKT_ORG with an escape', [], { MKT_ORG: 'org_\u001b[2J' }],
  ])('is refused before any request: %s', async (_name, args, env) => {
    const result = await run(['quotes', 'EURUSD', ...args], { env: { MKT_TOKEN: 't', ...env } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('is not of the form org_<id>');
    expect(result.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
  });
});

describe('settings that stay (issue 12 section 3)', () => {
  const bare = (argv: string[], env: Record<string, string> = {}) => runCli(argv, { configDir: session.configDir, now: session.sandbox.clock.now, env });

  it('login --base-url --org keeps both in the profile; logout removes the token only; login again needs only the key', async () => {
    const first = await bare(['login', '--org', 'org_demo', '--base-url', session.sandbox.url], { MKT_API_KEY: 'demo.demo-secret' });
    expect(first.code).toBe(0);
    expect(first.stderr).toContain(`Saved base-url ${session.sandbox.url} and org org_demo in profile default`);
    expect((await bare(['config', 'get', 'base-url'])).stdout).toBe(`${session.sandbox.url}\n`);
    expect((await bare(['config', 'get', 'org'])).stdout).toBe('org_demo\n');
    const status = await bare(['status']);
    expect(status.stdout).toMatch(/^Base URL: +\S+ {2}\(from .*config\.json \(profile default\)\)$/m);
    expect((await bare(['logout'])).code).toBe(0);
    expect(JSON.parse(fs.readFileSync(configFile(), 'utf8')).profiles.default).toEqual({ base_url: session.sandbox.url, org: 'org_demo' });
    const again = await bare(['login'], { MKT_API_KEY: 'demo.demo-secret' });
    expect(again.code).toBe(0);
    expect(again.stderr).not.toContain('Saved');
    expect((await bare(['quotes', 'EURUSD'])).code).toBe(0);
  });

  it('logout of a profile that held only a token keeps the profile: not logged in (4), not unknown (2)', async () => {
    expect((await session.run(['login', '--profile', 'ci', '--org', 'org_demo'], { env: { MKT_API_KEY: 'demo.demo-secret', MKT_ORG: 'org_demo' } })).code).toBe(0);
    const login = await session.run(['login', '--profile', 'ci'], { env: { MKT_API_KEY: 'demo.demo-secret', MKT_ORG: 'org_demo' } });
    expect(login.code).toBe(0);
    expect((await session.run(['config', 'unset', 'org', '--profile', 'ci'])).code).toBe(0);
    expect((await session.run(['logout', '--profile', 'ci'])).code).toBe(0);
    expect(JSON.parse(fs.readFileSync(configFile(), 'utf8')).profiles.ci).toEqual({});
    const status = await session.run(['status', '--profile', 'ci'], { env: { MKT_ORG: 'org_demo' } });
    expect(status.code).toBe(4);
    const again = await session.run(['logout', '--profile', 'ci']);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('No stored token for profile ci.');
  });

  it('mkt token keeps them too, in its own profile', async () => {
    const result = await bare(['token', '--base-url', session.sandbox.url, '--org', 'org_demo', '--profile', 'ci'], { MKT_CLIENT_ID: 'demo', MKT_CLIENT_SECRET: 'demo-secret' });
    expect(result.code).toBe(0);
    const profile = JSON.parse(fs.readFileSync(configFile(), 'utf8')).profiles.ci;
    expect(profile).toMatchObject({ base_url: session.sandbox.url, org: 'org_demo' });
  });

  it('values from the environment belong to that shell or job and are not saved', async () => {
    expect((await bare(['login'], { MKT_API_KEY: 'demo.demo-secret', MKT_BASE_URL: session.sandbox.url, MKT_ORG: 'org_demo' })).code).toBe(0);
    const profile = JSON.parse(fs.readFileSync(configFile(), 'utf8')).profiles.default;
    expect(profile.base_url).toBeUndefined();
    expect(profile.org).toBeUndefined();
  });

  it('an organization typed at the prompt is kept', async () => {
    const result = await bare(['login'], { MKT_API_KEY: 'demo.demo-secret', MKT_BASE_URL: session.sandbox.url });
    expect(result.code).toBe(2);
    const prompted = await runCli(['login'], { configDir: session.configDir, now: session.sandbox.clock.now, env: { MKT_API_KEY: 'demo.demo-secret', MKT_BASE_URL: session.sandbox.url },
      stdinIsTTY: true, stdoutIsTTY: true, prompts: ['org_demo'] });
    expect(prompted.code).toBe(0);
    expect(JSON.parse(fs.readFileSync(configFile(), 'utf8')).profiles.default.org).toBe('org_demo');
  });

  it('a flag replaces a saved value, and says so', async () => {
    expect((await bare(['config', 'set', 'base-url', 'http://127.0.0.1:9'])).code).toBe(0);
    const result = await bare(['login', '--org', 'org_demo', '--base-url', session.sandbox.url], { MKT_API_KEY: 'demo.demo-secret' });
    expect(result.code).toBe(0);
    expect((await bare(['config', 'get', 'base-url'])).stdout).toBe(`${session.sandbox.url}\n`);
  });
});
