// Issue 13 item 3, the command line's part: every secret mkt holds (MKT_TOKEN, MKT_API_KEY,
// MKT_CLIENT_SECRET, the stored token, a key or secret read from standard input or a prompt) is
// scrubbed by value from its diagnostics, errors and -v lines alike, in text and in JSON; the data
// on stdout never is (issue 17, test/cli/bin-data.test.ts).
// Servers here echo what they were sent, every way they can.
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir, type RunResult, type TestDepsOptions } from '../../helpers/cli.js';
import type { FaultServer } from '../../helpers/fault-server.js';
import { useServers } from '../../helpers/fault-server.js';

const TOKEN = 'tok_SECRET_env_7c1e09ab';
const API_KEY = 'demo.key-SECRET-a91f3c27';
const CLIENT_SECRET = 'cs_SECRET_stdin_40b2e8d1';
const ISSUED = 'at_SECRET_issued_5d7a2c90';

const servers = useServers();

/**
 * Answers the token endpoints with ISSUED; a quotes request, and a token request when `refuse` says
 * so, with 400, its Authorization header and body in the message and an x-request-id header.
 */
async function echoServer(refuse: (req: IncomingMessage) => boolean = () => true): Promise<FaultServer> {
  return servers.start((req: IncomingMessage, res: ServerResponse, context) => {
    const echo = `${req.headers.authorization ?? ''} ${context.body}`;
    if (!req.url!.startsWith('/v1/market/') && !refuse(req)) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ access_token: ISSUED, token_type: 'Bearer', expires_in: 3600, scope: 'market.read' }));
      return;
    }
    const body = JSON.stringify({ error: { code: 'INVALID_REQUEST', message: `bad request: ${echo}` }, request_id: `req ${echo}` });
    res.writeHead(400, { 'content-type': 'application/json', 'x-request-id': echo.trim().slice(0, 200) }).end(body);
  });
}

function expectNone(result: RunResult, ...secrets: string[]) {
  const printed = result.stdout + result.stderr;
  for (const secret of secrets) {
    expect(printed).not.toContain(secret);
    // The secret part of an API key alone, too.
    if (secret.includes('.')) expect(printed).not.toContain(secret.slice(secret.indexOf('.') + 1));
  }
  expect(printed).toContain('[redacted]');
}

const cli = (argv: string[], options: TestDepsOptions) => runCli(argv, { configDir: path.join(tempDir(), 'cfg'), ...options });

describe('secrets echoed back are never printed', () => {
  it.each([[[]], [['-v']], [['--json']]])('MKT_TOKEN in a 400\'s message, request id and headers (%j)', async (extra) => {
    const server = await echoServer();
    const result = await cli(['quotes', 'EURUSD', ...extra], { env: { MKT_TOKEN: TOKEN, MKT_ORG: 'org_demo', MKT_BASE_URL: server.url } });
    expect(result.code).toBe(2);
    expectNone(result, TOKEN);
  });

  it.each<[string, string[], Record<string, string>, TestDepsOptions]>([
    ['MKT_API_KEY', [], { MKT_API_KEY: API_KEY }, {}],
    ['--with-api-key', ['--with-api-key'], {}, { stdin: `${API_KEY}\n` }],
    ['the prompt', [], {}, { stdinIsTTY: true, stdoutIsTTY: true, prompts: [API_KEY] }],
  ])('the API key from %s, echoed by the login endpoint, with -v', async (_name, flags, env, input) => {
    const server = await echoServer();
    const result = await cli(['login', '--org', 'org_demo', '-v', ...flags], { env: { MKT_BASE_URL: server.url, ...env }, ...input });
    expect(result.code).toBe(2);
    expectNone(result, API_KEY);
  });

  it.each<[string, string[], Record<string, string>, TestDepsOptions]>([
    ['MKT_CLIENT_SECRET', [], { MKT_CLIENT_SECRET: CLIENT_SECRET }, {}],
    ['--with-client-secret', ['--with-client-secret'], {}, { stdin: CLIENT_SECRET }],
  ])('the client secret from %s, echoed by the token endpoint, in JSON', async (_name, flags, env, input) => {
    const server = await echoServer();
    const result = await cli(['token', '--client-id', 'demo', '--json', '-v', ...flags], { env: { MKT_BASE_URL: server.url, ...env }, ...input });
    expect(result.code).toBe(2);
    expectNone(result, CLIENT_SECRET);
    expect(() => JSON.parse(result.stderr.split('\n').filter((line) => line.startsWith('{')).at(-1)!)).not.toThrow();
  });

  it('the stored token, echoed by the quotes endpoint', async () => {
    const server = await echoServer((req) => req.url!.startsWith('/v1/market/'));
    const configDir = path.join(tempDir(), 'cfg');
    const env = { MKT_BASE_URL: server.url };
    expect((await runCli(['login', '--org', 'org_demo'], { configDir, env: { ...env, MKT_API_KEY: 'demo.demo-secret' } })).code).toBe(0);
    const result = await runCli(['quotes', 'EURUSD', '-v'], { configDir, env });
    expect(result.code).toBe(2);
    expectNone(result, ISSUED);
  });

  it('a token minted with MKT_CLIENT_ID and MKT_CLIENT_SECRET, echoed by the quotes endpoint', async () => {
    const server = await echoServer((req) => req.url!.startsWith('/v1/market/'));
    const result = await cli(['quotes', 'EURUSD'], { env: { MKT_BASE_URL: server.url, MKT_ORG: 'org_demo', MKT_CLIENT_ID: 'demo', MKT_CLIENT_SECRET: CLIENT_SECRET } });
    expect(result.code).toBe(2);
    expectNone(result, ISSUED, CLIENT_SECRET);
  });

  it.each([[['quotes', 'ECHO']], [['value', '-', '--base', 'USD', '--json']]])('MKT_TOKEN, long, in a quote\'s timestamp: quoted cut short in the error, none of it printed (%j)', async (argv) => {
    const long = 'Ys1Ma9i7yAW7Z9ZOvE-PvuV037Y2Yx90FSDou2mQk4w';
    const server = await servers.start((req: IncomingMessage, res: ServerResponse) => {
      const timestamp = String(req.headers.authorization).replace('Bearer ', '');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: [{ symbol: 'ECHO', bid: '1', ask: '1', mid: '1', timestamp }] }));
    });
    const result = await cli(argv, { env: { MKT_TOKEN: long, MKT_ORG: 'org_demo', MKT_BASE_URL: server.url }, stdin: 'symbol,quantity,currency\nECHO,1,USD\n' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('[redacted]…');
    for (let at = 0; at + 8 <= long.length; at++) expect(result.stdout + result.stderr).not.toContain(long.slice(at, at + 8));
  });

  it('mkt token --print still prints the token it was asked for, even one already stored', async () => {
    const server = await echoServer(() => false);
    const configDir = path.join(tempDir(), 'cfg');
    const env = { MKT_BASE_URL: server.url, MKT_CLIENT_ID: 'demo', MKT_CLIENT_SECRET: CLIENT_SECRET };
    expect((await runCli(['token'], { configDir, env })).code).toBe(0);
    const again = await runCli(['token', '--print'], { configDir, env });
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(`${ISSUED}\n`);
  });
});

describe('what is scrubbed', () => {
  it('is the diagnostics on stderr, never the data on stdout (a dotted token, in every form held)', async () => {
    const { createTestDeps } = await import('../../helpers/cli.js');
    const { holdSecret, withScrubbedDiagnostics } = await import('../../../src/cli/credentials/secrets.js');
    const test = createTestDeps();
    const deps = withScrubbedDiagnostics(test.deps);
    const token = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjaSJ9.c2lnbmF0dXJl';
    holdSecret(deps, token);
    deps.io.stdout.write(`${token}\n`);
    deps.io.stderr.write(`${token}\n`);
    expect(test.stdout()).toBe(`${token}\n`);
    expect(test.stderr()).toBe('[redacted]\n');
  });
});
