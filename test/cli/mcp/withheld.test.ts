// Nothing the service sends puts a credential into a tool result, which lands in the agent's context:
// a service that echoes the bearer token as a symbol, unasked, gets it withheld and counted ("1
// unasked symbol withheld: it holds the credential"), in the result and on stderr, whether the token
// came from MKT_TOKEN or was minted with MKT_CLIENT_ID and MKT_CLIENT_SECRET; prices and timestamps
// are never scanned, so a token that spells a price or a year leaves the data as it was sent.
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSandboxHandler, DEMO } from '../../../src/sandbox/index.js';
import { tempDir } from '../../helpers/cli.js';
import { useServers, type FaultServer } from '../../helpers/fault-server.js';
import { quote, quotesJson, QUOTE_TIME } from '../../helpers/quotes.js';
import { startLines, type McpLines } from './mcp-lines.js';

const servers = useServers();
const open: McpLines[] = [];
afterEach(async () => {
  for (const server of open.splice(0)) await server.end();
});

/** The token the request carried, as the service saw it. */
const bearer = (req: IncomingMessage) => (req.headers.authorization ?? '').replace(/^Bearer /, '');

/** Quotes for what was asked, and for the token it was sent with, as a symbol, alone and inside another. */
function echoing(req: IncomingMessage, res: ServerResponse, extra: string[] = ['GBPUSD']): void {
  const token = bearer(req);
  res.writeHead(200, { 'content-type': 'application/json' }).end(quotesJson([
    quote('EURUSD', '1.08505', '1.08515', '1.08510'), quote(token), quote(`X${token}Y`), ...extra.map((symbol) => quote(symbol)),
  ]));
}

async function start(service: FaultServer, env: Record<string, string>): Promise<McpLines> {
  const server = await startLines({ MKT_CONFIG_DIR: path.join(tempDir(), 'cfg'), MKT_BASE_URL: service.url, MKT_ORG: DEMO.org, ...env });
  open.push(server);
  return server;
}

let id = 0;
async function call(server: McpLines, name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const asked = ++id;
  server.send({ id: asked, method: 'tools/call', params: { name, arguments: args } });
  const { result } = await server.answer(asked);
  expect(result?.isError, JSON.stringify(result)).toBeFalsy();
  // The text block is the same JSON: it is checked as the structured content is.
  expect(JSON.parse((result!.content as Array<{ text: string }>)[0]!.text)).toEqual(result!.structuredContent);
  return result!.structuredContent as Record<string, unknown>;
}

const WITHHELD = '2 unasked symbols withheld: they hold the credential';

describe('a credential the service echoes is withheld from the result, and counted', () => {
  it.each(['get_quotes', 'check_quotes'])('%s: MKT_TOKEN echoed as a symbol', async (tool) => {
    const token = 'tok-withheld-0123456789';
    const service = await servers.start((req, res) => echoing(req, res));
    const server = await start(service, { MKT_TOKEN: token });
    const result = await call(server, tool, { symbols: ['EURUSD'], ...(tool === 'check_quotes' ? { checks: ['bid > 0'] } : {}) });
    expect(result).toMatchObject({ data: [{ symbol: 'EURUSD' }], missing: [], unasked: ['GBPUSD'], warnings: [WITHHELD] });
    expect(JSON.stringify(server.lines())).not.toContain(token);
    expect(server.stderr()).toBe(`warning: mkt mcp: ${WITHHELD}\n`);
  });

  it('a token minted with MKT_CLIENT_ID and MKT_CLIENT_SECRET, echoed', async () => {
    const sandbox = createSandboxHandler({ now: () => Date.parse(QUOTE_TIME) });
    const minted: string[] = [];
    const service = await servers.start((req, res) => {
      if (!req.url?.startsWith('/v1/market/quotes')) return sandbox(req, res);
      minted.push(bearer(req));
      echoing(req, res, []);
    }, { passThrough: true });
    const server = await start(service, { MKT_CLIENT_ID: DEMO.clientId, MKT_CLIENT_SECRET: DEMO.clientSecret });
    const result = await call(server, 'get_quotes', { symbols: ['EURUSD'] });
    expect(result).toMatchObject({ data: [{ symbol: 'EURUSD' }], unasked: [], warnings: [WITHHELD] });
    expect(minted[0]!.length).toBeGreaterThan(10);
    expect(JSON.stringify(server.lines())).not.toContain(minted[0]);
  });

  it('leaves a result that holds no credential as it was: no warnings member', async () => {
    const service = await servers.start((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(quotesJson([quote('EURUSD'), quote('GBPUSD')])));
    const server = await start(service, { MKT_TOKEN: 'tok-withheld-0123456789' });
    expect(await call(server, 'get_quotes', { symbols: ['EURUSD'] })).toEqual({ data: [quote('EURUSD')], missing: [], unasked: ['GBPUSD'], unusable: [] });
    expect(server.stderr()).toBe('');
  });

  it('never scans a price or a timestamp: a token that spells one leaves the data as sent', async () => {
    for (const token of ['1.08515', '2025']) {
      const service = await servers.start((req, res) => echoing(req, res, []));
      const server = await start(service, { MKT_TOKEN: token });
      const result = await call(server, 'get_quotes', { symbols: ['EURUSD'] });
      expect(result.data).toEqual([{ symbol: 'EURUSD', bid: '1.08505', ask: '1.08515', mid: '1.08510', timestamp: QUOTE_TIME }]);
      expect(result).toMatchObject({ unasked: [], warnings: [WITHHELD] });
    }
  });

  it('a service error that quotes the token: the tool error has it redacted', async () => {
    const token = 'tok-withheld-0123456789';
    const service = await servers.start((req, res) => res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 'UNAUTHORIZED', message: `token ${bearer(req)} is not valid` } })));
    const server = await start(service, { MKT_TOKEN: token });
    server.send({ id: 'err', method: 'tools/call', params: { name: 'get_quotes', arguments: { symbols: ['EURUSD'] } } });
    const { result } = await server.answer('err');
    expect(result).toMatchObject({ isError: true });
    expect(JSON.stringify(result)).toContain('token [redacted] is not valid');
    expect(JSON.stringify(server.lines()) + server.stderr()).not.toContain(token);
  });
});
