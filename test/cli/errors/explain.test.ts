// Each command words its own errors, and main only generically. A command with no words of its own
// (one this test adds, as a new command would be added) gets the library's message and hint, in
// mkt's terms where its facts name an option, and none of the hints `mkt quotes` gives for the same
// answer.
import { describe, expect, it } from 'vitest';
import { createClient, OptionsError, RateLimitError, ServerError } from '../../../src/api/index.js';
import { explainError } from '../../../src/cli/errors/explain.js';
import { credentialsExplainer } from '../../../src/cli/hints/credentials.js';
import { main } from '../../../src/cli/main.js';
import { COMMANDS, type RegisterCommand } from '../../../src/cli/program.js';
import { createTestDeps } from '../../helpers/cli.js';
import { sendError, sendQuotes, useServers } from '../../helpers/fault-server.js';

const servers = useServers();

/** `mkt made-up-widgets`, a command main knows nothing of: it asks the service and registers no wording. */
const registerWidgets: RegisterCommand = (program, deps) => {
  program.command('made-up-widgets').action(async () => {
    const client = createClient({ baseUrl: deps.env.MKT_BASE_URL!, accessToken: deps.env.MKT_TOKEN, organizationId: deps.env.MKT_ORG, retries: 0 });
    await client.getQuotes({ symbols: ['EURUSD'] });
  });
};

/** `mkt made-up-gadgets [--org]`, a new data command that words its refusals with credentialsExplainer alone. */
const registerGadgets: RegisterCommand = (program, deps, state) => {
  program.command('made-up-gadgets').option('--org <org_id>').action(async (options: { org?: string }) => {
    state.explain = credentialsExplainer(deps, options);
    const client = createClient({ baseUrl: deps.env.MKT_BASE_URL!, accessToken: deps.env.MKT_TOKEN, organizationId: options.org ?? deps.env.MKT_ORG, retries: 0 });
    await client.getQuotes({ symbols: ['EURUSD'] });
  });
};

async function run(argv: string[], baseUrl: string, env: Record<string, string> = { MKT_TOKEN: 'tok_garbage' }) {
  const test = createTestDeps({ env: { MKT_BASE_URL: baseUrl, MKT_ORG: 'org_demo', MKT_RETRIES: '0', ...env } });
  const code = await main(argv, test.deps, [...COMMANDS, registerWidgets, registerGadgets]);
  return { code, stdout: test.stdout(), stderr: test.stderr() };
}

describe('a command without its own wording gets the generic one, never quotes\' hints', () => {
  it.each([
    [401, 'UNAUTHORIZED', '', 4,
      'error: not authenticated (401 UNAUTHORIZED): fault server says UNAUTHORIZED\nhint: the access token is missing, invalid or expired: get a new one (cliLogin or clientCredentials) and pass it as accessToken\n',
      'hint: MKT_TOKEN is set, and overrides any stored token'],
    [403, 'FORBIDDEN', '', 5,
      'error: forbidden (403 FORBIDDEN): fault server says FORBIDDEN\nhint: the token lacks the market.read scope or access to org_demo; check organizationId, or get a token from a key that has them\n',
      'hint: the token lacks the market.read scope or access to org_demo (from MKT_ORG): check MKT_ORG, or log in with a key that has both'],
    [400, 'INVALID_REQUEST', '', 2,
      'error: the service rejected the request (400 INVALID_REQUEST): fault server says INVALID_REQUEST\nhint: check the symbols, the venue and the organizationId\n',
      'hint: check the symbols and the venue, and the organization org_demo (from MKT_ORG)'],
    [414, 'URI_TOO_LONG', '', 1,
      'error: GET {url}/v1/market/quotes failed with 414: fault server says URI_TOO_LONG\n',
      'hint: the request was too long for the service: use a smaller --batch-size (the default is 100)'],
    [404, 'NOT_FOUND', '/v1', 1,
      'error: GET {url}/v1/v1/market/quotes failed with 404 Not Found: fault server says NOT_FOUND\nhint: check the base URL (--base-url)\n',
      'hint: the base URL ends in /v1, and mkt adds /v1 to each path itself: use {url} (--base-url'],
  ])('%i %s', async (status, code, suffix, exitCode, generic, quotesHint) => {
    const server = await servers.start((_req, res) => sendError(res, status, code));
    const fill = (text: string) => text.replaceAll('{url}', server.url);

    const own = await run(['made-up-widgets'], `${server.url}${suffix}`);
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

describe('credentialsExplainer words any data command\'s refusals in the CLI\'s terms, the organization as given', () => {
  it.each([
    [400, 'INVALID_REQUEST', ['--org', 'org_other'], 'hint: check the command\'s arguments, and the organization org_other (from --org)\n'],
    [400, 'INVALID_REQUEST', [], 'hint: check the command\'s arguments, and the organization org_demo (from MKT_ORG)\n'],
    [403, 'FORBIDDEN', ['--org', 'org_other'], 'hint: the token lacks the market.read scope or access to org_other (from --org): check --org, or log in with a key that has both\n'],
    [403, 'FORBIDDEN', [], 'hint: the token lacks the market.read scope or access to org_demo (from MKT_ORG): check MKT_ORG, or log in with a key that has both\n'],
  ])('%i with %j', async (status, code, flags, hint) => {
    const server = await servers.start((_req, res) => sendError(res, status, code));
    const result = await run(['made-up-gadgets', ...flags], server.url);
    expect(result.stderr).toMatch(new RegExp(`^error: [^\\n]*\\(${status} ${code}\\)[^\\n]*\\n`));
    expect(result.stderr.slice(result.stderr.indexOf('\n') + 1)).toBe(hint);
    expect(result.stderr).not.toContain('organizationId');
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

describe('mkt words the library\'s facts, never its sentences', () => {
  const names = { baseUrl: 'MKT_BASE_URL', timeout: 'MKT_TIMEOUT' };

  it('an option refused: its flag and what it must be', () => {
    const error = new OptionsError('INVALID_OPTIONS', 'whatever the library says', { option: 'timeoutMs', expected: 'an integer from 1 to 2147483647' });
    expect(explainError(error, undefined, names)).toMatchObject({ message: 'MKT_TIMEOUT must be an integer from 1 to 2147483647', hint: undefined });
    const insecure = new OptionsError('INSECURE_HTTP', 'plain http', { option: 'baseUrl', hint: 'pass allowInsecureHttp: true' });
    expect(explainError(insecure).hint).toBe('use https://, or set MKT_ALLOW_INSECURE_HTTP=1 for a network you trust');
  });

  it('a plan foreseen past maxWaitMs, for a command with no words of its own: from the plan\'s numbers', () => {
    const error = new RateLimitError({
      status: 0, code: 'RATE_LIMITED', method: 'GET', url: 'http://x/v1/market/quotes', operation: 'getQuotes', retryAfterMs: 45_000, maxWaitMs: 30_000,
      plan: { requests: 100, limit: 60, windowMs: 60_000, waitMs: 45_000, maxWaitMs: 30_000, remaining: 59, spentMs: 5_000 },
      message: 'not read', hint: 'not read either',
    });
    expect(explainError(error, undefined, names)).toMatchObject({
      message: '100 requests at 60 requests a minute need about 45s of waiting for the rate limit (59 left in this window, which resets in 45s), longer than --max-wait 30s; no request was sent for the rest',
      hint: 'allow a --max-wait of at least 50s',
    });
  });

  it.each([
    [503, 3, 'GET http://x/v1/market/quotes failed with 503 Service Unavailable after 3 attempts: busy; the service asks to wait 2m, longer than --max-wait 5s'],
    [429, 1, 'rate limited (429 SLOW_DOWN) after 1 attempt; the service asks to wait 2m, longer than --max-wait 5s'],
  ])('a %i asking for longer than --max-wait, after %i attempts', (status, attempts, message) => {
    const Class = status === 429 ? RateLimitError : ServerError;
    const error = new Class({
      status, code: 'SLOW_DOWN', serviceCode: 'SLOW_DOWN', serviceMessage: 'busy', method: 'GET', url: 'http://x/v1/market/quotes?symbols=A', operation: 'getQuotes',
      attempts, retryAfterMs: 120_000, maxWaitMs: 5_000, message: 'not read', hint: 'the service is having trouble; try again later',
    });
    expect(explainError(error, undefined, names)).toMatchObject({ message, hint: 'the service is having trouble; try again later' });
  });
});
