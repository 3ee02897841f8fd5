// mkt quotes in-process: against a scripted server for exact bytes and unusable responses, and
// against the sandbox handler (behind a request counter) for batching, completeness and formats.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxHandler } from '../../../src/sandbox/index.js';
import { runCli, tempDir, type TestDepsOptions } from '../../helpers/cli.js';
import { reply, startFaultServer, startScriptedServer, useServers, type FaultServer, type Responder } from '../../helpers/fault-server.js';

const NOW = Date.parse('2026-11-22T12:00:00.000Z');
const auth = (url: string) => ({ MKT_BASE_URL: url, MKT_TOKEN: 'test-token', MKT_ORG: 'org_demo' });

describe('quotes against the sandbox', () => {
  let server: FaultServer;
  let token: string;
  const clock = NOW;
  const handler = createSandboxHandler({ now: () => clock, synthetic: 300, limits: { perMinute: 1000 } });

  beforeAll(async () => {
    server = await startFaultServer((req, res) => handler(req, res), { passThrough: true });
    const login = await runCli(['token', '--print'], { env: { MKT_BASE_URL: server.url, MKT_CLIENT_ID: 'demo', MKT_CLIENT_SECRET: 'demo-secret' }, now: () => clock });
    token = login.stdout.trim();
    server.requests.length = 0;
  });
  afterAll(() => server.close());
  afterEach(() => {
    server.requests.length = 0;
  });

  const run = (argv: string[], options: TestDepsOptions = {}) =>
    runCli(['quotes', ...argv], { now: () => clock, ...options, env: { MKT_BASE_URL: server.url, MKT_TOKEN: token, MKT_ORG: 'org_demo', ...options.env } });

  it('writes TSV with a header when piped', async () => {
    const result = await run(['EURUSD', 'AAPL']);
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toBe('symbol\tbid\task\tmid\ttimestamp');
    expect(lines[1]).toMatch(/^EURUSD\t1\.\d{5}\t1\.\d{5}\t1\.\d{5,6}\t2026-11-22T1\d:\d\d:\d\d\.\d{3}Z$/);
    expect(lines[2]).toMatch(/^AAPL\t\d+\.\d{2}\t\d+\.\d{2}\t\d+\.\d{2,3}\t/);
    expect(result.stderr).toBe('');
  });

  it('draws a table on a terminal, with colour unless told otherwise', async () => {
    const tty = await run(['EURUSD'], { stdoutIsTTY: true });
    expect(tty.stdout).toMatch(/│ \S*Symbol\S* │/);
    expect(tty.stdout).toContain('\u001b[');
    for (const [env, args] of [[{ NO_COLOR: '1' }, []], [{ TERM: 'dumb' }, []], [{}, ['--no-color']]] as const) {
      const plain = await run(['EURUSD', ...args], { stdoutIsTTY: true, env });
      expect(plain.stdout).toContain(env.TERM === 'dumb' ? '| Symbol |' : '│ Symbol │'); // TERM=dumb: plain ASCII
      expect(plain.stdout).not.toContain('\u001b[');
    }
    const forced = await run(['EURUSD', '--format', 'table'], { env: { FORCE_COLOR: '1' } });
    expect(forced.stdout).toContain('\u001b[');
    const pipedTable = await run(['EURUSD', '--format', 'table']);
    expect(pipedTable.stdout).toContain('│ Symbol │');
    expect(pipedTable.stdout).not.toContain('\u001b[');
  });

  it('an explicit format always wins, and --json is --format json', async () => {
    const json = await run(['EURUSD', '--json'], { stdoutIsTTY: true });
    expect(JSON.parse(json.stdout)).toMatchObject({ data: [{ symbol: 'EURUSD' }], missing: [] });
    expect((await run(['EURUSD', '--format', 'csv'], { stdoutIsTTY: true })).stdout).toMatch(/^symbol,bid,ask,mid,timestamp\r\n/);
    expect((await run(['EURUSD', '--format', 'ndjson'])).stdout).toMatch(/^\{"symbol":"EURUSD","bid":1\.\d+,/);
    expect((await run(['EURUSD'], { env: { MKT_FORMAT: 'json' } })).stdout).toMatch(/^\{\n {2}"data"/);
    expect((await run(['EURUSD', '--json', '--format', 'csv'])).code).toBe(2);
    expect((await run(['EURUSD', '--format', 'xml'])).code).toBe(2);
  });

  it('takes symbols from arguments, --symbols, a file and stdin; normalised, in first-seen order', async () => {
    const file = path.join(tempDir(), 'symbols.txt');
    fs.writeFileSync(file, '# majors\nusdjpy, gbpusd\n\nMSFT # software\n');
    const result = await run(['eurusd', 'aapl,EURUSD', '--symbols', ' spy ,gbpusd', '--symbols-file', file, '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).data.map((quote: { symbol: string }) => quote.symbol)).toEqual(['EURUSD', 'AAPL', 'SPY', 'GBPUSD', 'USDJPY', 'MSFT']);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.url).toBe('/v1/market/quotes?symbols=EURUSD,AAPL,SPY,GBPUSD,USDJPY,MSFT');
    const fromStdin = await run(['--symbols-file', '-', '--json'], { stdin: 'aapl\nmsft\n' });
    expect(JSON.parse(fromStdin.stdout).data.map((quote: { symbol: string }) => quote.symbol)).toEqual(['AAPL', 'MSFT']);
  });

  it.each([
    ['no symbols at all', [], /no symbols given/],
    ['only separators', [',,,'], /no symbols given/],
    ['a symbol with a control character', ['EUR\u0007USD'], /invalid symbol: "EUR\\u0007USD"/],
    ['a symbol over 32 characters', ['A'.repeat(33)], /invalid symbol/],
    ['a missing symbols file', ['--symbols-file', '/nonexistent/x.txt'], /cannot read --symbols-file \/nonexistent\/x\.txt: no such file/],
    ['a bad --max-age', ['EURUSD', '--max-age', 'soon'], /--max-age must be a duration/],
    ['a bad --batch-size', ['EURUSD', '--batch-size', '0'], /--batch-size must be between 1/],
    ['an empty --venue', ['EURUSD', '--venue', ' '], /--venue must be 1 to 64 visible ASCII characters/],
  ])('%s: exit 2 and no request', async (_name, args, message) => {
    const result = await run(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe('');
    expect(server.requests).toHaveLength(0);
  });

  it('batches 250 symbols into 3 requests and keeps the order', async () => {
    const symbols = Array.from({ length: 250 }, (_, i) => `SYN${String(250 - i).padStart(5, '0')}`);
    const result = await run(['--symbols', symbols.join(','), '--json']);
    expect(result.code).toBe(0);
    const data = JSON.parse(result.stdout).data as Array<{ symbol: string }>;
    expect(data.map((quote) => quote.symbol)).toEqual(symbols);
    expect(server.requests).toHaveLength(3);
    expect(server.requests.map((request) => new URL(request.url, 'http://x').searchParams.get('symbols')!.split(',').length).sort()).toEqual([100, 100, 50]);
  });

  it('--batch-size and --concurrency shape the requests', async () => {
    const result = await run(['EURUSD', 'AAPL', 'MSFT', 'SPY', 'GBPUSD', '--batch-size', '2', '--concurrency', '1', '--json']);
    expect(result.code).toBe(0);
    expect(server.requests.map((request) => request.url)).toEqual([
      '/v1/market/quotes?symbols=EURUSD,AAPL', '/v1/market/quotes?symbols=MSFT,SPY', '/v1/market/quotes?symbols=GBPUSD',
    ]);
  });

  it('warns about missing symbols and exits 0, or 3 with --strict', async () => {
    const loose = await run(['EURUSD', 'NOPE1', 'NOPE2']);
    expect(loose.code).toBe(0);
    expect(loose.stderr).toBe('warning: no quote for 2 of 3 symbols: NOPE1, NOPE2\n');
    const json = await run(['EURUSD', 'NOPE1', '--json']);
    expect(JSON.parse(json.stdout).missing).toEqual(['NOPE1']);
    const strict = await run(['EURUSD', 'NOPE1', '--strict']);
    expect(strict.code).toBe(3);
    expect(strict.stdout).toContain('EURUSD');
    expect(strict.stderr).toContain('error: no quote for 1 of 2 symbols: NOPE1');
  });

  it('an empty answer is valid, unless --strict', async () => {
    expect((await run(['NOPE'])).code).toBe(0);
    expect((await run(['NOPE', '--json'])).stdout).toBe('{\n  "data": [],\n  "missing": [\n    "NOPE"\n  ]\n}\n');
    expect((await run(['NOPE', '--strict'])).code).toBe(3);
  });

  it('--max-age marks stale quotes by their timestamp, with the injected clock', async () => {
    const later = () => clock + 45_000;
    const fresh = await run(['EURUSD', '--max-age', '1m', '--json'], { now: later });
    expect(JSON.parse(fresh.stdout).stale).toEqual([]);
    const stale = await run(['EURUSD', 'AAPL', '--max-age', '30s', '--json'], { now: later });
    expect(stale.code).toBe(0);
    expect(JSON.parse(stale.stdout).stale).toEqual(['EURUSD', 'AAPL']);
    expect(stale.stderr).toBe('{"warning":{"code":"stale_quotes","message":"2 stale quotes (older than 30s): EURUSD, AAPL","hint":null}}\n');
    expect((await run(['EURUSD', 'AAPL', '--max-age', '30s', '--format', 'csv'], { now: later })).stderr).toBe('warning: 2 stale quotes (older than 30s): EURUSD, AAPL\n');
    expect((await run(['EURUSD', '--max-age', '30s', '--strict'], { now: later })).code).toBe(3);
    const table = await run(['EURUSD', '--max-age', '30s', '--format', 'table'], { now: later });
    expect(table.stdout).toMatch(/4\ds │ stale/);
  });

  it('--venue filters', async () => {
    const result = await run(['EURUSD', 'AAPL', '--venue', 'XNAS', '--json']);
    expect(result.code).toBe(0);
    expect(server.requests[0]!.url).toContain('&venue=XNAS');
    expect(JSON.parse(result.stdout).missing).toContain('EURUSD');
  });

  it.each([
    ['a 401', { MKT_TOKEN: 'wrong' }, 4, /not authenticated \(401/],
    ['a 403 for an organization', { MKT_ORG: 'org_other' }, 5, /forbidden \(403[^)]*\).*\n.*org_other/],
  ])('maps %s to its exit code', async (_name, env, code, message) => {
    const result = await run(['EURUSD'], { env });
    expect(result.code).toBe(code);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe('');
  });
});

describe('quotes against a scripted server', () => {
  const servers = useServers();
  let server: FaultServer | undefined;
  const run = async (respond: Responder, argv: string[] = ['EURUSD']) => {
    server = await servers.script(respond);
    return runCli(['quotes', ...argv, '--retries', '0'], { env: auth(server.url), now: () => NOW });
  };

  const precise = JSON.stringify({ data: [] }).replace('[]', '[{"symbol":"AAPL","bid":227.10,"ask":227.12,"mid":227.11,"timestamp":"2026-11-22T12:00:00Z"},'
    + '{"symbol":"EURUSD","bid":1.08415,"ask":1.084150000000000001,"mid":1.0841500000000000005,"timestamp":"2026-11-22T12:00:00.000Z"},'
    + '{"symbol":"TINY","bid":0.00000001,"ask":0.00000002,"mid":0.000000015,"timestamp":"2026-11-22T12:00:00.000Z"}]');

  it.each([
    ['json', /"bid": 227\.10,[\s\S]*"ask": 1\.084150000000000001,[\s\S]*"mid": 1\.0841500000000000005,[\s\S]*"bid": 0\.00000001,/],
    ['ndjson', /"bid":227\.10,.*\n.*"ask":1\.084150000000000001,"mid":1\.0841500000000000005.*\n.*"bid":0\.00000001,"ask":0\.00000002,"mid":0\.000000015/],
    ['csv', /AAPL,227\.10,227\.12,227\.11,.*\r\nEURUSD,1\.08415,1\.084150000000000001,1\.0841500000000000005,/],
    ['tsv', /AAPL\t227\.10\t227\.12\t227\.11\t.*\nEURUSD\t1\.08415\t1\.084150000000000001\t1\.0841500000000000005\t.*\nTINY\t0\.00000001\t/],
  ])('keeps every digit the service sent in %s', async (format, pattern) => {
    const result = await run(reply(200, precise), ['AAPL', 'EURUSD', 'TINY', '--format', format]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(pattern);
  });

  it('computes the spread exactly in the table', async () => {
    const body = '{"data":[{"symbol":"EURUSD","bid":1.08505,"ask":1.08507,"mid":1.08506,"timestamp":"2026-11-22T12:00:00Z"},'
      + '{"symbol":"X","bid":1.08415,"ask":1.084150000000000001,"mid":1.0841500000000000005,"timestamp":"2026-11-22T12:00:00Z"}]}';
    const result = await run(reply(200, body), ['EURUSD', 'X', '--format', 'table']);
    expect(result.stdout).toMatch(/│ EURUSD │ 1\.08505 +│ 1\.08507 +│ 1\.08506 +│ 0\.00002 +│/);
    expect(result.stdout).toContain('0.000000000000000001');
    expect(result.stdout).not.toMatch(/0\.0000199999/);
  });

  // Batches answered in the order asked are rendered as they arrive (earlyJson in the command);
  // any other answer is merged first. The output must not tell the two apart.
  it('writes the same JSON whether each batch comes back in the order asked or not', async () => {
    const answer = (reverse: boolean) => (seen: { url: string }, res: import('node:http').ServerResponse) => {
      const symbols = new URL(seen.url, 'http://x').searchParams.get('symbols')!.split(',');
      const data = symbols.map((symbol, i) => ({ symbol, bid: `1.${i}0`, ask: `1.${i}5`, mid: `1.${i}25`, timestamp: '2026-11-22T12:00:00.000Z' }));
      const text = JSON.stringify({ data: reverse ? data.reverse() : data }).replace(/"(bid|ask|mid)":"([^"]*)"/g, '"$1":$2');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(text);
    };
    const argv = ['A', 'B', 'C', 'D', 'E', '--batch-size', '2', '--json'];
    const inOrder = await run(answer(false), argv);
    await server?.close();
    const reversed = await run(answer(true), argv);
    expect(inOrder.code).toBe(0);
    expect(reversed.stdout).toBe(inOrder.stdout);
    expect(JSON.parse(inOrder.stdout).data.map((quote: { symbol: string; bid: number }) => quote.symbol)).toEqual(['A', 'B', 'C', 'D', 'E']);
    expect(inOrder.stdout).toContain('"symbol": "B",\n      "bid": 1.10,');
  });

  it('tolerates extra fields, unrequested symbols and numeric strings', async () => {
    const body = '{"data":[{"symbol":"EURUSD","bid":"1.08505","ask":"1.08507","mid":"1.08506","timestamp":"2026-11-22T12:00:00Z","venue":"EBS"},'
      + '{"symbol":"GBPUSD","bid":1.25,"ask":1.26,"mid":1.255,"timestamp":"2026-11-22T12:00:00Z"}],"meta":{"x":1}}';
    const result = await run(reply(200, body), ['EURUSD', '--json']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('"bid": 1.08505,');
    // GBPUSD was not asked for: left out, and said on stderr, as the watch does.
    expect(JSON.parse(result.stdout).data.map((quote: { symbol: string }) => quote.symbol)).toEqual(['EURUSD']);
    expect(result.stderr).toBe('{"warning":{"code":"unasked_quotes","message":"the service sent quotes for symbols not asked for (GBPUSD); they are left out","hint":null}}\n');
  });

  it.each([
    ['an HTML page with 200', reply(200, '<html><body>Proxy error</body></html>', { 'content-type': 'text/html' }), /returned an HTML page/],
    ['JSON without data', reply(200, '{"quotes":[]}'), /without a "data" field/],
    ['data that is not an array', reply(200, '{"data":{"EURUSD":1}}'), /"data" field that is not an array/],
    ['a quote missing fields', reply(200, '{"data":[{"symbol":"EURUSD","bid":1.1}]}'), /\(EURUSD\) without ask/],
    ['a price that is not numeric', reply(200, '{"data":[{"symbol":"EURUSD","bid":"n/a","ask":1,"mid":1,"timestamp":"2026-11-22T12:00:00Z"}]}'), /bid that is not a number \("n\/a"\)/],
    ['a timestamp that is not ISO 8601', reply(200, '{"data":[{"symbol":"EURUSD","bid":1,"ask":1,"mid":1,"timestamp":"22/11/2026"}]}'), /not ISO 8601/],
    ['an empty 200 body', reply(200, ''), /empty body/],
    ['a body cut off mid-way', reply(200, '{"data":[{"symbol":"EURUSD","bid":1.08'), /not valid JSON/],
    ['a 404 (wrong base URL)', reply(404, 'Not Found', { 'content-type': 'text/plain' }), /failed with 404 Not Found: Not Found/],
  ])('refuses %s: exit 1, a clear error, nothing on stdout', async (_name, respond, message) => {
    const result = await run(respond);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it.each([
    [400, '{"error":{"code":"INVALID_REQUEST","message":"symbols is required"}}', 2, /400 INVALID_REQUEST\): symbols is required/],
    [401, '{"error":"invalid_token","error_description":"token expired"}', 4, /401 invalid_token\): token expired/],
    [403, '{"code":"FORBIDDEN","message":"no market.read"}', 5, /403 FORBIDDEN\): no market\.read/],
    [429, '{"error":{"code":"RATE_LIMITED","message":"Too many market data requests"}}', 6, /rate limited \(429 RATE_LIMITED\)/],
    [503, 'upstream down', 7, /503 Service Unavailable.*upstream down/],
  ])('maps a %i to its exit code, reading the error body tolerantly', async (status, body, code, message) => {
    const result = await run(reply(status, body));
    expect(result.code).toBe(code);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe('');
  });

  it('one failed batch fails the command: no partial output', async () => {
    let calls = 0;
    const result = await run((request, res) => {
      calls++;
      if (request.url.includes('SPY')) return reply(503, 'down')(request, res, undefined as never);
      reply(200, '{"data":[]}')(request, res, undefined as never);
    }, ['EURUSD', 'AAPL', 'SPY', '--batch-size', '1', '--concurrency', '1']);
    expect(result.code).toBe(7);
    expect(result.stdout).toBe('');
    expect(calls).toBe(3);
  });

  it('sends the bearer token and the organization header', async () => {
    await run(reply(200, '{"data":[]}'), ['EURUSD', '--venue', 'EBS']);
    expect(server!.requests[0]!.headers).toMatchObject({ authorization: 'Bearer test-token', 'x-organization-id': 'org_demo' });
    expect(server!.requests[0]!.url).toBe('/v1/market/quotes?symbols=EURUSD&venue=EBS');
  });
});

describe('service text in error messages', () => {
  it('cannot drive the terminal', async () => {
    const server = await startScriptedServer(reply(403, '{"error":{"code":"FORBIDDEN","message":"no \\u001b]0;owned\\u0007access\\u001b[2J"}}'));
    try {
      const result = await runCli(['quotes', 'EURUSD'], { env: auth(server.url) });
      expect(result.code).toBe(5);
      expect(result.stderr).toContain('no ]0;ownedaccess[2J');
      expect(result.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
    } finally {
      await server.close();
    }
  });
});
