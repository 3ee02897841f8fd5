// mkt login and mkt token against the sandbox in-process: every way in for the secret, local
// validation before any request, the service's refusals, and what gets stored.
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.js';
import { createTestDeps, runCli, tempDir } from '../../helpers/cli.js';
import { startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

// A base URL nothing listens on: a command that reached the network would exit 7, not 2.
const NOWHERE = 'http://127.0.0.1:9';

function stored(configDir: string, profile = 'default') {
  return JSON.parse(fs.readFileSync(path.join(configDir, 'config.json'), 'utf8')).profiles[profile];
}

describe('mkt login', () => {
  it('logs in with MKT_API_KEY and stores the token privately', async () => {
    const result = await runCli(['login', '--org', 'org_demo'], { env: { MKT_API_KEY: 'demo.demo-secret', MKT_BASE_URL: sandbox.url } });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^Logged in to http:\/\/127\.0\.0\.1:\d+ for org_demo \(profile default\); token expires in 59m, scope market\.read\n/);
    expect(result.stderr.split('\n')[1]).toBe('Saved org org_demo in profile default for later commands (`mkt config list` shows the settings).');
    const token = stored(result.configDir).token;
    expect(token).toMatchObject({ token_type: 'Bearer', scope: 'market.read', organization_id: 'org_demo', base_url: sandbox.url, source: 'cli-login', client_id: 'demo' });
    expect(token.access_token).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    expect(Date.parse(token.expires_at) - Date.parse(token.obtained_at)).toBe(3600_000);
    expect(fs.statSync(path.join(result.configDir, 'config.json')).mode & 0o777).toBe(0o600);
    expect(fs.statSync(result.configDir).mode & 0o777).toBe(0o700);
  });

  it('reads the key from standard input with --with-api-key', async () => {
    const result = await runCli(['login', '--with-api-key', '--org', 'org_demo', '--base-url', sandbox.url], { stdin: 'demo.demo-secret\n' });
    expect(result.code).toBe(0);
    expect(stored(result.configDir).token.source).toBe('cli-login');
  });

  it('prompts on a terminal, masking the key', async () => {
    const env = { MKT_BASE_URL: sandbox.url };
    const test = await runCli(['login'], { env, stdinIsTTY: true, stdoutIsTTY: true, prompts: ['demo.demo-secret', 'org_demo'] });
    expect(test.code).toBe(0);
    expect(stored(test.configDir).token.organization_id).toBe('org_demo');
  });

  it('asks for the key masked and the organization in clear', async () => {
    const test = createTestDeps({ env: { MKT_BASE_URL: sandbox.url }, stdinIsTTY: true, stdoutIsTTY: true, prompts: ['demo.demo-secret', 'org_demo'] });
    expect(await main(['login'], test.deps)).toBe(0);
    expect(test.prompted).toEqual([{ question: 'API key:', mask: true }, { question: 'Organization (org_<id>):', mask: false }]);
  });

  it('without a key source names exactly the three ways, and sends nothing', async () => {
    const result = await runCli(['login', '--org', 'org_demo', '--base-url', NOWHERE]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error: no API key given');
    expect(result.stderr).toContain('--with-api-key');
    expect(result.stderr).toContain('MKT_API_KEY');
    expect(result.stderr).toContain('at the prompt on a terminal');
  });

  it('refuses --api-key with the same guidance, before reading anything', async () => {
    const result = await runCli(['login', '--api-key', 'demo.demo-secret', '--org', 'org_demo', '--base-url', NOWHERE]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--api-key is not accepted: secrets on the command line leak into shell history and ps/);
    expect(result.stderr).toContain('MKT_API_KEY');
    expect(result.stderr).not.toContain('demo-secret');
  });

  it.each([
    ['a key without a dot', { MKT_API_KEY: 'demodemo-secret' }, ['--org', 'org_demo'], /not of the form <client_id>\.<client_secret>/],
    ['a key with an empty client id', { MKT_API_KEY: '.secret' }, ['--org', 'org_demo'], /not of the form/],
    ['an organization without org_', { MKT_API_KEY: 'demo.demo-secret' }, ['--org', 'demo'], /the organization "demo" \(from --org\) is not of the form org_<id>/],
    ['an organization with spaces', { MKT_API_KEY: 'demo.demo-secret' }, ['--org', 'org_a b'], /not of the form org_<id>/],
    ['no organization and no terminal', { MKT_API_KEY: 'demo.demo-secret' }, [], /no organization given/],
    ['empty standard input', {}, ['--with-api-key', '--org', 'org_demo'], /standard input was empty/],
  ])('checks %s locally (exit 2, no request)', async (_name, env, args, message) => {
    const result = await runCli(['login', ...args, '--base-url', NOWHERE], { env, stdin: '' });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe('');
  });

  it.each([
    ['a wrong secret', 'demo.wr0ng-s3cret-x', 'org_demo', 4, /not authenticated \(401 UNAUTHORIZED\)/],
    ['an unknown client', 'nobody.n0b0dy-s3cret', 'org_demo', 4, /401/],
    ['an organization the client lacks', 'demo.demo-secret', 'org_other', 5, /forbidden \(403 FORBIDDEN\)/],
  ])('maps %s to exit %i', async (_name, key, org, code, message) => {
    const result = await runCli(['login', '--org', org], { env: { MKT_API_KEY: key, MKT_BASE_URL: sandbox.url } });
    expect(result.code).toBe(code);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toContain(key.split('.')[1]);
    expect(fs.existsSync(path.join(result.configDir, 'config.json'))).toBe(false);
  });

  it('refuses more than 64 KiB on standard input with exit 2, not a crash', async () => {
    const result = await runCli(['login', '--with-api-key', '--org', 'org_demo', '--base-url', NOWHERE], { stdin: 'x'.repeat(70_000) });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error: the API key on standard input is larger than 64 KiB');
  });

  it('stops reading standard input at once on Ctrl-C: exit 130', async () => {
    const controller = new AbortController();
    const never = new PassThrough();
    setTimeout(() => controller.abort(), 50);
    // Standard input never ends: a read that ignored the signal would never return, and the test's
    // own timeout would fail it. No duration is asserted.
    const result = await runCli(['login', '--with-api-key', '--org', 'org_demo', '--base-url', NOWHERE], { stdin: never, signal: controller.signal });
    expect(result.code).toBe(130);
    expect(result.stderr).toBe('error: interrupted\n');
  });

  it('warns that MKT_TOKEN overrides the stored token', async () => {
    const result = await runCli(['login', '--org', 'org_demo'], { env: { MKT_API_KEY: 'demo.demo-secret', MKT_BASE_URL: sandbox.url, MKT_TOKEN: 'x' } });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('warning: MKT_TOKEN is set');
  });

  it('stores per profile', async () => {
    const configDir = path.join(tempDir(), 'cfg');
    const env = { MKT_API_KEY: 'demo.demo-secret', MKT_BASE_URL: sandbox.url };
    expect((await runCli(['login', '--org', 'org_demo', '--profile', 'ci'], { env, configDir })).code).toBe(0);
    const profiles = JSON.parse(fs.readFileSync(path.join(configDir, 'config.json'), 'utf8')).profiles;
    expect(Object.keys(profiles)).toEqual(['ci']);
  });

  it('refuses plain http to a host other than loopback before connecting', async () => {
    const result = await runCli(['login', '--org', 'org_demo', '--base-url', 'http://quotes.example.com'], { env: { MKT_API_KEY: 'demo.demo-secret' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('refusing to send credentials over plain http to quotes.example.com');
    expect(result.stderr).toContain('MKT_ALLOW_INSECURE_HTTP=1');
  });

  it('names the three ways to set a base URL when there is none', async () => {
    const result = await runCli(['login', '--org', 'org_demo'], { env: { MKT_API_KEY: 'demo.demo-secret' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('no base URL');
    expect(result.stderr).toMatch(/--base-url URL, set MKT_BASE_URL, or run `mkt config set base-url URL`/);
  });
});

describe('mkt token', () => {
  const env = () => ({ MKT_BASE_URL: sandbox.url, MKT_CLIENT_ID: 'demo', MKT_CLIENT_SECRET: 'demo-secret' });

  it('--print writes only the access token, and stores it', async () => {
    const result = await runCli(['token', '--print', '--org', 'org_demo'], { env: env() });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const token = stored(result.configDir).token;
    expect(result.stdout).toBe(`${token.access_token}\n`);
    expect(token).toMatchObject({ source: 'client-credentials', client_id: 'demo', organization_id: 'org_demo', scope: 'market.read' });
  });

  it('--json writes the token response and never the secret', async () => {
    const result = await runCli(['token', '--json'], { env: env() });
    expect(result.code).toBe(0);
    const json = JSON.parse(result.stdout);
    expect(Object.keys(json)).toEqual(['access_token', 'token_type', 'expires_in', 'scope', 'organization_id']);
    expect(json).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'market.read', organization_id: null });
    expect(result.stdout).not.toContain('demo-secret');
  });

  it('with neither, confirms on stderr and writes nothing to stdout', async () => {
    const result = await runCli(['token'], { env: env() });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^Got a token for client demo from http:\/\/127\.0\.0\.1:\d+ \(profile default\); token expires in 59m, scope market\.read\n/);
  });

  it('reads the secret from stdin with --with-client-secret and the id from --client-id', async () => {
    const result = await runCli(['token', '--client-id', 'demo', '--with-client-secret', '--print'], { env: { MKT_BASE_URL: sandbox.url }, stdin: 'demo-secret\n' });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^\S+\n$/);
  });

  it('prompts for the secret on a terminal', async () => {
    const result = await runCli(['token', '--client-id', 'demo'], { env: { MKT_BASE_URL: sandbox.url }, stdinIsTTY: true, stdoutIsTTY: true, prompts: ['demo-secret'] });
    expect(result.code).toBe(0);
  });

  it.each([
    ['no client id', ['token'], { MKT_CLIENT_SECRET: 's' }, /no client id given/],
    ['no secret', ['token', '--client-id', 'demo'], {}, /no client secret given.*--with-client-secret.*MKT_CLIENT_SECRET/s],
    ['--client-secret', ['token', '--client-id', 'demo', '--client-secret', 'demo-secret'], {}, /--client-secret is not accepted/],
    ['--print with --json', ['token', '--print', '--json'], { MKT_CLIENT_ID: 'demo', MKT_CLIENT_SECRET: 'x' }, /cannot be used together/],
    ['a bad organization', ['token', '--org', 'acme'], { MKT_CLIENT_ID: 'demo', MKT_CLIENT_SECRET: 'x' }, /not of the form org_<id>/],
  ])('refuses %s with exit 2', async (_name, args, extra, message) => {
    const result = await runCli([...args, '--base-url', NOWHERE], { env: extra });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe('');
  });

  it('maps bad client credentials to exit 4', async () => {
    const result = await runCli(['token'], { env: { ...env(), MKT_CLIENT_SECRET: 'nope' } });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('hint: the service refused the client credentials: check the client id (--client-id or MKT_CLIENT_ID) and the secret');
    expect(result.stderr).toContain('then run `mkt token` again');
  });

  it('writes a JSON error object with --json', async () => {
    const result = await runCli(['token', '--json'], { env: { ...env(), MKT_CLIENT_SECRET: 'nope' } });
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
    const error = JSON.parse(result.stderr).error;
    expect(error).toMatchObject({ code: 'UNAUTHORIZED', status: 401, exit_code: 4 });
    expect(typeof error.message).toBe('string');
    expect(typeof error.hint).toBe('string');
  });
});
