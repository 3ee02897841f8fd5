// The watch loop for a resource other than quotes, with no copy of it: a made-up portfolio (each
// position's value from the quotes of a poll, and a total), declared as a FieldSet with checks,
// watched through runWatch with the document outputs (document-outputs.ts). In a pipe a JSON
// document per poll on one line; on a terminal its table as the board; on a dumb one its tables;
// --count, --until on a field of the whole result, exit 8 when it never held. The valuation is the
// test's own (big.js); the expected values are worked by hand.
import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import { AbortError } from '../../../src/api/errors.js';
import type { Quote, QuotesResult } from '../../../src/api/index.js';
import { main } from '../../../src/cli/main.js';
import type { RunState } from '../../../src/cli/run-state.js';
import { createDocumentBoard, createDocumentStream, createDocumentTables, DOCUMENT_PIPE, type DocumentWatch } from '../../../src/cli/watch/document-outputs.js';
import { runWatch, type RunWatchFlags } from '../../../src/cli/watch/run-watch.js';
import type { WatchedResource } from '../../../src/cli/watch/watched-resource.js';
import type { CheckModel } from '../../../src/render/checks/check-model.js';
import type { FieldSet } from '../../../src/render/fields.js';
import { createTestDeps } from '../../helpers/cli.js';
import { sendTheseQuotes, useServers, type FaultServer } from '../../helpers/fault-server.js';
import { fakeTerminal, LEAVE, setupBoard, SGR } from '../../helpers/board-harness.js';

const servers = useServers();

interface Position {
  symbol: string;
  quantity: string;
  price: string;
  value: string;
}

interface Portfolio {
  positions: Position[];
  total: string;
  missing: string[];
}

type PositionField = 'symbol' | 'quantity' | 'price' | 'value';

const CHECKS: CheckModel<Position, Portfolio> = {
  rowNoun: 'position',
  rowKey: (position) => position.symbol,
  fields: [{ name: 'value', kind: 'decimal', description: 'price × quantity', value: (position) => position.value }],
  documentFields: [{ name: 'total', kind: 'decimal', description: 'the sum of the values', value: (portfolio) => portfolio.total }],
};

const MODEL: FieldSet<Position, PositionField, Portfolio> = {
  fields: {
    symbol: { name: 'symbol', title: 'Symbol', kind: 'text', derived: false, align: 'left', read: (item) => item.symbol },
    quantity: { name: 'quantity', title: 'Quantity', kind: 'price', derived: false, align: 'right', read: (item) => item.quantity },
    price: { name: 'price', title: 'Price', kind: 'price', derived: false, align: 'right', read: (item) => item.price },
    value: { name: 'value', title: 'Value', kind: 'price', derived: false, align: 'right', read: (item) => item.value },
  },
  names: ['symbol', 'quantity', 'price', 'value'],
  sent: ['symbol', 'quantity', 'price', 'value'],
  table: ['symbol', 'quantity', 'price', 'value'],
  document: { items: 'positions', after: [{ name: 'total', kind: 'decimal' }, 'missing'] },
  checks: CHECKS,
};

const HOLDINGS = [{ symbol: 'EURUSD', quantity: '1000000.5' }, { symbol: 'AAPL', quantity: '3' }];
/** EURUSD's mid at each poll; AAPL's is always 0.1 (3 × 0.1 is 0.3, which a double makes 0.30000000000000004). */
const MIDS = ['1.1', '1.2', '1.2'];
/** By hand: 1000000.5 × 1.1 + 0.3, and 1000000.5 × 1.2 + 0.3. */
const TOTALS = ['1100000.85', '1200000.9', '1200000.9'];

interface PortfolioPoll {
  result: QuotesResult;
  portfolio: Portfolio;
}

function portfolioOf(result: QuotesResult): Portfolio {
  const positions: Position[] = [];
  const missing: string[] = [];
  for (const holding of HOLDINGS) {
    const quote = result.data.find((each) => each.symbol === holding.symbol);
    if (quote === undefined) missing.push(holding.symbol);
    else positions.push({ ...holding, price: quote.mid, value: new Big(quote.mid).times(holding.quantity).toFixed() });
  }
  return { positions, total: positions.reduce((sum, position) => sum.plus(position.value), new Big(0)).toFixed(), missing };
}

/** The portfolio as a watched resource: everything a command would write to watch it. */
function portfolioWatched(): WatchedResource<PortfolioPoll, Position, Portfolio, PositionField> {
  let first: string | undefined;
  const watch: DocumentWatch<PortfolioPoll, Position, PositionField, Portfolio> = {
    model: MODEL,
    document: (poll) => poll.portfolio,
    notes: (poll) => {
      first ??= poll.portfolio.total;
      return [`total ${poll.portfolio.total}, ${new Big(poll.portfolio.total).minus(first).toFixed()} since the first poll`];
    },
    news: (poll) => ({ missing: poll.portfolio.missing, ignored: poll.result.unasked, rateLimit: poll.result.rateLimit }),
  };
  const keys = HOLDINGS.map((holding) => holding.symbol);
  return {
    model: MODEL,
    keys,
    pipe: DOCUMENT_PIPE,
    connections: 1,
    async poll(client) {
      const result = await client.getQuotes({ symbols: keys });
      return { result, portfolio: portfolioOf(result) };
    },
    pacing: ({ result }) => ({ requests: result.requests, rateLimit: result.rateLimit }),
    subject: ({ portfolio }) => ({ rows: portfolio.positions, document: portfolio, keys }),
    createBoard: (context) => createDocumentBoard(context, watch),
    createPlain: (context) => createDocumentTables(context, watch),
    createStream: (context) => createDocumentStream(context, watch),
  };
}

async function quotesServer(): Promise<FaultServer> {
  const server: FaultServer = await servers.start((req, res) => {
    const poll = Math.min(server.requests.length, MIDS.length) - 1;
    const at = '2025-01-06T14:30:00.000Z';
    const quotes: Quote[] = [
      { symbol: 'EURUSD', bid: MIDS[poll]!, ask: MIDS[poll]!, mid: MIDS[poll]!, timestamp: at },
      { symbol: 'AAPL', bid: '0.1', ask: '0.1', mid: '0.1', timestamp: at },
    ];
    sendTheseQuotes(req, res, quotes);
  });
  return server;
}

const ENV = (url: string) => ({ MKT_BASE_URL: url, MKT_TOKEN: 'scripted-token', MKT_ORG: 'org_demo' });

/** In a pipe, with a clock the sleeps move. */
async function watchInPipe(server: FaultServer, flags: RunWatchFlags) {
  let time = Date.parse('2025-01-06T14:30:00.500Z');
  const test = createTestDeps({
    now: () => time,
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw new AbortError();
      time += ms;
    },
    env: ENV(server.url),
  });
  const state: RunState = { exitCode: 0, cleanups: [] };
  const { terminal } = fakeTerminal(100, 30);
  // Through main, as a command would: its error words and exit code.
  let code = 0;
  try {
    code = await runWatch(test.deps, portfolioWatched(), { watch: true, interval: '1s', ...flags } as RunWatchFlags, state, terminal);
  } catch (error) {
    code = await main(['__rethrow'], test.deps, [(program) => void program.command('__rethrow').action(() => {
      throw error;
    })]);
  }
  return { code, stdout: test.stdout(), stderr: test.stderr() };
}

describe('another resource, watched by the same loop', () => {
  it('a double gets 3 × 0.1 wrong', () => {
    expect(3 * 0.1).not.toBe(0.3);
  });

  it('in a pipe: one JSON document per poll, on one line, every digit kept; --count ends it', async () => {
    const server = await quotesServer();
    const result = await watchInPipe(server, { count: '2' });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')).toEqual([
      `{"positions": [{"symbol": "EURUSD","quantity": 1000000.5,"price": 1.1,"value": 1100000.55},{"symbol": "AAPL","quantity": 3,"price": 0.1,"value": 0.3}],"total": ${TOTALS[0]},"missing": []}`,
      `{"positions": [{"symbol": "EURUSD","quantity": 1000000.5,"price": 1.2,"value": 1200000.6},{"symbol": "AAPL","quantity": 3,"price": 0.1,"value": 0.3}],"total": ${TOTALS[1]},"missing": []}`,
      '',
    ]);
    expect(server.requests).toHaveLength(2);
  });

  it('--until on a field of the whole result ends it where it holds, exactly', async () => {
    const server = await quotesServer();
    const result = await watchInPipe(server, { until: ['total >= 1200000.9'], count: '3' });
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split('\n')).toHaveLength(2);
    expect(server.requests).toHaveLength(2);
  });

  it('--until that never held: exit 8 naming the total at the last poll', async () => {
    const server = await quotesServer();
    const result = await watchInPipe(server, { until: ['total > 1200000.9', 'AAPL.value == 0.3'], count: '2' });
    expect(result.code).toBe(8);
    expect(result.stderr).toBe([
      `not met at the last poll: total is ${TOTALS[1]}, not > 1200000.9`,
      'error: --until did not hold at any of 2 polls',
      'hint: a higher --count waits longer; without --count, the watch runs until the condition holds',
      '',
    ].join('\n'));
  });

  it('ndjson: the positions of each poll, a line each', async () => {
    const server = await quotesServer();
    const result = await watchInPipe(server, { count: '1', format: 'ndjson' });
    expect(result.stdout).toBe('{"symbol":"EURUSD","quantity":1000000.5,"price":1.1,"value":1100000.55}\n{"symbol":"AAPL","quantity":3,"price":0.1,"value":0.3}\n');
  });

  it('the board: its table, its notes and a status line, in place; the last left on the normal screen', async () => {
    const server = await quotesServer();
    const { terminal } = fakeTerminal(100, 30);
    const session = setupBoard(server.url, () => {});
    const state: RunState = { exitCode: 0, cleanups: [] };
    expect(await runWatch(session.deps, portfolioWatched(), { watch: true, interval: '1s', count: '2' } as RunWatchFlags, state, terminal)).toBe(0);
    const frames = session.writes.filter((write) => write.startsWith('\u001b[H')).map((frame) => frame.replace(SGR, ''));
    expect(frames[0]).toContain('waiting for the first poll');
    expect(frames[1]).toMatch(/│ EURUSD │ 1000000\.5 │ +1\.1 │ 1100000\.55 │/);
    expect(frames[1]).toMatch(/│ AAPL +│ +3 +│ +0\.1 │ +0\.3 +│/);
    expect(frames[1]).toContain(`total ${TOTALS[0]}, 0 since the first poll`);
    expect(frames[1]).toMatch(/updated 14:30:0\d · poll 1 · every 1s · q to quit/);
    const last = session.writes.at(-1)!;
    expect(last.startsWith(LEAVE)).toBe(true);
    const text = last.slice(LEAVE.length).replace(SGR, '');
    expect(text).toMatch(/│ EURUSD │ 1000000\.5 │ +1\.2 │ 1200000\.6 +│/);
    expect(text).toContain(`total ${TOTALS[1]}, 100000.05 since the first poll\r\n`);
    expect(text).toMatch(/poll 2 · every 1s\r\n$/);
    expect(session.stdin.rawCalls).toEqual([true, false]);
  });

  it('a dumb terminal: its table per poll under a heading, and the --until line below the last', async () => {
    const server = await quotesServer();
    const { terminal } = fakeTerminal(100, 30);
    const session = setupBoard(server.url, () => {}, { env: { TERM: 'dumb', FORCE_COLOR: '' } });
    const state: RunState = { exitCode: 0, cleanups: [] };
    expect(await runWatch(session.deps, portfolioWatched(), { watch: true, interval: '1s', until: ['EURUSD.value > 1100000.55'] } as RunWatchFlags, state, terminal)).toBe(0);
    const polls = session.writes.join('').split('\n\n');
    expect(polls).toHaveLength(2);
    expect(polls[0]).toMatch(/^poll 1 \| updated 14:30:0\d \| every 1s\n/);
    expect(polls[1]).toMatch(/\| EURUSD \| 1000000\.5 \| +1\.2 \| 1200000\.6 +\|\n[^]*\ntotal 1200000\.9, 100000\.05 since the first poll\n--until held at poll 2: EURUSD\.value > 1100000\.55\n$/);
  });
});
