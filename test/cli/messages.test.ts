// Issue 12, sections 4, 5 and 6 (its last bullet): errors in the command's output format, however it
// was chosen, with the service's request id; hints that name the command just run, MKT_TOKEN and
// --profile; unknown profiles, command groups, typos and prompts; shared flags before the command.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { createProgram } from '../../src/cli/program.js';
import { createTestDeps, runCli } from '../helpers/cli.js';
import { useServers } from '../helpers/fault-server.js';
import { useSandboxSession } from '../helpers/sandbox-session.js';

const session = useSandboxSession();
const { run, login } = session;
const servers = useServers();

/** The one JSON error object on stderr, or a failure that shows what was written instead. */
function jsonError(stderr: string): Record<string, unknown> {
  expect(stderr.trim().split('\n'), stderr).toHaveLength(1);
  return (JSON.parse(stderr) as { error: Record<string, unknown> }).error;
}

describe('an error follows the output format, however it was chosen', () => {
  const garbage = { MKT_TOKEN: 'garbage-token-value', MKT_ORG: 'org_demo' };
  const ways: Array<[string, string[], Record<string, string>, boolean]> = [
    ['--json', ['--json'], {}, false],
    ['--format json', ['--format', 'json'], {}, false],
    ['--format=json', ['--format=json'], {}, false],
    ['-f json', ['-f', 'json'], {}, false],
    ['-fjson', ['-fjson'], {}, false],
    ['-f ndjson', ['-f', 'ndjson'], {}, false],
    ['MKT_FORMAT=json', [], { MKT_FORMAT: 'json' }, false],
    ['mkt config set format json', [], {}, true],
  ];

  it.each(ways)('%s: a 401 is one JSON object on stderr, with the request id', async (_name, flags, env, stored) => {
    if (stored) expect((await run(['config', 'set', 'format', 'json'])).code).toBe(0);
    const result = await run(['quotes', 'EURUSD', ...flags], { env: { ...garbage, ...env } });
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
    const error = jsonError(result.stderr);
    expect(error).toMatchObject({ code: 'UNAUTHORIZED', status: 401, exit_code: 4 });
    expect(error.request_id).toMatch(/^req_[0-9a-f]+$/);
    expect(error.hint).toContain('MKT_TOKEN');
  });

  it.each(ways)('%s: so is a flag that does not parse', async (_name, flags, env, stored) => {
    if (stored) expect((await run(['config', 'set', 'format', 'json'])).code).toBe(0);
    const result = await run(['quotes', 'EURUSD', ...flags, '--orgg', 'org_demo'], { env: { ...garbage, ...env } });
    expect(result.code).toBe(2);
    expect(jsonError(result.stderr)).toMatchObject({ code: 'USAGE', exit_code: 2, message: "unknown option '--orgg'", hint: expect.stringContaining('did you mean --org?') });
  });

  it('--format json before the command counts too', async () => {
    const result = await run(['--org', 'org_demo', 'quotes', 'EURUSD', '--format', 'json'], { env: { MKT_TOKEN: 'garbage-token-value' } });
    expect(jsonError(result.stderr)).toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('in text, the request id is a line of its own', async () => {
    const result = await run(['quotes', 'EURUSD'], { env: garbage });
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/^error: not authenticated \(401 UNAUTHORIZED\): invalid or expired access token\nhint: .*\nrequest id: req_[0-9a-f]+\n$/);
  });

  it('an explicit text format wins over MKT_FORMAT and the profile, for the error as for the data', async () => {
    expect((await run(['config', 'set', 'format', 'json'])).code).toBe(0);
    const result = await run(['quotes', 'EURUSD', '--format', 'tsv'], { env: { ...garbage, MKT_FORMAT: 'json' } });
    expect(result.stderr).toMatch(/^error: not authenticated/);
  });

  it('status --json and token --json give JSON errors, also for flags that do not parse', async () => {
    expect(jsonError((await run(['status', '--json', '--bogus'])).stderr)).toMatchObject({ code: 'USAGE', exit_code: 2 });
    const token = await run(['token', '--json'], { env: { MKT_CLIENT_ID: 'demo', MKT_CLIENT_SECRET: 'wrong-secret' } });
    expect(jsonError(token.stderr)).toMatchObject({ code: 'UNAUTHORIZED', exit_code: 4, request_id: expect.stringMatching(/^req_/) });
  });

  it('MKT_FORMAT is the format of mkt quotes only: other commands keep text errors', async () => {
    const result = await run(['status', '--bogus'], { env: { MKT_FORMAT: 'json' } });
    expect(result.stderr).toMatch(/^error: unknown option '--bogus'\n/);
  });
});

describe('hints that point the right way', () => {
  it('a wrong API key: check the key and run mkt login again (with the profile it was run with)', async () => {
    const result = await run(['login', '--org', 'org_demo', '--profile', 'p1'], { env: { MKT_API_KEY: 'demo.wrong-secret' } });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('hint: the service refused the API key or the organization: MKT_API_KEY is set: check its value');
    expect(result.stderr).toContain('run `mkt login --profile p1` again');
    expect(result.stderr).not.toContain('mkt token');
  });

  it('a wrong client secret: check the client credentials and run mkt token again', async () => {
    const result = await run(['token'], { env: { MKT_CLIENT_ID: 'demo', MKT_CLIENT_SECRET: 'wrong-secret' } });
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/hint: the service refused the client credentials: .*then run `mkt token` again/);
    expect(result.stderr).not.toContain('mkt login');
  });

  it('an invalid MKT_TOKEN: the hint names MKT_TOKEN, which overrides any login', async () => {
    await login();
    const result = await run(['quotes', 'EURUSD'], { env: { MKT_TOKEN: 'garbage-token-value' } });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('hint: MKT_TOKEN is set, and overrides any stored token: the service refused it');
  });

  it('an expired token in --profile short: run `mkt login --profile short`', async () => {
    await login(['--profile', 'short']);
    const later = () => session.sandbox.clock.now() + 3_600_000;
    const local = await run(['quotes', 'EURUSD', '--profile', 'short'], { now: later });
    expect(local.code).toBe(4);
    expect(local.stderr).toContain('hint: run `mkt login --profile short` for a new token');
    // The service's own 401 for a token it expired, with the local clock behind.
    session.sandbox.clock.advance(3_600_000);
    try {
      const remote = await run(['quotes', 'EURUSD', '--profile', 'short'], { now: () => session.sandbox.clock.now() - 3_600_000 });
      expect(remote.code).toBe(4);
      expect(remote.stderr).toContain('hint: the token is invalid or expired: run `mkt login --profile short` for a new one');
    } finally {
      session.sandbox.clock.advance(-3_600_000);
    }
  });

  it('--batch-size over the service\'s limit: the hint gives the limit as a --batch-size', async () => {
    await login();
    const symbols = Array.from({ length: 150 }, (_, i) => `S${i}`);
    const result = await run(['quotes', ...symbols, '--batch-size', '500']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('at most 100 distinct symbols per request');
    expect(result.stderr).toContain('hint: the service takes at most 100 symbols in one request: use --batch-size 100 (or less)');
  });

  it('--batch-size 1000 and a URL too long for the service (414): a smaller --batch-size', async () => {
    await login();
    const symbols = Array.from({ length: 1000 }, (_, i) => `SYMBOL${String(i).padStart(4, '0')}`);
    const result = await run(['quotes', ...symbols, '--batch-size', '1000']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/414/);
    expect(result.stderr).toContain('hint: the request was too long for the service: use a smaller --batch-size (the default is 100)');
  });


  it('a base URL ending in /v1: drop it', async () => {
    const result = await run(['login', '--org', 'org_demo', '--base-url', `${session.sandbox.url}/v1`], { env: { MKT_API_KEY: 'demo.demo-secret' } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`hint: the base URL ends in /v1, and mkt adds /v1 to each path itself: use ${session.sandbox.url} `);
  });
});

describe('mkt login against a service that answers', () => {
  it.each([
    ['a 400: the hint is about the credentials, not the symbols', 400, '{"error":{"code":"INVALID_REQUEST","message":"malformed request"}}', 2,
      'hint: the service refused the API key or the organization'],
    ['a token without market.read: a warning that quotes will get 403', 200,
      '{"access_token":"tok_abcdef123456","token_type":"Bearer","expires_in":60,"scope":"orders.read"}', 0,
      'warning: the token has scope "orders.read", without market.read: `mkt quotes` will be refused (403)'],
  ])('%s', async (_name, status, body, code, expected) => {
    const server = await servers.answering(status, body);
    const result = await run(['login', '--org', 'org_demo', '--base-url', server.url], { env: { MKT_API_KEY: 'demo.demo-secret' } });
    expect(result.code).toBe(code);
    expect(result.stderr).toContain(expected);
    expect(result.stderr).not.toContain('symbols');
  });
});

describe('an unknown profile', () => {
  it.each([
    ['status', ['status']],
    ['logout', ['logout']],
    ['quotes', ['quotes', 'EURUSD']],
    ['config get', ['config', 'get', 'org']],
    ['config unset', ['config', 'unset', 'org']],
    ['config list', ['config', 'list']],
  ])('%s --profile nope: exit 2 naming the profiles there are', async (_name, args) => {
    await login(['--profile', 'ci']);
    await login(['--profile', 'big']);
    const result = await run([...args, '--profile', 'nope']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error: no profile "nope" (from --profile)');
    expect(result.stderr).toContain('hint: the profiles are big, ci;');
  });

  it('MKT_PROFILE names it the same way', async () => {
    const result = await run(['status'], { env: { MKT_PROFILE: 'nope' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('no profile "nope" (from MKT_PROFILE)');
    expect(result.stderr).toContain('there are no profiles yet');
  });

  it('login, token and config set create it', async () => {
    expect((await run(['login', '--org', 'org_demo', '--profile', 'new1'], { env: { MKT_API_KEY: 'demo.demo-secret' } })).code).toBe(0);
    expect((await run(['token', '--profile', 'new2'], { env: { MKT_CLIENT_ID: 'demo', MKT_CLIENT_SECRET: 'demo-secret' } })).code).toBe(0);
    expect((await run(['config', 'set', 'format', 'csv', '--profile', 'new3'])).code).toBe(0);
    expect((await run(['config', 'list', '--all'])).stdout).toMatch(/new1\..*new2\..*new3\./s);
  });
});

describe('command groups, typos and help', () => {
  it.each([[[]], [['config']], [['--profile', 'x']]])('mkt %j prints its help on stdout and exits 0, as gh does', async (args) => {
    const result = await run(args);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^Usage: mkt /);
  });

  it('an unknown option: the suggestion is the hint', async () => {
    const result = await run(['quotes', 'EURUSD', '--orgg', 'org_demo']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("error: unknown option '--orgg'\nhint: did you mean --org? `mkt quotes --help` shows the usage\n");
  });

  it('an unknown command: the suggestion is the hint', async () => {
    const result = await run(['quotez']);
    expect(result.stderr).toBe("error: unknown command 'quotez'\nhint: did you mean quotes? `mkt --help` shows the usage\n");
  });

  it('mkt help bogus lists the commands there are, not the hidden __complete', async () => {
    const result = await run(['help', 'bogus']);
    expect(result.code).toBe(2);
    // The commands `mkt --help` lists, from the program itself.
    const program = createProgram(createTestDeps().deps, { exitCode: 0, cleanups: [] });
    const listed = program.createHelp().visibleCommands(program).map((command) => command.name()).filter((name) => name !== 'help');
    expect(listed).toContain('quotes');
    expect(result.stderr).toContain(`commands: ${listed.join(', ')}`);
    expect(result.stderr).not.toContain('__complete');
  });
});

describe('prompts', () => {
  it('ask again after a typo instead of ending the command', async () => {
    const test = createTestDeps({ configDir: session.configDir, env: { MKT_BASE_URL: session.sandbox.url }, stdinIsTTY: true, stdoutIsTTY: true,
      prompts: ['demo-secret', 'demo.demo-secret', 'demo', 'org_demo'] });
    expect(await main(['login'], test.deps)).toBe(0);
    expect(test.prompted.map((p) => p.question)).toEqual(['API key:', 'API key:', 'Organization (org_<id>):', 'Organization (org_<id>):']);
    expect(test.rejected).toEqual([
      'an API key is <client_id>.<client_secret>: copy the whole key, both parts joined by a dot',
      'an organization is org_<id>, e.g. org_demo',
    ]);
  });

  it('mkt token on a terminal asks for the client id, then the secret, masked', async () => {
    const test = createTestDeps({ configDir: session.configDir, env: { MKT_BASE_URL: session.sandbox.url, MKT_ORG: 'org_demo' }, stdinIsTTY: true, stdoutIsTTY: true,
      prompts: ['demo', 'demo-secret'] });
    expect(await main(['token'], test.deps)).toBe(0);
    expect(test.prompted).toEqual([{ question: 'Client id:', mask: false }, { question: 'client secret:', mask: true }]);
  });
});

describe('what a new token cannot do, said when it is issued', () => {
  it('mkt token without an organization says that quotes will need one', async () => {
    const result = await run(['token'], { env: { MKT_CLIENT_ID: 'demo', MKT_CLIENT_SECRET: 'demo-secret' } });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('warning: no organization set for profile default: `mkt quotes` will need one; pass --org org_<id>');
    const withOrg = await run(['token', '--org', 'org_demo'], { env: { MKT_CLIENT_ID: 'demo', MKT_CLIENT_SECRET: 'demo-secret' } });
    expect(withOrg.stderr).not.toContain('warning');
  });

  it('mkt token with a client without market.read warns that quotes will get 403', async () => {
    const result = await run(['token', '--org', 'org_demo'], { env: { MKT_CLIENT_ID: 'noscope', MKT_CLIENT_SECRET: 'noscope-secret' } });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('warning: the token has no scope, without market.read: `mkt quotes` will be refused (403) with it');
    const quotes = await run(['quotes', 'EURUSD']);
    expect(quotes.code).toBe(5);
    expect(quotes.stderr).toContain('hint: the stored token has no market.read scope');
  });


  it('mkt login with a key the service refuses for want of market.read: the hint says so', async () => {
    const result = await run(['login', '--org', 'org_demo'], { env: { MKT_API_KEY: 'noscope.noscope-secret' } });
    expect(result.code).toBe(5);
    expect(result.stderr).toContain('hint: the API key lacks the market.read scope that quotes need');
  });
});

describe('shared flags before the command', () => {
  it('mkt --profile big quotes EURUSD', async () => {
    await login(['--profile', 'big']);
    const result = await run(['--profile', 'big', 'quotes', 'EURUSD']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^symbol\tbid\task\tmid\ttimestamp\nEURUSD\t/);
  });

  it('--base-url, --org, -v and --no-color before the command; after it, the command\'s value wins', async () => {
    await login();
    const token = JSON.parse(fs.readFileSync(path.join(session.configDir, 'config.json'), 'utf8')).profiles.default.token.access_token as string;
    const result = await runCli(['--base-url', session.sandbox.url, '--org', 'org_nope', '-v', '--no-color', 'quotes', 'EURUSD', '--org', 'org_demo'],
      { configDir: session.configDir, now: session.sandbox.clock.now, stdoutIsTTY: true, env: { MKT_TOKEN: token } });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`* GET ${session.sandbox.url}/v1/market/quotes?symbols=EURUSD`);
    expect(result.stderr).toContain('> x-organization-id: org_demo');
    expect(result.stdout).toContain('EURUSD');
    expect(result.stdout).not.toContain('\u001b[');
  });

  it('--quiet before the command silences the confirmation', async () => {
    const result = await run(['--quiet', 'login', '--org', 'org_demo'], { env: { MKT_API_KEY: 'demo.demo-secret' } });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
  });
});
