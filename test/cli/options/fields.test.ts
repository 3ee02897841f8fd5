// --fields: the fields to write, in order, in every format, on the board and in the watch's stream,
// against the sandbox. JSON and NDJSON objects hold exactly those keys, CSV and TSV headers and the
// table's columns follow them, every digit as served; an unknown field is exit 2 naming the valid
// ones; completion offers them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Quote } from '../../../src/api/types.js';
import { complete } from '../../../src/cli/completion/complete.js';
import { createProgram } from '../../../src/cli/program.js';
import { renderBoard } from '../../../src/render/board.js';
import { createChangeTracker } from '../../../src/render/changes.js';
import { createTestDeps, runCli } from '../../helpers/cli.js';
import { cliLogin, getQuotes, startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';

let sandbox: TestSandbox;
let token: string;
/** EURUSD and AAPL as served: each quote's fields as text, digit for digit. */
let served: Quote[];

beforeAll(async () => {
  sandbox = await startTestSandbox();
  token = await cliLogin(sandbox.url);
  const { text } = await getQuotes(sandbox.url, token, 'symbols=EURUSD,AAPL');
  served = [...text.matchAll(/\{"symbol":"(\w+)","bid":([^,]+),"ask":([^,]+),"mid":([^,]+),"timestamp":"([^"]+)"\}/g)]
    .map(([, symbol, bid, ask, mid, timestamp]) => ({ symbol: symbol!, bid: bid!, ask: ask!, mid: mid!, timestamp: timestamp! }));
});
afterAll(() => sandbox.close());

const quotes = (args: string[], options: { tty?: boolean } = {}) => runCli(['quotes', 'EURUSD', 'AAPL', ...args], {
  now: sandbox.clock.now, stdoutIsTTY: options.tty, sleep: async (ms) => sandbox.clock.advance(ms),
  env: { MKT_BASE_URL: sandbox.url, MKT_TOKEN: token, MKT_ORG: 'org_demo', NO_COLOR: '1' },
});

describe('--fields', () => {
  it('json: exactly those keys, in that order, the prices as served', async () => {
    const result = await quotes(['--json', '--fields', 'ask,symbol']);
    expect(result.code).toBe(0);
    const objects = [...result.stdout.matchAll(/\{\n\s+"ask": ([^,]+),\n\s+"symbol": "(\w+)"\n\s+\}/g)];
    expect(objects.map(([, ask, symbol]) => ({ ask, symbol }))).toEqual(served.map(({ ask, symbol }) => ({ ask, symbol })));
    expect(Object.keys(JSON.parse(result.stdout).data[0])).toEqual(['ask', 'symbol']);
  });

  it('ndjson: a line per quote with exactly those keys', async () => {
    const result = await quotes(['--format', 'ndjson', '--fields', 'symbol,bid,timestamp']);
    expect(result.stdout).toBe(served.map((q) => `{"symbol":"${q.symbol}","bid":${q.bid},"timestamp":"${q.timestamp}"}\n`).join(''));
  });

  it.each([
    ['csv', ',', '\r\n'],
    ['tsv', '\t', '\n'],
  ])('%s: the header and the columns follow', async (format, separator, end) => {
    const result = await quotes(['--format', format, '--fields', ' MID , symbol ']);
    expect(result.stdout).toBe(`mid${separator}symbol${end}${served.map((q) => `${q.mid}${separator}${q.symbol}${end}`).join('')}`);
  });

  it('the table: the columns in that order, derived ones allowed', async () => {
    const result = await quotes(['--format', 'table', '--fields', 'symbol,spread,ask,age']);
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')[1]!.split('│').map((cell) => cell.trim()).filter(Boolean)).toEqual(['Symbol', 'Spread', 'Ask', 'Age']);
  });

  it('the watch in a pipe streams those fields', async () => {
    const result = await quotes(['--watch', '--count', '2', '--fields', 'symbol,ask']);
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split('\n').map((line) => Object.keys(JSON.parse(line)))).toEqual(Array(4).fill(['symbol', 'ask']));
  });

  it('the board shows those columns', () => {
    const data = served;
    const view = {
      data, changes: createChangeTracker().update(data), history: data.map((q) => [q.mid]), missing: [],
      status: { polls: 1, updatedAt: sandbox.clock.now(), intervalMs: 2000, rateLimit: undefined, throttledUntil: undefined, problem: undefined },
    };
    const lines = renderBoard(view, { color: false, columns: 100, rows: 30, now: sandbox.clock.now(), fields: ['symbol', 'ask', 'bid'] });
    expect(lines[0]).toMatch(/^Symbol +Ask +Bid +Trend$/);
    expect(lines[1]).toMatch(new RegExp(`^EURUSD +${served[0]!.ask.replace('.', '\\.')} +${served[0]!.bid.replace('.', '\\.')} `));
  });

  it.each([
    [['--fields', 'symbol,price'], /^error: --fields: unknown field "price"\nhint: valid fields: symbol, bid, ask, mid, timestamp, spread, age/],
    [['--fields', 'symbol,spread', '--format', 'csv'], /^error: --fields: spread is shown by the table and the board only, not by csv/],
    [['--fields', 'age', '--watch', '--count', '1'], /^error: --fields: age is shown by the table and the board only, not by ndjson/],
    [['--fields', 'bid,bid'], /^error: --fields: bid is given twice/],
    [['--fields', ' , '], /^error: --fields needs at least one field/],
  ])('%j is exit 2, before any request, nothing on stdout', async (args, message) => {
    const result = await quotes(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe('');
  });

  it('completion offers the field names', () => {
    const { deps } = createTestDeps();
    const { candidates } = complete(createProgram(deps, { exitCode: 0, cleanups: [] }), ['quotes', '--fields', '']);
    expect(candidates.map((candidate) => candidate.value)).toEqual(['symbol', 'bid', 'ask', 'mid', 'timestamp', 'spread', 'age']);
  });
});
