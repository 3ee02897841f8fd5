// Issue 18, item 4: each command words its own errors, and main only generically. A command with no
// words of its own (one this test adds, as a new command would be added) gets the library's message
// and hint in mkt's flags, and none of the hints `mkt quotes` gives for the same answer.
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/index.js';
import { main } from '../../src/cli/main.js';
import { COMMANDS, type RegisterCommand } from '../../src/cli/program.js';
import { createTestDeps } from '../helpers/cli.js';
import { sendError, sendQuotes, useServers } from '../helpers/fault-server.js';

const servers = useServers();

/** `mkt widgets`, a command main knows nothing of: it asks the service and registers no wording. */
const registerWidgets: RegisterCommand = (program, deps) => {
  program.command('widgets').action(async () => {
    const client = createClient({ baseUrl: deps.env.MKT_BASE_URL!, accessToken: deps.env.MKT_TOKEN, organizationId: deps.env.MKT_ORG, retries: 0 });
    await client.getQuotes({ symbols: ['EURUSD'] });
  });
};

async function run(argv: string[], baseUrl: string, env: Record<string, string> = { MKT_TOKEN: 'tok_garbage' }) {
  const test = createTestDeps({ env: { MKT_BASE_URL: baseUrl, MKT_ORG: 'org_demo', MKT_RETRIES: '0', ...env } });
  const code = await main(argv, test.deps, [...COMMANDS, registerWidgets]);
  return { code, stdout: test.stdout(), stderr: test.stderr() };
}

describe('a command without its own wording gets the generic one, never quotes\' hints', () => {
  it.each([
    [401, 'UNAUTHORIZED', '', 4,
      'error: not authenticated (401 UNAUTHORIZED): fault server says UNAUTHORIZED\nhint: the access token is missing, invalid or expired: get a new one (cliLogin or clientCredentials) and pass it as accessToken\n',
      'hint: MKT_TOKEN is set, and overrides any stored token'],
    [403, 'FORBIDDEN', '', 5,
      'error: forbidden (403 FORBIDDEN): fault server says FORBIDDEN\nhint: the token lacks the market.read scope or access to org_demo; check organizationId, or get a token from a key that has them\n',
      'hint: the token lacks the market.read scope or access to org_demo (from MKT_ORG): check --org, or log in with a key that has both'],
    [400, 'INVALID_REQUEST', '', 2,
      'error: the service rejected the request (400 INVALID_REQUEST): fault server says INVALID_REQUEST\nhint: check the symbols, the venue and the organizationId\n',
      'hint: check the symbols, the venue and the organization (--org)'],
    [414, 'URI_TOO_LONG', '', 1,
      'error: GET {url}/v1/market/quotes failed with 414: fault server says URI_TOO_LONG\n',
      'hint: the request was too long for the service: use a smaller --batch-size (the default is 100)'],
    [404, 'NOT_FOUND', '/v1', 1,
      'error: GET {url}/v1/v1/market/quotes failed with 404 Not Found: fault server says NOT_FOUND\nhint: check the base URL (--base-url)\n',
      'hint: the base URL ends in /v1, and mkt adds /v1 to each path itself: use {url} (--base-url'],
  ])('%i %s', async (status, code, suffix, exitCode, generic, quotesHint) => {
    const server = await servers.start((_req, res) => sendError(res, status, code));
    const fill = (text: string) => text.replaceAll('{url}', server.url);

    const own = await run(['widgets'], `${server.url}${suffix}`);
    expect(own.code).toBe(exitCode);
    expect(own.stdout).toBe('');
    expect(own.stderr).toBe(fill(generic));

    // The same answer to `mkt quotes`, worded by quotes (hints/quotes.ts).
    const quotes = await run(['quotes', 'EURUSD'], `${server.url}${suffix}`);
    expect(quotes.code).toBe(exitCode);
    expect(quotes.stderr).toContain(fill(quotesHint));
    expect(own.stderr).not.toContain(fill(quotesHint));
  });
});

describe('a command words what it asked for', () => {
  it('quotes: a token request refused while renewing names MKT_CLIENT_ID and MKT_CLIENT_SECRET, not the token sent', async () => {
    const server = await servers.start((req, res) => req.url === '/v1/auth/token' ? sendError(res, 401, 'INVALID_CLIENT') : sendQuotes(req, res));
    const result = await run(['quotes', 'EURUSD'], server.url, { MKT_CLIENT_ID: 'ci', MKT_CLIENT_SECRET: 'ci-secret' });
    expect(result.code).toBe(4);
    expect(result.stderr).toBe('error: not authenticated (401 INVALID_CLIENT): fault server says INVALID_CLIENT\n'
      + 'hint: mkt asked for a token with MKT_CLIENT_ID and MKT_CLIENT_SECRET and the service refused them: check both, or unset them and run `mkt login`\n');
  });

  it.each([
    [['login', '--org', 'org_demo'], { MKT_API_KEY: 'demo.demo-secret' }],
    [['token', '--client-id', 'ci'], { MKT_CLIENT_SECRET: 'ci-secret' }],
  ])('%j: a 503 is the service\'s trouble, not a refusal of the credentials', async (argv, env) => {
    const server = await servers.start((_req, res) => sendError(res, 503, 'UNAVAILABLE'));
    const result = await run(argv, server.url, env);
    expect(result.code).toBe(7);
    expect(result.stderr).toMatch(/\nhint: the service is having trouble; try again later\n$/);
  });
});
