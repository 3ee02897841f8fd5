// An MCP tool's error speaks of what an agent and its user have: the tool's arguments, and the `args`
// and `env` of mkt's entry in the MCP client's configuration ("add --base-url URL to the server's
// args"); a command to run (`mkt login`) is the user's, in a terminal. Each case is a real call of a
// tool of `mkt mcp` (in-process) against a service that answers as the case needs, and the hint is
// checked whole: before, these were mkt quotes' words ("pass --base-url URL, set MKT_BASE_URL, or
// run `mkt config set base-url URL`", "use a smaller --batch-size").
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSandboxHandler, DEMO } from '../../../src/sandbox/index.js';
import { runCli, tempDir } from '../../helpers/cli.js';
import { useServers, type FaultServer } from '../../helpers/fault-server.js';
import { quote, quotesJson, QUOTE_TIME } from '../../helpers/quotes.js';
import { useTestCertificates } from '../../helpers/tls.js';
import { startLines, type McpLines } from './mcp-lines.js';

const servers = useServers();
const certificates = useTestCertificates();
const open: McpLines[] = [];
afterEach(async () => {
  for (const server of open.splice(0)) await server.end();
});

const TOKEN = 'tok-hints-0123456789';
const ARGS = 'the server\'s args';
const ENV = 'the server\'s env';

/** A service that answers every quotes request with `status` and the error envelope; tokens as the sandbox issues them. */
async function refusing(status: number, code: string, headers: Record<string, string> = {}): Promise<FaultServer> {
  const sandbox = createSandboxHandler({ now: () => Date.parse(QUOTE_TIME) });
  return servers.start((req, res) => {
    if (!req.url?.startsWith('/v1/market/')) return sandbox(req, res);
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify({ error: { code, message: `the service says ${code}` } }));
  }, { passThrough: true });
}

/** Logs in to `service` as `mkt login` does (the sandbox's demo key), into a config directory of its own. */
async function loggedIn(service: FaultServer, args: string[] = []): Promise<string> {
  const configDir = path.join(tempDir(), 'cfg');
  const login = await runCli(['login', '--org', DEMO.org, '--base-url', service.url, ...args], { configDir, env: { MKT_API_KEY: `${DEMO.clientId}.${DEMO.clientSecret}` } });
  expect(login.code, login.stderr).toBe(0);
  return configDir;
}

/** The error a tool call answers with, in words: its first text block, which ends with the hint. */
async function hintOf(env: Record<string, string | undefined>, args: string[], tool: string, input: Record<string, unknown>): Promise<string> {
  const server = await startLines({ MKT_CONFIG_DIR: path.join(tempDir(), 'cfg'), ...env }, '2025-06-18', args);
  open.push(server);
  server.send({ id: 1, method: 'tools/call', params: { name: tool, arguments: input } });
  const { result } = await server.answer(1);
  expect(result?.isError, JSON.stringify(result)).toBe(true);
  const text = (result!.content as Array<{ text: string }>)[0]!.text;
  const hint = /^hint: (.*)$/m.exec(text)?.[1];
  expect(hint, text).toBeDefined();
  // The JSON error object says the same.
  expect(JSON.parse((result!.content as Array<{ text: string }>)[1]!.text).error.hint).toBe(hint);
  return hint!;
}

const quotes = { symbols: ['EURUSD'] };
const env = (service: FaultServer) => ({ MKT_BASE_URL: service.url, MKT_TOKEN: TOKEN, MKT_ORG: DEMO.org });

describe('the settings and the credentials', () => {
  it('no base URL', async () => {
    expect(await hintOf({ MKT_TOKEN: TOKEN, MKT_ORG: DEMO.org }, [], 'get_quotes', quotes))
      .toBe(`add --base-url URL to ${ARGS}, or MKT_BASE_URL to ${ENV}; or the user runs \`mkt config set base-url URL\` in a terminal`);
  });

  it.each([['no organization', undefined], ['an organization that is not org_<id>', 'acme']])('%s', async (_name, org) => {
    const service = await refusing(500, 'INTERNAL');
    expect(await hintOf({ MKT_BASE_URL: service.url, MKT_TOKEN: TOKEN, MKT_ORG: org }, [], 'get_quotes', quotes))
      .toBe(`add --org org_<id> to ${ARGS}, or MKT_ORG to ${ENV}; or the user runs \`mkt config set org org_<id>\` in a terminal`);
  });

  it('plain http to another machine', async () => {
    expect(await hintOf({ MKT_BASE_URL: 'http://example.com', MKT_TOKEN: TOKEN, MKT_ORG: DEMO.org }, [], 'get_quotes', quotes))
      .toBe(`use https:// in the base URL (MKT_BASE_URL in ${ENV}), or add MKT_ALLOW_INSECURE_HTTP=1 to ${ENV} if you really mean it (plain http is only allowed to loopback addresses)`);
  });

  it('MKT_TOKEN with a space in it', async () => {
    const service = await refusing(500, 'INTERNAL');
    expect(await hintOf({ ...env(service), MKT_TOKEN: 'tok en' }, [], 'get_quotes', quotes))
      .toBe(`put the access token alone in MKT_TOKEN in ${ENV} (\`mkt token --print\` in a terminal prints one)`);
  });

  it('no token at all', async () => {
    const service = await refusing(500, 'INTERNAL');
    expect(await hintOf({ MKT_BASE_URL: service.url, MKT_ORG: DEMO.org }, [], 'get_quotes', quotes))
      .toBe(`the user runs \`mkt login\` (an API key) or \`mkt token\` (client credentials) in a terminal, which the next call uses; or put MKT_TOKEN in ${ENV} (with MKT_CLIENT_ID and MKT_CLIENT_SECRET in ${ENV}, mkt gets and renews tokens by itself)`);
  });

  it('a stored token of another service', async () => {
    const [stored, other] = [await refusing(500, 'INTERNAL'), await refusing(500, 'INTERNAL')];
    const configDir = await loggedIn(stored);
    expect(await hintOf({ MKT_CONFIG_DIR: configDir }, ['--base-url', other.url], 'get_quotes', quotes))
      .toBe(`the user runs \`mkt login --base-url ${other.url}\` in a terminal, or name the profile that holds that service's token with --profile in ${ARGS}`);
  });

  it('client credentials the service refuses', async () => {
    const service = await refusing(500, 'INTERNAL');
    expect(await hintOf({ MKT_BASE_URL: service.url, MKT_ORG: DEMO.org, MKT_CLIENT_ID: DEMO.clientId, MKT_CLIENT_SECRET: 'wrong' }, [], 'get_quotes', quotes))
      .toBe(`mkt asked for a token with MKT_CLIENT_ID and MKT_CLIENT_SECRET and the service refused them: check both in ${ENV}, or remove them and have the user run \`mkt login\` in a terminal`);
  });
});

describe('the service refusing', () => {
  it('401 for MKT_TOKEN', async () => {
    const service = await refusing(401, 'UNAUTHORIZED');
    expect(await hintOf(env(service), [], 'get_quotes', quotes))
      .toBe(`MKT_TOKEN in ${ENV} overrides any stored token, and the service refused it (invalid or expired): put a fresh one there (\`mkt token --print\` in a terminal prints one), or remove it to use the stored token`);
  });

  it('401 for the stored token of a profile the server\'s args name', async () => {
    const service = await refusing(401, 'UNAUTHORIZED');
    const configDir = await loggedIn(service, ['--profile', 'work']);
    expect(await hintOf({ MKT_CONFIG_DIR: configDir }, ['--profile', 'work'], 'get_quotes', quotes))
      .toBe('the token is invalid or expired: the user runs `mkt login --profile work` in a terminal for a new one, which the next call uses');
  });

  it('403 for an organization the stored token was not issued for', async () => {
    const service = await refusing(403, 'FORBIDDEN');
    const configDir = await loggedIn(service);
    expect(await hintOf({ MKT_CONFIG_DIR: configDir }, ['--org', 'org_other'], 'get_quotes', quotes))
      .toBe(`the stored token was issued for ${DEMO.org}, but the request was for org_other (from --org in ${ARGS}): make the organization ${DEMO.org} (--org in ${ARGS}, or MKT_ORG in ${ENV}), or have the user log in for org_other in a terminal (\`mkt login --org org_other\`)`);
  });

  it('403', async () => {
    const service = await refusing(403, 'FORBIDDEN');
    expect(await hintOf(env(service), [], 'get_quotes', quotes))
      .toBe(`the token lacks the market.read scope or access to the organization ${DEMO.org} (from MKT_ORG in ${ENV}): check it, or have the user log in with a key that has both`);
  });

  it.each([
    ['get_quotes', quotes, 'the symbols and venue arguments'],
    ['value_portfolio', { base: 'USD', positions: [{ symbol: 'AAPL', quantity: '1', currency: 'USD' }] }, 'the positions\' symbols and the base argument'],
  ])('400 to %s', async (tool, input, inputs) => {
    const service = await refusing(400, 'INVALID_REQUEST');
    expect(await hintOf(env(service), [], tool, input)).toBe(`check ${inputs}, and the organization ${DEMO.org} (from MKT_ORG in ${ENV})`);
  });

  it.each([
    ['MKT_BASE_URL', [], `MKT_BASE_URL in ${ENV}`],
    ['--base-url', ['--base-url'], `--base-url in ${ARGS}`],
  ])('404 from a base URL that ends in /v1, given with %s', async (_name, flag, where) => {
    const service = await refusing(404, 'NOT_FOUND');
    const base = `${service.url}/v1`;
    const given = flag.length === 0 ? { ...env(service), MKT_BASE_URL: base } : { MKT_TOKEN: TOKEN, MKT_ORG: DEMO.org };
    expect(await hintOf(given, flag.length === 0 ? [] : [...flag, base], 'get_quotes', quotes))
      .toBe(`the base URL ends in /v1, and mkt adds /v1 to each path itself: make it ${service.url} (${where})`);
  });

  it('414', async () => {
    const service = await refusing(414, 'URI_TOO_LONG');
    expect(await hintOf(env(service), [], 'get_quotes', quotes)).toBe('the request was too long for the service: ask for fewer symbols in one call');
  });

  it('429 without a wait', async () => {
    const service = await refusing(429, 'RATE_LIMITED');
    expect(await hintOf(env(service), ['--retries', '0'], 'get_quotes', quotes)).toBe('call again in a minute, or ask for fewer symbols in one call');
  });

  it('429 asking for more than --max-wait', async () => {
    const service = await refusing(429, 'RATE_LIMITED', { 'retry-after': '120' });
    expect(await hintOf(env(service), [], 'get_quotes', quotes))
      .toMatch(new RegExp(`^call again after \\d\\d:\\d\\d:\\d\\d UTC \\(in 2m\\); this server waits at most 45s within a call \\(--max-wait in ${ARGS}, or MKT_MAX_WAIT in ${ENV}\\)$`));
  });

  it('a rate limit the calls would need longer than --max-wait for', async () => {
    const sandbox = createSandboxHandler({ now: () => Date.parse(QUOTE_TIME), synthetic: 1000, limits: { perMinute: 5 } });
    const service = await servers.start((req, res) => sandbox(req, res), { passThrough: true });
    const symbols = Array.from({ length: 1000 }, (_, i) => `SYN${String(i + 1).padStart(5, '0')}`);
    const hint = await hintOf({ MKT_BASE_URL: service.url, MKT_ORG: DEMO.org, MKT_CLIENT_ID: DEMO.clientId, MKT_CLIENT_SECRET: DEMO.clientSecret }, [], 'get_quotes', { symbols });
    const [, wait, again] = /^add --max-wait (\S+) to the server's args \(or MKT_MAX_WAIT=(\S+) to the server's env\), or ask for fewer symbols in one call$/.exec(hint) ?? [];
    expect(wait, hint).toBeDefined();
    expect(again).toBe(wait);
  });
});

describe('the network', () => {
  it('a connection refused', async () => {
    expect(await hintOf({ MKT_BASE_URL: 'http://127.0.0.1:9', MKT_TOKEN: TOKEN, MKT_ORG: DEMO.org }, ['--retries', '0'], 'get_quotes', quotes))
      .toBe(`check the base URL (MKT_BASE_URL in ${ENV}) and that the service is running`);
  });

  it('a timeout', async () => {
    const service = await servers.start(() => {});
    expect(await hintOf(env(service), ['--timeout', '200ms', '--retries', '0'], 'get_quotes', quotes))
      .toBe(`the service or the network is slow or unreachable; raise --timeout in ${ARGS}, or try again`);
  });

  it('a certificate of a CA mkt does not trust', async () => {
    const { key, cert } = certificates();
    const service = await servers.start((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(quotesJson([quote('EURUSD')])), { tls: { key, cert } });
    expect(await hintOf(env(service), ['--retries', '0'], 'get_quotes', quotes))
      .toBe(`trust the CA (PEM) that issued 127.0.0.1's certificate: add --ca-file FILE to ${ARGS}, or MKT_CA_FILE to ${ENV}`);
  });
});

describe('the tool\'s arguments', () => {
  it('a position with no currency, and no currency argument', async () => {
    const service = await refusing(500, 'INTERNAL');
    expect(await hintOf(env(service), [], 'value_portfolio', { base: 'USD', positions: [{ symbol: 'AAPL', quantity: '1' }] }))
      .toBe('give the position a currency, or the call a currency argument for the positions that name none');
  });
});
