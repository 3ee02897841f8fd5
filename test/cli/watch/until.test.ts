// `mkt quotes --watch --until EXPR`: the watch ends with exit 0 at the first poll where every
// condition holds, decided exactly (a bid of 1.0900000000000000001 is more than 1.09; a double says
// it is not, and would watch on), in the stream, on the board (left on the normal screen with a line
// saying so) and in the plain tables; exit 8 with what did not hold when --count runs out first.
import { describe, expect, it } from 'vitest';
import { AbortError } from '../../../src/api/errors.js';
import type { Quote } from '../../../src/api/index.js';
import { runCli } from '../../helpers/cli.js';
import { useServers, type FaultServer } from '../../helpers/fault-server.js';
import { quotesJson } from '../../helpers/quotes.js';
import { fakeTerminal, LEAVE, setupBoard, SGR, watchBoard } from '../../helpers/board-harness.js';

const servers = useServers();

const AT = '2025-01-06T14:30:00.000Z';
/** EURUSD's bid at each poll: below 1.09, 1.09 itself, then above it by 1e-19. */
const BIDS = ['1.0899999999999999999', '1.09', '1.0900000000000000001', '1.0900000000000000001'];
/** AAPL's ask at each poll: below 200 only at the fourth. */
const ASKS = ['227.14', '227.14', '227.14', '199.99'];

/** A server answering poll N (1-based) with EURUSD and AAPL as above; asked symbols only. */
async function risingServer(): Promise<FaultServer> {
  const server: FaultServer = await servers.script((request, res) => {
    const poll = Math.min(server.requests.length, BIDS.length) - 1;
    const asked = new URL(request.url, 'http://x').searchParams.get('symbols')!.split(',');
    const quotes: Quote[] = [
      { symbol: 'EURUSD', bid: BIDS[poll]!, ask: '1.0902', mid: '1.0901', timestamp: AT },
      { symbol: 'AAPL', bid: '199.90', ask: ASKS[poll]!, mid: '199.95', timestamp: AT },
    ].filter((quote) => asked.includes(quote.symbol));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(quotesJson(quotes));
  });
  return server;
}

/** A clock the sleeps move; the sleeps asked for. */
function fakeClock() {
  const clock = { time: Date.parse(AT) + 500, sleeps: [] as number[] };
  const sleep = async (ms: number, signal?: AbortSignal) => {
    clock.sleeps.push(ms);
    if (signal?.aborted) throw new AbortError();
    if (clock.sleeps.length > 20) throw new Error('the watch did not stop');
    clock.time += ms;
  };
  return { clock, sleep, now: () => clock.time };
}

async function watch(server: FaultServer, args: string[]) {
  const { clock, sleep, now } = fakeClock();
  const result = await runCli(['quotes', ...args], { now, sleep, env: { MKT_BASE_URL: server.url, MKT_TOKEN: 'scripted-token', MKT_ORG: 'org_demo' } });
  // Read with their digits: JSON.parse would make each price a double.
  const lines = result.stdout.split('\n').filter(Boolean).map((line) => {
    const field = (name: string) => new RegExp(`"${name}":("[^"]*"|[^,}]*)`).exec(line)![1]!.replace(/^"|"$/g, '');
    return { symbol: field('symbol'), bid: field('bid'), ask: field('ask') };
  });
  return { ...result, sleeps: clock.sleeps, lines };
}

describe('--until in the stream', () => {
  it('a double would not stop: 1.0900000000000000001 reads as 1.09', () => {
    expect(Number(BIDS[2]) > 1.09).toBe(false);
  });

  it('ends with exit 0 at the first poll where it holds, once that poll is written', async () => {
    const server = await risingServer();
    const result = await watch(server, ['EURUSD', '--watch', '--interval', '1s', '--count', '10', '--until', 'EURUSD.bid > 1.09']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.lines.map((quote) => quote.bid)).toEqual(BIDS.slice(0, 3));
    expect(server.requests).toHaveLength(3);
    expect(result.sleeps).toEqual([1000, 1000]);
  });

  it('with several, all must hold at the same poll', async () => {
    const server = await risingServer();
    const result = await watch(server, ['EURUSD', 'AAPL', '--watch', '--until', 'EURUSD.bid > 1.09', '--until', 'AAPL.ask < 200']);
    expect(result.code).toBe(0);
    expect(server.requests).toHaveLength(4);
    expect(result.lines.slice(-2).map((quote) => [quote.symbol, quote.bid, quote.ask])).toEqual([['EURUSD', BIDS[3], '1.0902'], ['AAPL', '199.90', '199.99']]);
  });

  it('a condition without a symbol must hold for every symbol asked for', async () => {
    const server = await risingServer();
    const result = await watch(server, ['EURUSD', 'AAPL', '--watch', '--until', 'bid > 1.09']);
    // AAPL's bid is always above 1.09; EURUSD's from the third poll.
    expect(result.code).toBe(0);
    expect(server.requests).toHaveLength(3);
  });

  it('exit 8 when --count runs out first, with what did not hold at the last poll', async () => {
    const server = await risingServer();
    const result = await watch(server, ['EURUSD', '--watch', '--count', '2', '--until', 'EURUSD.bid > 1.09', '--until', 'ask < 2']);
    expect(result.code).toBe(8);
    expect(result.lines.map((quote) => quote.bid)).toEqual(BIDS.slice(0, 2));
    expect(result.stderr).toBe([
      'not met at the last poll: EURUSD.bid is 1.09, not > 1.09',
      'error: --until did not hold at any of 2 polls',
      'hint: a higher --count waits longer; without --count, the watch runs until the condition holds',
      '',
    ].join('\n'));
  });

  it('a symbol asked for with no quote fails it at every poll, and says so', async () => {
    const server = await risingServer();
    const result = await watch(server, ['EURUSD', 'GBPUSD', '--watch', '--count', '2', '--until', 'GBPUSD.bid > 1']);
    expect(result.code).toBe(8);
    expect(result.stderr).toBe([
      'warning: no quote for GBPUSD',
      'not met at the last poll: GBPUSD has no quote, so GBPUSD.bid > 1 fails',
      'error: --until did not hold at any of 2 polls',
      'hint: a higher --count waits longer; without --count, the watch runs until the condition holds',
      '',
    ].join('\n'));
  });

  it('under a JSON format chosen for the stream, the report is the JSON error object', async () => {
    const server = await risingServer();
    const result = await watch(server, ['EURUSD', '--watch', '--format', 'ndjson', '--count', '1', '--until', 'EURUSD.bid >= 1.09']);
    expect(result.code).toBe(8);
    expect(JSON.parse(result.stderr).error).toMatchObject({
      code: 'CHECK_FAILED', message: '--until did not hold at any of 1 poll', exit_code: 8,
      checks: [{ expression: 'EURUSD.bid >= 1.09', symbol: 'EURUSD', actual: BIDS[0], reason: 'not_met' }],
    });
  });
});

describe('--until on a terminal', () => {
  it('the board: the poll where it held stays on the normal screen, with a line saying so', async () => {
    const server = await risingServer();
    const { terminal } = fakeTerminal(100, 30);
    const session = setupBoard(server.url, () => {});
    expect(await watchBoard(session.deps, terminal, { until: ['EURUSD.bid > 1.09'] })).toBe(0);
    expect(server.requests).toHaveLength(3);
    const last = session.writes.at(-1)!;
    expect(last.startsWith(LEAVE)).toBe(true);
    const text = last.slice(LEAVE.length).replace(SGR, '');
    // Prices of 20 digits: the columns do not fit 100, so a block with every field, as the one-shot table.
    expect(text).toMatch(/^EURUSD\r\n {2}Bid +1\.0900000000000000001\r\n {2}Ask +1\.0902/);
    expect(text).toMatch(/\r\nupdated \d\d:\d\d:\d\d · poll 3 · every 1s\r\n--until held at poll 3: EURUSD\.bid > 1\.09\r\n$/);
    expect(session.stderr()).toBe('');
    expect(session.stdin.rawCalls).toEqual([true, false]);
  });

  it('the plain tables of a dumb terminal: the line below the last table', async () => {
    const server = await risingServer();
    const { terminal } = fakeTerminal(100, 30);
    const session = setupBoard(server.url, () => {}, { env: { TERM: 'dumb', FORCE_COLOR: '' } });
    expect(await watchBoard(session.deps, terminal, { until: ['EURUSD.bid > 1.09', 'EURUSD.ask == 1.0902'] })).toBe(0);
    const polls = session.writes.join('').split('\n\n');
    expect(polls).toHaveLength(3);
    expect(polls[2]).toMatch(/^poll 3 \| [^]*\n +Bid +1\.0900000000000000001\n[^]*\n--until held at poll 3: EURUSD\.bid > 1\.09 and EURUSD\.ask == 1\.0902\n$/);
  });

  it('q before it holds: exit 0, no line', async () => {
    const server = await risingServer();
    const { terminal } = fakeTerminal(100, 30);
    const session = setupBoard(server.url, (_count, signal) => {
      session.stdin.write('q');
      return new Promise<void>((resolve) => (signal?.aborted ? resolve() : signal?.addEventListener('abort', () => resolve())));
    });
    expect(await watchBoard(session.deps, terminal, { until: ['EURUSD.bid > 1.09'] })).toBe(0);
    expect(session.writes.at(-1)).toBe(LEAVE);
  });
});
