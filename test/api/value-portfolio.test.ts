// client.valuePortfolio against the sandbox: the rounds and the requests it sends (seen by a hook),
// each symbol asked once, one wait budget for both rounds, input refused before any request, and
// the valuation checked with the tests' own arithmetic on the quotes the sandbox sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dispatcher } from 'undici';
import { AbortError, createClient, OptionsError, RateLimitError, valuationAt, valuePositions, type ClientOptions, type Position, type Quote, type WaitEvent } from '../../src/api/index.js';
import { createClientWith } from '../../src/api/internal.js';
import { INSTRUMENTS } from '../../src/sandbox/index.js';
import { dec, fullText, mul, rat, ratDiv, ratMul, ratSum, sub, type Rat } from '../helpers/decimal-oracle.js';
import { sendTheseQuotes, useServers } from '../helpers/fault-server.js';
import { pacedTransport } from '../helpers/paced-transport.js';
import { getToken, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const { closeLater, start } = useServers();

let sb: TestSandbox;
let token: string;
beforeAll(async () => {
  sb = await startTestSandbox({ limits: { perMinute: 1000, perHour: 100_000, perDay: 100_000 } });
  token = await getToken(sb.url);
});
afterAll(() => sb.close());

const currencyOf = (symbol: string) => INSTRUMENTS.find((instrument) => instrument.symbol === symbol)!.currency;
const lot = (symbol: string, quantity: string, cost?: string): Position => ({ symbol, quantity, currency: currencyOf(symbol), ...(cost === undefined ? {} : { cost }) });
const PORTFOLIO: Position[] = [
  lot('VOD.L', '1000', '70.25'),
  lot('SAP.DE', '20'),
  lot('7203.T', '100'),
  lot('RY.TO', '-50'),
  lot('AAPL', '10', '150'),
  lot('AAPL', '0.1', '0.30'),
  { symbol: 'EUR', quantity: '2500.75', currency: 'EUR' },
];

/** A client whose every request's symbols are recorded, in the order sent. */
function recordingClient(options: Partial<ClientOptions> = {}) {
  const requests: string[][] = [];
  const client = createClient({
    baseUrl: sb.url, accessToken: token, organizationId: 'org_demo', ...options,
    hooks: { beforeRequest: [(request) => void requests.push(new URL(request.url).searchParams.get('symbols')!.split(','))] },
  });
  return { client, requests };
}

/** The sandbox's quotes for `symbols` at the same instant, fetched apart from the code under test. */
async function quotesOf(symbols: string[]): Promise<Quote[]> {
  return (await createClient({ baseUrl: sb.url, accessToken: token, organizationId: 'org_demo' }).getQuotes({ symbols })).data;
}

const mid = (quotes: Quote[], symbol: string) => quotes.find((quote) => quote.symbol === symbol)!.mid;

describe('valuePortfolio against the sandbox', () => {
  it('in EUR: two rounds, each symbol asked once, and the valuation by the tests\' own arithmetic', async () => {
    const { client, requests } = recordingClient();
    const result = await client.valuePortfolio({ positions: PORTFOLIO, base: 'EUR' });
    const round1 = ['VOD.L', 'SAP.DE', '7203.T', 'RY.TO', 'AAPL', 'GBPEUR', 'EURGBP', 'JPYEUR', 'EURJPY', 'CADEUR', 'EURCAD', 'USDEUR', 'EURUSD'];
    // CAD has no pair with EUR: the cross's legs in a second round, less EURUSD and USDEUR, asked already.
    expect(requests).toEqual([round1, ['CADUSD', 'USDCAD']]);
    expect(result).toMatchObject({ rounds: 2, requests: 2, attempts: 2, unasked: [] });
    expect(result.rateLimit).toMatchObject({ limit: 1000 });

    const quotes = await quotesOf([...round1, 'CADUSD', 'USDCAD']);
    const price = (symbol: string) => quotes.find((quote) => quote.symbol === symbol)!.mid;
    const { valuation } = result;
    expect(valuation).toMatchObject({ base: 'EUR', price: 'mid', missing: [], no_route: [], incomplete: false });
    // Each currency's exact rate to EUR, by the tests' own fractions.
    const inverse = (text: string): Rat => ratDiv({ n: 1n, d: 1n }, rat(text));
    const rates: Record<string, Rat> = {
      GBX: inverse(mul(mid(quotes, 'EURGBP'), '100')),
      EUR: { n: 1n, d: 1n },
      JPY: inverse(mid(quotes, 'EURJPY')),
      CAD: inverse(mul(mid(quotes, 'USDCAD'), mid(quotes, 'EURUSD'))),
      USD: inverse(mid(quotes, 'EURUSD')),
    };
    const places = (text: string) => dec(text).scale;
    const exact: Rat[] = [];
    valuation.positions.forEach((p, i) => {
      const { symbol, quantity, currency } = PORTFOLIO[i]!;
      const unit = symbol === currency ? '1' : price(symbol);
      const value = mul(unit, quantity);
      expect(p).toMatchObject({ symbol, quantity, currency, price: unit, value, status: 'ok' });
      expect(p.rate).toBe(fullText(rates[currency]!, 0));
      const inBase = ratMul(rat(value), rates[currency]!);
      expect(p.value_base).toBe(fullText(inBase, places(value)));
      exact.push(inBase);
    });
    // 0.1 × 0.30: the cost's places and the quantity's kept, where a double gives 0.03.
    expect(valuation.positions[5]!.pnl).toBe(mul(sub(price('AAPL'), '0.30'), '0.1'));
    // The exact total, rounded once.
    expect(valuation.total_base).toBe(fullText(ratSum(exact), Math.max(...valuation.positions.map((p) => places(p.value!)))));
    // The quotes it used: the instruments, and one pair per rate (EURGBP, not GBPEUR, which the sandbox does not quote).
    expect(result.quotes.map((quote) => quote.symbol)).toEqual(['VOD.L', 'SAP.DE', '7203.T', 'RY.TO', 'AAPL', 'EURGBP', 'EURJPY', 'EURUSD', 'USDCAD']);
  });

  it('works out the exact valuation when it is first read, once, from the quotes it fetched: written at the precision asked, it is the valuation', async () => {
    const { client, requests } = recordingClient();
    const result = await client.valuePortfolio({ positions: PORTFOLIO, base: 'EUR', precision: 'minor' });
    const sent = requests.length;
    const { exact } = result;
    expect(result.exact).toBe(exact);
    expect(exact.positions).toHaveLength(PORTFOLIO.length);
    expect(valuationAt(exact, 'minor')).toEqual(result.valuation);
    expect(requests).toHaveLength(sent);
  });

  it('values exactly the list it was given: a position added to it afterwards is not in the exact valuation', async () => {
    const { client } = recordingClient();
    const positions = [...PORTFOLIO];
    const result = await client.valuePortfolio({ positions, base: 'EUR' });
    positions.push({ symbol: 'AAPL', quantity: 'not a number', currency: 'USD' });
    expect(result.exact.positions).toHaveLength(PORTFOLIO.length);
    expect(valuationAt(result.exact, 'full')).toEqual(result.valuation);
  });

  it('values the positions once for whichever is read first: the valuation read after the exact one is written from it', async () => {
    const { client } = recordingClient();
    const positions = PORTFOLIO.map((position) => ({ ...position }));
    const result = await client.valuePortfolio({ positions, base: 'EUR', precision: 'minor' });
    const { exact } = result;
    // A position object changed after the exact valuation was read: the valuation written from it
    // keeps the quantity it was valued at, where valuing the positions again would read 7.
    positions[4]!.quantity = '7';
    const { valuation } = result;
    expect(result.valuation).toBe(valuation);
    expect(valuation).toEqual(valuationAt(exact, 'minor'));
    expect(valuation.positions[4]!.quantity).toBe('10');
  });

  it('names the same quotes whichever valuation their rates are read from', async () => {
    const { client } = recordingClient();
    const first = await client.valuePortfolio({ positions: PORTFOLIO, base: 'EUR' });
    const second = await client.valuePortfolio({ positions: PORTFOLIO, base: 'EUR' });
    // One reads the quotes first (from the written valuation), the other after the exact valuation.
    const fromWritten = first.quotes.map((quote) => quote.symbol);
    void second.exact;
    expect(second.quotes.map((quote) => quote.symbol)).toEqual(fromWritten);
    expect(first.quotes).toBe(first.quotes);
    expect(fromWritten).toEqual(['VOD.L', 'SAP.DE', '7203.T', 'RY.TO', 'AAPL', 'EURGBP', 'EURJPY', 'EURUSD', 'USDCAD']);
  });

  it('writes the rates with at most rateDigits significant digits, each rounded from the exact rate, as a table shows them', async () => {
    const { client } = recordingClient();
    const result = await client.valuePortfolio({ positions: PORTFOLIO, base: 'EUR', rateDigits: 10 });
    expect(result.valuation).toEqual(valuationAt(result.exact, 'full', { rateDigits: 10 }));
    // Significant digits: not the leading zeros, not the point.
    const digits = (rate: string) => rate.replace('.', '').replace(/^0+/, '').length;
    for (const rate of result.valuation.fx) expect(digits(rate.rate)).toBeLessThanOrEqual(10);
    // Inverses and a cross: at full, more digits than 10.
    expect(Math.max(...valuationAt(result.exact, 'full').fx.map((rate) => digits(rate.rate)))).toBeGreaterThan(10);
  });

  it('in USD: one round, every currency having a pair with USD', async () => {
    const { client, requests } = recordingClient();
    const result = await client.valuePortfolio({ positions: PORTFOLIO, base: 'USD', price: 'side' });
    expect(result).toMatchObject({ rounds: 1, requests: 1 });
    expect(requests).toEqual([['VOD.L', 'SAP.DE', '7203.T', 'RY.TO', 'AAPL', 'GBPUSD', 'USDGBP', 'EURUSD', 'USDEUR', 'JPYUSD', 'USDJPY', 'CADUSD', 'USDCAD']]);
    const quotes = await quotesOf(requests[0]!);
    const quote = (symbol: string) => quotes.find((q) => q.symbol === symbol)!;
    // side: a long at the bid, the short RY.TO at the ask.
    expect(result.valuation.positions[0]!.price).toBe(quote('VOD.L').bid);
    expect(result.valuation.positions[3]!.price).toBe(quote('RY.TO').ask);
    expect(result.valuation.positions[3]!.value).toBe(mul(quote('RY.TO').ask, '-50'));
  });

  it('batches each round, every symbol in exactly one request, and counts progress across the rounds', async () => {
    const { client, requests } = recordingClient();
    const progress: Array<[number, number]> = [];
    const result = await client.valuePortfolio({ positions: PORTFOLIO, base: 'EUR', batchSize: 4, concurrency: 2, onProgress: (done, total) => progress.push([done, total]) });
    // 13 symbols in round 1 are 4 requests; 2 in round 2, one more.
    expect(requests.map((batch) => batch.length)).toEqual([4, 4, 4, 1, 2]);
    const asked = requests.flat();
    expect(new Set(asked).size).toBe(asked.length);
    expect(result).toMatchObject({ rounds: 2, requests: 5, attempts: 5 });
    expect(progress.at(-1)).toEqual([5, 5]);
    expect(progress.slice(0, 4).map(([, total]) => total)).toEqual([4, 4, 4, 4]);
  });

  it('names what it could not value, and still values the rest', async () => {
    const { client, requests } = recordingClient();
    const positions: Position[] = [lot('AAPL', '2'), { symbol: 'NOSUCH', quantity: '5', currency: 'USD' }, { symbol: 'GOLD1', quantity: '1', currency: 'XAU' }];
    const { valuation } = await client.valuePortfolio({ positions, base: 'EUR' });
    expect(requests).toEqual([['AAPL', 'NOSUCH', 'GOLD1', 'USDEUR', 'EURUSD', 'XAUEUR', 'EURXAU'], ['XAUUSD', 'USDXAU']]);
    expect(valuation.missing).toEqual(['NOSUCH', 'GOLD1']);
    expect(valuation.no_route).toEqual([expect.objectContaining({ currency: 'XAU', to: 'EUR', tried: ['XAUEUR', 'EURXAU', 'XAUUSD', 'USDXAU', 'EURUSD', 'USDEUR'] })]);
    expect(valuation.incomplete).toBe(true);
    expect(valuation.positions.map((p) => p.status)).toEqual(['ok', 'missing', 'missing']);
    expect(valuation.total_base).toBe(valuation.positions[0]!.value_base);
  });

  it('asks for nothing when there is nothing to fetch: cash in the base currency', async () => {
    const { client, requests } = recordingClient();
    const result = await client.valuePortfolio({ positions: [{ symbol: 'EUR', quantity: '10.50', currency: 'EUR' }], base: 'EUR' });
    expect(requests).toEqual([]);
    expect(result).toMatchObject({ rounds: 0, requests: 0, attempts: 0, rateLimit: undefined, quotes: [] });
    expect(result.valuation.total_base).toBe('10.50');
  });
});

describe('the quotes a valuation used', () => {
  const at = new Date().toISOString();
  const q = (symbol: string, mid: string): Quote => ({ symbol, bid: mid, ask: mid, mid, timestamp: at });
  const positions: Position[] = [{ symbol: 'AAPL', quantity: '1', currency: 'USD' }, { symbol: 'msft', quantity: '2', currency: 'USD' }];
  const valued = async (quotes: Quote[]) => {
    const server = await start((req, res) => sendTheseQuotes(req, res, quotes));
    return createClient({ baseUrl: server.url, accessToken: 'tok', organizationId: 'org_demo' }).valuePortfolio({ positions, base: 'USD' });
  };

  it('in a book all in its base currency: every quote as it came, and a symbol sent twice alike once', async () => {
    expect((await valued([q('AAPL', '227.12'), q('MSFT', '400')])).quotes).toEqual([q('AAPL', '227.12'), q('MSFT', '400')]);
    const twice = await valued([q('AAPL', '227.12'), q('MSFT', '400'), q('aapl', '227.120')]);
    expect(twice.quotes).toEqual([q('AAPL', '227.12'), q('MSFT', '400')]);
    expect(twice.valuation).toMatchObject({ incomplete: false, total_base: '1027.12' });
  });

  it('reads the answer as valuePositions reads the same quotes: a symbol sent twice at two prices is unusable', async () => {
    const sent = [q('MSFT', '400'), q('aapl', '227.12'), q('AAPL', '227.13')];
    const result = await valued(sent);
    expect(result.valuation.positions.map((p) => [p.symbol, p.status, p.value])).toEqual([['AAPL', 'unusable', null], ['msft', 'ok', '800']]);
    expect(result.valuation.unusable).toEqual([{ symbol: 'aapl', problems: ['sent twice at different prices (mid 227.12 and 227.13)'] }]);
    // The same quotes given to valuePositions value the same.
    expect(result.valuation).toEqual(valuePositions({ positions, quotes: sent, base: 'USD' }));
  });

  it('one verdict: a symbol sent twice alike, the second quote from the future, is unusable to valuePortfolio and valuePositions alike', async () => {
    const ahead = new Date(Date.now() + 3_600_000).toISOString();
    const sent = [q('AAPL', '227.12'), q('MSFT', '400'), { ...q('AAPL', '227.12'), timestamp: ahead }];
    const result = await valued(sent);
    expect(result.valuation.positions.map((p) => [p.symbol, p.status])).toEqual([['AAPL', 'unusable'], ['msft', 'ok']]);
    expect(result.valuation.unusable).toEqual([{ symbol: 'AAPL', problems: [expect.stringMatching(/^timestamp is 1h in the future$|^timestamp is 59m\d*s? in the future$/)] }]);
    const direct = valuePositions({ positions, quotes: sent, base: 'USD' });
    expect(direct.positions.map((p) => [p.symbol, p.status])).toEqual([['AAPL', 'unusable'], ['msft', 'ok']]);
    expect(direct.unusable).toEqual(result.valuation.unusable);
  });
});

describe('valuePortfolio refuses before any request', () => {
  /** A dispatcher that fails the test if anything is sent through it. */
  const untouchable = { request: () => expect.unreachable('no request may be sent') } as unknown as Dispatcher;
  const client = createClient({ baseUrl: 'http://127.0.0.1:9', accessToken: 'tok', organizationId: 'org_demo', dispatcher: untouchable });

  it.each([
    ['a base that is no currency', { positions: PORTFOLIO, base: 'usd' }, 'base'],
    ['a price rule it does not know', { positions: PORTFOLIO, base: 'USD', price: 'last' }, 'price'],
    ['positions that are not positions', { positions: [{ symbol: 'AAPL', quantity: 'abc', currency: 'USD' }], base: 'USD' }, 'quantity'],
    ['a batch size of 0', { positions: PORTFOLIO, base: 'USD', batchSize: 0 }, 'batchSize'],
    ['rates at 0 significant digits', { positions: PORTFOLIO, base: 'USD', rateDigits: 0 }, 'rateDigits'],
    ['rates at 35 significant digits', { positions: PORTFOLIO, base: 'USD', rateDigits: 35 }, 'rateDigits'],
    ['rates at 2.5 significant digits', { positions: PORTFOLIO, base: 'USD', rateDigits: 2.5 }, 'rateDigits'],
    ['no input at all', undefined, 'input'],
  ])('%s', async (_name, input, option) => {
    const error = await client.valuePortfolio(input as never).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OptionsError);
    expect(error).toMatchObject({ option });
  });

  it('an aborted signal sends nothing', async () => {
    const controller = new AbortController();
    controller.abort();
    const aborted = createClient({ baseUrl: 'http://127.0.0.1:9', accessToken: 'tok', organizationId: 'org_demo', dispatcher: untouchable, signal: controller.signal });
    await expect(aborted.valuePortfolio({ positions: PORTFOLIO, base: 'EUR' })).rejects.toBeInstanceOf(AbortError);
  });
});

describe('one wait budget for both rounds', () => {
  // RY.TO in EUR, one symbol a request, two requests a minute: round 1 (RY.TO, CADEUR, EURCAD) waits
  // 45 s for the next window; round 2 (the four legs of CAD's cross through USD) would wait two more
  // windows, 120 s: within 150 s alone, past it after round 1's 45 s.
  async function run(maxWaitMs: number) {
    const sandbox = await startTestSandbox({ limits: { perMinute: 2 } });
    closeLater(sandbox);
    const transport = pacedTransport(sandbox.clock.advance);
    closeLater(transport);
    const events: WaitEvent[] = [];
    const client = createClientWith({
      baseUrl: sandbox.url, accessToken: await getToken(sandbox.url), organizationId: 'org_demo', dispatcher: transport.dispatcher, maxWaitMs,
      onWait: (event) => events.push(event),
    }, { now: sandbox.clock.now, sleep: transport.sleep });
    const call = client.valuePortfolio({ positions: [lot('RY.TO', '10')], base: 'EUR', batchSize: 1 });
    return { call, events, statuses: transport.statuses };
  }

  it('150 s: round 2 is refused with the waiting round 1 spent counted, before the quota is spent', async () => {
    const { call, events, statuses } = await run(150_000);
    const error = await call.catch((caught: unknown) => caught) as RateLimitError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.plan).toMatchObject({ maxWaitMs: 150_000, spentMs: 45_000, waitMs: 120_000 });
    expect(events.map((event) => event.waitMs)).toEqual([45_000]);
    // Round 1's three, and round 2's first, which taught the client the window; no 429.
    expect(statuses).toEqual([200, 200, 200, 200]);
  });

  it('170 s: both rounds fit', async () => {
    const { call, events, statuses } = await run(170_000);
    const result = await call;
    expect(result).toMatchObject({ rounds: 2, requests: 7 });
    expect(events.map((event) => event.waitMs)).toEqual([45_000, 60_000, 60_000]);
    expect(statuses).toEqual(Array(7).fill(200));
  });
});

describe('prefetch: a later valuation of the same positions in one round', () => {
  it('the first names its cross legs; given them, the next asks for them in round 1, once, and values the same', async () => {
    const { client, requests } = recordingClient();
    const first = await client.valuePortfolio({ positions: PORTFOLIO, base: 'EUR' });
    expect(first.cross).toEqual(['CADUSD', 'USDCAD']);
    const [round1] = requests;
    requests.length = 0;
    // The sandbox's clock has not moved: the same quotes, so the same valuation, from one request.
    const again = await client.valuePortfolio({ positions: PORTFOLIO, base: 'EUR', prefetch: first.cross });
    expect(requests).toEqual([[...round1!, 'CADUSD', 'USDCAD']]);
    expect(again).toMatchObject({ rounds: 1, requests: 1, cross: [] });
    expect(again.valuation).toEqual(first.valuation);
  });

  it('a prefetched symbol round 1 asks for anyway is asked once; one it did not need is not among the quotes used', async () => {
    const { client, requests } = recordingClient();
    const result = await client.valuePortfolio({ positions: [lot('AAPL', '1')], base: 'EUR', prefetch: ['eurusd', 'GBPUSD'] });
    expect(requests).toEqual([['AAPL', 'USDEUR', 'EURUSD', 'GBPUSD']]);
    expect(result.quotes.map((quote) => quote.symbol).sort()).toEqual(['AAPL', 'EURUSD']);
  });

  it('refuses what is not a list of symbols, before any request', async () => {
    const { client, requests } = recordingClient();
    await expect(client.valuePortfolio({ positions: PORTFOLIO, base: 'EUR', prefetch: 'CADUSD' as unknown as string[] })).rejects.toMatchObject({ option: 'prefetch' });
    await expect(client.valuePortfolio({ positions: PORTFOLIO, base: 'EUR', prefetch: [1] as unknown as string[] })).rejects.toBeInstanceOf(OptionsError);
    expect(requests).toEqual([]);
  });
});
