// `mkt mcp` spoken to in raw JSON-RPC lines, in-process: each malformed message gets the JSON-RPC
// 2.0 error for it (-32700 with id null for a line that is not JSON; -32600 for what is no request,
// with the id when it is a good one; -32602 for bad params), a malformed notification or response
// gets none (a line on stderr), batches are answered as the negotiated protocol version says, a
// message over 10 MiB is answered -32600 and dropped, and after each the server answers the next
// message. The SDK's own transport answered none of these: the client waited until it timed out.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/cli.js';
import { useServers } from '../../helpers/fault-server.js';
import { startLines, type Answer, type McpLines } from './mcp-lines.js';

const env = () => ({ MKT_CONFIG_DIR: path.join(tempDir(), 'cfg'), MKT_BASE_URL: 'http://127.0.0.1:9', MKT_TOKEN: 'tok-malformed-0123456789', MKT_ORG: 'org_demo' });
const servers = useServers();
const open: McpLines[] = [];
afterEach(async () => {
  for (const server of open.splice(0)) await server.end();
});

async function start(protocolVersion?: string): Promise<McpLines> {
  const server = await startLines(env(), protocolVersion);
  open.push(server);
  return server;
}

/** The server still answers: a ping, by an id no other message of the test uses. */
async function stillServes(server: McpLines): Promise<void> {
  server.send({ id: 'still', method: 'ping' });
  expect((await server.answer('still')).result).toEqual({});
}

const request = (id: unknown, method: string, params?: unknown) => JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });

describe('each malformed message gets the JSON-RPC 2.0 error for it, and the server goes on', () => {
  it.each<[string, string, number | string | null, number, RegExp]>([
    ['a line that is not JSON', 'this is not json', null, -32700, /^Parse error: /],
    ['JSON cut off', '{"jsonrpc":"2.0","id":1,"method":"ping"', null, -32700, /^Parse error: /],
    ['a number', '42', null, -32600, /^Invalid Request: a message is a JSON object, not the number 42$/],
    ['null', 'null', null, -32600, /^Invalid Request: a message is a JSON object, not null$/],
    ['an id that is an object', request({}, 'ping'), null, -32600, /^Invalid Request: id must be a string or an integer of at most 2\^53, not an object$/],
    ['an id that is null', request(null, 'ping'), null, -32600, /id must be a string or an integer .*, not null$/],
    ['an id with a fraction', request(1.5, 'ping'), null, -32600, /not the number 1\.5$/],
    ['an id that is true', request(true, 'ping'), null, -32600, /not a boolean$/],
    ['an id past 2^53', '{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}', null, -32600, /not the number 9007199254740992$/],
    ['jsonrpc "1.0"', JSON.stringify({ jsonrpc: '1.0', id: 6, method: 'ping' }), 6, -32600, /^Invalid Request: jsonrpc must be "2\.0"$/],
    ['no jsonrpc', JSON.stringify({ id: 7, method: 'ping' }), 7, -32600, /jsonrpc must be "2\.0"/],
    ['a method that is a number', JSON.stringify({ jsonrpc: '2.0', id: 8, method: 5 }), 8, -32600, /^Invalid Request: method must be a string, not the number 5$/],
    ['a member JSON-RPC has not', JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping', extra: 1 }), 9, -32600, /^Invalid Request: a JSON-RPC message has no member "extra"$/],
    ['neither a method nor a result', JSON.stringify({ jsonrpc: '2.0', id: 10 }), 10, -32600, /a message has a method .*, or a result or an error/],
    ['a method and a result', JSON.stringify({ jsonrpc: '2.0', id: 'both', method: 'ping', result: {} }), 'both', -32600, /never both/],
    ['params that are an array', request(11, 'tools/list', [1]), 11, -32602, /^Invalid params: params must be an object, not an array$/],
    ['a progress token that is an object', request(12, 'tools/call', { name: 'auth_status', arguments: {}, _meta: { progressToken: {} } }), 12, -32602, /^Invalid params: params\._meta\.progressToken: expected a string or a number$/],
    ['a progress token with a fraction', request(13, 'tools/call', { name: 'auth_status', arguments: {}, _meta: { progressToken: 1.5 } }), 13, -32602, /params\._meta\.progressToken: expected a string or an integer$/],
    ['a tool name that is a number', request(14, 'tools/call', { name: 5 }), 14, -32602, /^Invalid params: params\.name: expected string, received number$/],
    ['initialize without its params', request(15, 'initialize', {}), 15, -32602, /^Invalid params: params\.protocolVersion: expected string, received undefined; /],
    // JSON.parse reads 100.000000000000001 as 100: a quantity would be valued as one it is not.
    ['a quantity written with a fraction a double loses',
      '{"jsonrpc":"2.0","id":18,"method":"tools/call","params":{"name":"value_portfolio","arguments":{"positions":[{"symbol":"AAPL","quantity":100.000000000000001,"currency":"USD"}],"base":"USD"}}}',
      18, -32602, /^Invalid params: the number 100\.000000000000001 reads as the double 100, its fraction lost: give it as a decimal string \("100\.000000000000001"\)$/],
    ['a number past every bound, read as 0', '{"jsonrpc":"2.0","id":19,"method":"ping","params":{"_meta":{"at":1e-400}}}', 19, -32602, /the number 1e-400 reads as the double 0/],
    // The SDK's own answer, which this leaves to it.
    ['a method this server does not serve', request(17, 'resources/list', { cursor: 5 }), 17, -32601, /^Method not found$/],
  ])('%s', async (_name, line, id, code, message) => {
    const server = await start();
    const before = server.lines().length;
    server.send(line);
    const answer = await server.answer(id);
    expect(answer).toMatchObject({ jsonrpc: '2.0', id, error: { code } });
    expect(answer.error!.message).toMatch(message);
    expect(server.lines()).toHaveLength(before + 1);
    await stillServes(server);
    // One line on stderr for what mkt refused, never a schema's dump; none for the SDK's own answers.
    expect(server.stderr()).not.toContain('"code": "invalid_');
    expect(server.stderr()).toBe(code === -32601 ? '' : `warning: mkt mcp: ${answer.error!.message}\n`);
  });

  it('reads such digits in a string as text, and whole numbers written with a point or an exponent as the numbers they are', async () => {
    const server = await start();
    server.send('{"jsonrpc":"2.0","id":"text","method":"tools/call","params":{"name":"auth_status","arguments":{},"_meta":{"note":"100.000000000000001 \\" 1e-400"}}}');
    expect((await server.answer('text')).error).toBeUndefined();
    server.send('{"jsonrpc":"2.0","id":"whole","method":"ping","params":{"_meta":{"a":100.000,"b":1.5e1,"c":-0.0}}}');
    expect((await server.answer('whole')).result).toEqual({});
  });

  it('says a position without a quantity needs one, not that a double may have lost its digits', async () => {
    const server = await start();
    server.send({ id: 'noqty', method: 'tools/call', params: { name: 'value_portfolio', arguments: { positions: [{ symbol: 'AAPL', currency: 'USD' }], base: 'USD' } } });
    const answer = await server.answer('noqty');
    const said = JSON.stringify(answer);
    expect(said).toContain('required: a decimal string, such as \\"10.5\\"');
    expect(said).not.toContain('lost digits');
  });

  it('answers no malformed notification or response (JSON-RPC answers neither), and says each on stderr', async () => {
    const server = await start();
    const before = server.lines().length;
    server.send({ method: 'notifications/cancelled', params: { requestId: {} } });
    server.send({ method: 'notifications/progress', params: { progressToken: 1, progress: 'half' } });
    server.send({ id: 99, error: { message: 'the client could not read it' } });
    server.send({ method: 'notifications/nosuch' });
    await stillServes(server);
    expect(server.lines()).toHaveLength(before + 1);
    expect(server.stderr()).toBe([
      'warning: mkt mcp: a notification "notifications/cancelled" with bad params (params.requestId: expected a string or a number); it was dropped',
      'warning: mkt mcp: a notification "notifications/progress" with bad params (params.progress: expected number, received string); it was dropped',
      'warning: mkt mcp: a response from the client that is not one (error.code: expected number, received undefined): "the client could not read it"; it was dropped',
      '',
    ].join('\n'));
  });

  it('says on stderr what it refused without the control characters of the line it quotes', async () => {
    const server = await start();
    server.send('\u001b]0;pwned\u0007 not json');
    expect((await server.answer(null)).error!.message).toMatch(/^Parse error: .*\u001b\]0;pwned/);
    expect(server.stderr()).toMatch(/^warning: mkt mcp: Parse error: .*]0;pwned not json/);
    expect(server.stderr()).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
  });

  it('skips blank lines, and reads a line that ends in CRLF', async () => {
    const server = await start();
    const before = server.lines().length;
    server.write(`\n  \r\n${request(20, 'ping')}\r\n`);
    expect((await server.answer(20)).result).toEqual({});
    expect(server.lines()).toHaveLength(before + 1);
    expect(server.stderr()).toBe('');
  });

  it('reads a message that comes a byte at a time, and two in one write', async () => {
    const server = await start();
    for (const byte of Buffer.from(`${request(21, 'ping')}\n`)) server.write(Buffer.from([byte]));
    server.write(`${request(22, 'ping')}\n${request(23, 'ping')}\n`);
    for (const id of [21, 22, 23]) expect((await server.answer(id)).result).toEqual({});
  });
});

describe('batches, as the negotiated protocol version says', () => {
  const batch = [{ jsonrpc: '2.0', id: 1, method: 'ping' }, { jsonrpc: '2.0', method: 'notifications/initialized' }, { jsonrpc: '2.0', id: 2, method: 'tools/list' }];

  it.each(['2024-11-05', '2025-06-18', '2025-11-25'])('%s has no batches: each request in one is answered -32600, and none of it runs', async (version) => {
    const server = await start(version);
    const before = server.lines().length;
    server.send(JSON.stringify(batch));
    const why = `Invalid Request: MCP ${version} has no batches (only 2025-03-26 had them): send each message on a line of its own`;
    expect(await server.answer(1)).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32600, message: why } });
    expect(await server.answer(2)).toEqual({ jsonrpc: '2.0', id: 2, error: { code: -32600, message: why } });
    // A batch of notifications only, once, with id null.
    server.send(JSON.stringify([{ jsonrpc: '2.0', method: 'notifications/initialized' }]));
    expect(await server.answer(null)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: why } });
    await stillServes(server);
    expect(server.lines()).toHaveLength(before + 4);
  });

  it('refuses a batch before initialize: initialize comes alone', async () => {
    const server = await start('');
    server.send(JSON.stringify(batch));
    expect((await server.answer(1)).error).toEqual({ code: -32600, message: 'Invalid Request: a batch before initialize: initialize comes alone, and only MCP 2025-03-26 has batches' });
  });

  it('2025-03-26: runs a batch and answers it with one array, in its order, an error for each member that is no request', async () => {
    const server = await start('2025-03-26');
    const before = server.lines().length;
    server.send(JSON.stringify([
      ...batch,
      { foo: 1 },
      { jsonrpc: '2.0', id: 3, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } },
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'get_quotes', arguments: { symbols: ['=1+1'] } } },
    ]));
    const answers = await server.next(before) as Answer[];
    expect(Array.isArray(answers)).toBe(true);
    expect(answers.map((answer) => [answer.id, answer.error?.code ?? 'result'])).toEqual([[1, 'result'], [2, 'result'], [null, -32600], [3, -32600], [1, -32600], [4, 'result']]);
    expect(answers[1]!.result!.tools).toHaveLength(4);
    expect(answers[3]!.error!.message).toBe('Invalid Request: initialize is never part of a batch');
    expect(answers[4]!.error!.message).toBe('Invalid Request: the id 1 is already in use by a request under way');
    expect(answers[5]!.result).toMatchObject({ isError: true });
    await stillServes(server);
    expect(server.lines()).toHaveLength(before + 2);
  });

  it('2025-03-26: a batched request with a number whose fraction a double loses is refused alone, the rest run', async () => {
    const server = await start('2025-03-26');
    const before = server.lines().length;
    // Written by hand: JSON.stringify would write the double, 100.
    server.send(`[${[
      '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"note":"100.000000000000001, [1.5] {\\"x\\":2}"}}}',
      '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"value_portfolio","arguments":{"positions":[{"symbol":"AAPL","quantity":100.000000000000001,"currency":"USD"}],"base":"USD"}}}',
      '{"jsonrpc":"2.0","method":"notifications/initialized"}',
      '{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"_meta":{"at":[1.5,{"n":2.25}]}}}',
    ].join(' , ')}]`);
    const answers = await server.next(before) as Answer[];
    expect(answers.map((answer) => [answer.id, answer.error?.code ?? 'result'])).toEqual([[1, 'result'], [2, -32602], [3, 'result']]);
    expect(answers[1]!.error!.message).toBe('Invalid params: the number 100.000000000000001 reads as the double 100, its fraction lost: give it as a decimal string ("100.000000000000001")');
    await stillServes(server);
  });

  it('2025-03-26: answers a batch of notifications with nothing, and an empty one with one error', async () => {
    const server = await start('2025-03-26');
    const before = server.lines().length;
    server.send(JSON.stringify([{ jsonrpc: '2.0', method: 'notifications/initialized' }]));
    server.send('[]');
    expect(await server.answer(null)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: an empty batch' } });
    await stillServes(server);
    expect(server.lines()).toHaveLength(before + 2);
  });

  it('2025-03-26: a batched call the client cancels is left out of the batch\'s answer', async () => {
    const service = await servers.start(() => {});
    const server = await startLines({ ...env(), MKT_BASE_URL: service.url }, '2025-03-26');
    open.push(server);
    const before = server.lines().length;
    server.send(JSON.stringify([
      { jsonrpc: '2.0', id: 'quotes', method: 'tools/call', params: { name: 'get_quotes', arguments: { symbols: ['EURUSD'] } } },
      { jsonrpc: '2.0', id: 'ping', method: 'ping' },
    ]));
    await service.waitForRequests(1);
    expect(server.lines()).toHaveLength(before);
    server.send({ method: 'notifications/cancelled', params: { requestId: 'quotes', reason: 'the user gave up' } });
    expect(await server.next(before)).toEqual([{ jsonrpc: '2.0', id: 'ping', result: {} }]);
  });
});

describe('a message over 10 MiB is answered with an error, dropped, and the server serves the next', () => {
  const filler = 'x'.repeat(11 * 1024 * 1024);
  it.each<[string, string, number | string | null]>([
    ['its id last, as the SDK\'s client writes it', `{"method":"tools/call","params":{"name":"get_quotes","arguments":{"symbols":["${filler}"]}},"jsonrpc":"2.0","id":7}`, 7],
    ['its id first', `{"jsonrpc":"2.0","id":"big \\"one\\"","method":"tools/call","params":{"name":"get_quotes","arguments":{"symbols":["${filler}"]}}}`, 'big "one"'],
    ['an "id" deeper in it, and in its text, but none of its own', `{"jsonrpc":"2.0","method":"tools/call","params":{"id":5,"arguments":{"symbols":["\\"id\\":6,${filler}"]}}}`, null],
    ['an id that is an object', `{"jsonrpc":"2.0","id":{"n":1},"method":"x","params":{"a":"${filler}"}}`, null],
    ['a batch', `[{"jsonrpc":"2.0","id":8,"method":"x","params":{"a":"${filler}"}}]`, null],
  ])('%s', async (_name, line, id) => {
    const server = await start();
    const before = server.lines().length;
    // As a pipe delivers it: 64 KiB at a time.
    const bytes = Buffer.from(`${line}\n`);
    for (let at = 0; at < bytes.length; at += 65_536) server.write(bytes.subarray(at, at + 65_536));
    const answer = await server.answer(id);
    expect(answer).toEqual({
      jsonrpc: '2.0', id,
      error: { code: -32600, message: `Invalid Request: the message is ${(bytes.length - 1).toLocaleString('en-US')} bytes, over the 10 MiB mkt mcp reads in one; it was dropped unread` },
    });
    await stillServes(server);
    expect(server.lines()).toHaveLength(before + 2);
    expect(server.stderr()).toBe(`warning: mkt mcp: ${answer.error!.message}\n`);
  });

  it('reads a message of just under 10 MiB as any other', async () => {
    const server = await start();
    const symbol = 'y'.repeat(10 * 1024 * 1024 - 200);
    server.send(request(30, 'tools/call', { name: 'get_quotes', arguments: { symbols: [symbol] } }));
    const answer = await server.answer(30);
    expect(answer.result).toMatchObject({ isError: true });
    expect(JSON.stringify(answer.result)).toContain('invalid symbol');
  });
});
