// `mkt mcp` against a purpose-built server, through the SDK's own client, one server process for
// the file: prices with more digits than a double holds come back as the exact strings sent, and
// checks and values are decided on them; 401, 403, 429 and a failed connection are isError results
// in mkt quotes' words, and the server answers the next call after each; so it does after a call over
// 10 MiB and a request with a bad progress token, which the SDK's client sends as they are and mkt
// refuses at once (-32600, -32602) instead of ending (over 10 MiB) or leaving the client to time out.
import path from 'node:path';
import type { ServerResponse } from 'node:http';
import { CallToolResultSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/cli.js';
import { startFaultServer, type FaultServer } from '../../helpers/fault-server.js';
import { quote, quotesJson } from '../../helpers/quotes.js';
import { errorJson, errorText, startMcp, structured, type McpProcess } from '../../helpers/mcp-process.js';

const TOKEN = 'tok-mcp-exact-0123456789';
/** What the service sends, as literals: a double holds none of EURUSD's prices exactly. */
const SENT = [
  quote('EURUSD', '1.084150000000000001', '1.084170000000000003', '1.084160000000000002'),
  quote('TINY', '0.29', '0.31', '0.30'),
  quote('ELEVEN', '1.0', '1.2', '1.1'),
];

type Mode = 'quotes' | '401' | '403' | '429' | '429-once' | 'reset' | 'hang';
/** Set when a request the service left unanswered ('hang') has its connection closed. */
let hangClosed = false;
let mode: Mode = 'quotes';
let service: FaultServer;
let server: McpProcess;

const error = (res: ServerResponse, status: number, code: string, message: string, headers: Record<string, string> = {}) =>
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify({ error: { code, message } }));

beforeAll(async () => {
  service = await startFaultServer((req, res, context) => {
    const asked = new URL(req.url ?? '/', 'http://x').searchParams.get('symbols')?.split(',') ?? [];
    switch (mode) {
      case '401': return error(res, 401, 'UNAUTHORIZED', 'invalid or expired token');
      case '403': return error(res, 403, 'FORBIDDEN', 'missing scope market.read');
      case '429': return error(res, 429, 'RATE_LIMITED', 'rate limit exceeded', { 'retry-after': '120' });
      case '429-once':
        if (context.index === firstOfMode) return error(res, 429, 'RATE_LIMITED', 'rate limit exceeded', { 'retry-after': '0' });
        break;
      case 'reset': return res.socket?.destroy();
      case 'hang': return context.onClose(() => (hangClosed = true));
      default: break;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(quotesJson(SENT.filter((sent) => asked.includes(sent.symbol))));
  });
  // One retry: a failed connection is retried once, after a backoff of at most half a second.
  server = await startMcp({ MKT_BASE_URL: service.url, MKT_TOKEN: TOKEN, MKT_ORG: 'org_exact', MKT_CONFIG_DIR: path.join(tempDir(), 'cfg'), MKT_RETRIES: '1' });
});

afterAll(async () => {
  await server?.close();
  await service?.close();
});

/** The index of the first request the service sees in the current mode. */
let firstOfMode = 0;
const serve = (next: Mode) => {
  mode = next;
  firstOfMode = service.requests.length;
};
beforeEach(() => serve('quotes'));

describe('exact digits', () => {
  it('gives each price as the exact string the service sent, in the structured content and the text', async () => {
    const result = await server.call('get_quotes', { symbols: ['EURUSD'] });
    const { data } = structured<{ data: Array<Record<string, string>> }>(result);
    expect(data[0]).toEqual({ symbol: 'EURUSD', bid: '1.084150000000000001', ask: '1.084170000000000003', mid: '1.084160000000000002', timestamp: SENT[0]!.timestamp });
    const text = result.content[0]!.type === 'text' ? result.content[0]!.text : '';
    expect(text).toContain('"bid":"1.084150000000000001"');
  });

  it('decides checks on those digits, where a double would decide them wrongly', async () => {
    // As doubles, 1.084150000000000001 and 1.0841500000000000009 are the same number, and the
    // spread 1.084170000000000003 - 1.084150000000000001 is 0.000020000000000000018.
    expect(Number('1.084150000000000001') > Number('1.0841500000000000009')).toBe(false);
    const result = structured<{ held: boolean; checks: Array<{ held: boolean; results: Array<{ actual: string }> }> }>(await server.call('check_quotes', {
      symbols: ['EURUSD'], checks: ['EURUSD.bid > 1.0841500000000000009', 'spread <= 0.000020000000000002', 'spread == 0.000020000000000002'],
    }));
    expect(result.held).toBe(true);
    expect(result.checks.map((check) => check.results[0]!.actual)).toEqual(['1.084150000000000001', '0.000020000000000002', '0.000020000000000002']);
  });

  it('values 0.1 at 0.30 as 0.030 and 1.1 at 1.1 as 1.21, their sum 1.240, where doubles lose digits or add some', async () => {
    expect(String(0.1 * 0.3)).toBe('0.03');
    expect(1.1 * 1.1).toBe(1.2100000000000002);
    const valuation = structured<{ positions: Array<{ value: string }>; total_base: string }>(await server.call('value_portfolio', {
      base: 'USD', currency: 'USD', positions: [{ symbol: 'TINY', quantity: '0.1' }, { symbol: 'ELEVEN', quantity: '1.1' }],
    }));
    expect(valuation.positions.map((position) => position.value)).toEqual(['0.030', '1.21']);
    expect(valuation.total_base).toBe('1.240');
  });

  it('refuses a malformed check before any request', async () => {
    const before = service.requests.length;
    expect(errorText(await server.call('check_quotes', { symbols: ['EURUSD'], checks: ['EURUSD.bid = 1'] }))).toContain('did you mean ==?');
    expect(service.requests.length).toBe(before);
  });
});

describe('the service refusing, and the network failing', () => {
  it.each<[string, Mode, { code?: string; exit_code: number; status: number | null }, string[]]>([
    ['401', '401', { code: 'UNAUTHORIZED', exit_code: 4, status: 401 }, ['MKT_TOKEN in the server\'s env overrides any stored token, and the service refused it']],
    ['403', '403', { code: 'FORBIDDEN', exit_code: 5, status: 403 }, ['market.read scope or access to the organization org_exact (from MKT_ORG in the server\'s env)']],
    ['a failed connection', 'reset', { exit_code: 7, status: null }, ['GET', '/v1/market/quotes']],
  ])('%s is an error result in mkt quotes\' words, and the next call is answered', async (_name, next, facts, words) => {
    serve(next);
    const result = await server.call('get_quotes', { symbols: ['EURUSD'] });
    for (const word of words) expect(errorText(result)).toContain(word);
    expect(errorJson(result)).toMatchObject(facts);
    expect(errorText(result)).not.toContain(TOKEN);
    serve('quotes');
    expect(structured<{ data: unknown[] }>(await server.call('get_quotes', { symbols: ['EURUSD'] })).data).toHaveLength(1);
  });

  it('a 429 asking for more than --max-wait is answered at once, with the wait it would need', async () => {
    serve('429');
    const result = await server.call('get_quotes', { symbols: ['EURUSD'] });
    expect(errorText(result)).toContain('error: rate limited (429 RATE_LIMITED) after 1 attempt; the service asks to wait 2m, longer than --max-wait 45s');
    expect(errorText(result)).toMatch(/hint: call again after \d\d:\d\d:\d\d UTC \(in 2m\)/);
    expect(errorJson(result)).toMatchObject({ code: 'RATE_LIMITED', exit_code: 6, status: 429, retry_after_ms: 120_000 });
    expect(service.requests.length - firstOfMode).toBe(1);
  });

  it('a 429 asking for a wait within --max-wait is waited for, and the call answered', async () => {
    serve('429-once');
    expect(structured<{ data: unknown[] }>(await server.call('get_quotes', { symbols: ['EURUSD'] })).data).toHaveLength(1);
    expect(service.requests.length - firstOfMode).toBe(2);
  });

  it('a call the client cancels is aborted, its connection closed, and the next call answered', async () => {
    serve('hang');
    hangClosed = false;
    const cancel = new AbortController();
    const call = server.client.callTool({ name: 'get_quotes', arguments: { symbols: ['EURUSD'] } }, undefined, { signal: cancel.signal });
    await service.waitForRequests(firstOfMode + 1);
    cancel.abort();
    await expect(call).rejects.toThrow();
    await expect.poll(() => hangClosed, { timeout: 5_000 }).toBe(true);
    serve('quotes');
    expect(structured<{ data: unknown[] }>(await server.call('get_quotes', { symbols: ['EURUSD'] })).data).toHaveLength(1);
  });
});

describe('messages the server refuses, from the SDK\'s own client', () => {
  const refusal = async (call: Promise<unknown>) => call.then(() => undefined, (error: unknown) => error);

  it('a call over 10 MiB fails at once with -32600, and the next call is answered', async () => {
    const before = service.requests.length;
    const error = await refusal(server.client.callTool({ name: 'get_quotes', arguments: { symbols: ['X'.repeat(11 * 1024 * 1024)] } }, undefined, { timeout: 20_000 }));
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({ code: -32600, message: expect.stringMatching(/over the 10 MiB mkt mcp reads in one; it was dropped unread$/) });
    expect(service.requests.length).toBe(before);
    expect(structured<{ data: unknown[] }>(await server.call('get_quotes', { symbols: ['EURUSD'] })).data).toHaveLength(1);
  });

  it('a call whose progress token is an object fails at once with -32602, and the next call is answered', async () => {
    const error = await refusal(server.client.request(
      { method: 'tools/call', params: { name: 'get_quotes', arguments: { symbols: ['EURUSD'] }, _meta: { progressToken: {} as never } } }, CallToolResultSchema, { timeout: 5_000 },
    ));
    expect(error).toMatchObject({ code: -32602, message: 'MCP error -32602: Invalid params: params._meta.progressToken: expected a string or a number' });
    expect(structured<{ data: unknown[] }>(await server.call('get_quotes', { symbols: ['EURUSD'] })).data).toHaveLength(1);
  });
});
