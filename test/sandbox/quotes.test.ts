// GET /v1/market/quotes: the data, its precision and exactness, symbols handling, venues, seeds,
// the synthetic catalogue and the symbol limit.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { INSTRUMENTS } from '../../src/sandbox/index.js';
import { envelopeCode, getQuotes, getToken, startTestSandbox, TEST_EPOCH, type TestSandbox } from '../helpers/sandbox.js';

const HIGH_LIMITS = { perMinute: 1_000_000, perHour: 1_000_000, perDay: 1_000_000 };
const ALL = INSTRUMENTS.map((instrument) => instrument.symbol);
const DECIMALS = new Map(INSTRUMENTS.map((instrument) => [instrument.symbol, instrument.decimals]));

interface RawQuote {
  symbol: string;
  bid: string;
  ask: string;
  mid: string;
  timestamp: string;
}

/** Quotes as written on the wire: numbers kept as their literal text, to check precision exactly. */
function rawQuotes(text: string): RawQuote[] {
  const pattern = /\{"symbol":"([^"]+)","bid":([0-9.]+),"ask":([0-9.]+),"mid":([0-9.]+),"timestamp":"([^"]+)"\}/g;
  return [...text.matchAll(pattern)].map((m) => ({ symbol: m[1]!, bid: m[2]!, ask: m[3]!, mid: m[4]!, timestamp: m[5]! }));
}

/** A decimal literal as a BigInt scaled by 10^scale. */
function scaled(text: string, scale: number): bigint {
  const [whole = '', fraction = ''] = text.split('.');
  return BigInt(whole + fraction.padEnd(scale, '0'));
}

let sb: TestSandbox;
let token: string;
beforeEach(async () => {
  sb = await startTestSandbox({ limits: HIGH_LIMITS });
  token = await getToken(sb.url);
});
afterEach(() => sb.close());

describe('quotes', () => {
  it('answers 200 with exactly {data: [Quote]} and the five fields of the spec', async () => {
    const response = await getQuotes(sb.url, token, 'symbols=EURUSD,AAPL');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = response.json as { data: Array<Record<string, unknown>> };
    expect(Object.keys(body)).toEqual(['data']);
    expect(body.data.map((quote) => quote.symbol)).toEqual(['EURUSD', 'AAPL']);
    for (const quote of body.data) {
      expect(Object.keys(quote)).toEqual(['symbol', 'bid', 'ask', 'mid', 'timestamp']);
      expect(typeof quote.bid).toBe('number');
      expect(quote.bid as number).toBeLessThan(quote.ask as number);
    }
  });

  it('quotes every catalogue instrument, with at least 20 of them, FX and equities', async () => {
    expect(ALL.length).toBeGreaterThanOrEqual(20);
    const quotes = rawQuotes((await getQuotes(sb.url, token, `symbols=${ALL.join(',')}`)).text);
    expect(quotes.map((quote) => quote.symbol)).toEqual(ALL);
    expect(DECIMALS.get('EURUSD')).toBe(5);
    expect(DECIMALS.get('USDJPY')).toBe(3);
    expect(DECIMALS.get('AAPL')).toBe(2);
  });

  it('writes bid and ask with the instrument\'s decimals, trailing zeros included, and mid exactly', async () => {
    let checked = 0;
    let halfMids = 0;
    // 150 moments spread over a year, every instrument at each.
    for (let step = 0; step < 150; step++) {
      sb.clock.set(TEST_EPOCH + step * 210_379_123);
      const fresh = await getToken(sb.url);
      const quotes = rawQuotes((await getQuotes(sb.url, fresh, `symbols=${ALL.join(',')}`)).text);
      expect(quotes).toHaveLength(ALL.length);
      for (const quote of quotes) {
        const decimals = DECIMALS.get(quote.symbol)!;
        const exact = new RegExp(`^\\d+\\.\\d{${decimals}}$`);
        expect(quote.bid).toMatch(exact);
        expect(quote.ask).toMatch(exact);
        expect(quote.mid).toMatch(new RegExp(`^\\d+\\.\\d{${decimals}}5?$`));
        const bid = scaled(quote.bid, decimals + 1);
        const ask = scaled(quote.ask, decimals + 1);
        expect(bid).toBeLessThan(ask);
        expect(bid).toBeGreaterThan(0n);
        expect(scaled(quote.mid, decimals + 1) * 2n).toBe(bid + ask);
        if (quote.mid.length > quote.bid.length) halfMids++;
        checked++;
      }
    }
    expect(checked).toBe(150 * ALL.length);
    // Both kinds of mid occur: exact at the instrument's precision and with the extra 5.
    expect(halfMids).toBeGreaterThan(0);
    expect(halfMids).toBeLessThan(checked);
  });

  it('stamps quotes in ISO 8601 UTC with milliseconds, never after the request time', async () => {
    for (let step = 0; step < 20; step++) {
      sb.clock.advance(377);
      const quotes = rawQuotes((await getQuotes(sb.url, token, 'symbols=EURUSD,AAPL,USDJPY')).text);
      for (const quote of quotes) {
        expect(quote.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
        const time = Date.parse(quote.timestamp);
        expect(time).toBeLessThanOrEqual(sb.clock.now());
        expect(time).toBeGreaterThan(sb.clock.now() - 2000);
      }
    }
  });

  it('moves prices over time', async () => {
    const first = rawQuotes((await getQuotes(sb.url, token, 'symbols=EURUSD,AAPL')).text);
    sb.clock.advance(3_600_000);
    const later = rawQuotes((await getQuotes(sb.url, token, 'symbols=EURUSD,AAPL')).text);
    expect(later.map((quote) => quote.bid)).not.toEqual(first.map((quote) => quote.bid));
  });

  it.each([
    ['lower case', 'symbols=eurusd,aapl', ['EURUSD', 'AAPL']],
    ['surrounding spaces', 'symbols=%20EURUSD%20,%20AAPL', ['EURUSD', 'AAPL']],
    ['duplicates, in any case', 'symbols=AAPL,eurusd,aapl,EURUSD', ['AAPL', 'EURUSD']],
    ['unknown symbols', 'symbols=NOPE,EURUSD,XXXXXX,AAPL', ['EURUSD', 'AAPL']],
    ['empty items', 'symbols=,EURUSD,,AAPL,', ['EURUSD', 'AAPL']],
    ['the requested order', 'symbols=SPY,USDJPY,EURUSD', ['SPY', 'USDJPY', 'EURUSD']],
    ['only unknown symbols', 'symbols=NOPE,EUR/USD', []],
    ['an encoded comma', 'symbols=EURUSD%2CAAPL', ['EURUSD', 'AAPL']],
    ['a 32-character unknown symbol', `symbols=${'A'.repeat(32)},KO`, ['KO']],
  ])('handles %s', async (_name, query, symbols) => {
    const response = await getQuotes(sb.url, token, query);
    expect(response.status).toBe(200);
    expect((response.json as { data: Array<{ symbol: string }> }).data.map((quote) => quote.symbol)).toEqual(symbols);
  });

  it.each([
    ['ARCX', ['AAPL', 'SPY', 'JPM'], ['EURUSD', 'AMZN', 'V']],
    ['xnas', ['AAPL', 'QQQ', 'SPY'], ['JPM', 'EURUSD']],
    ['LMAX', ['EURUSD', 'GBPJPY', 'NZDUSD'], ['EURCHF', 'AAPL']],
    ['EBS', ['EURUSD', 'EURCHF'], ['NZDUSD', 'GBPJPY', 'SPY']],
    ['XLON', ['VOD.L'], ['AAPL', 'EURUSD']],
    ['XPAR', [], ['AAPL', 'EURUSD', 'SAP.DE']],
    // The one venue rule is the library's, 1 to 64 visible ASCII characters: a venue the catalogue
    // does not have is answered from the catalogue, where no instrument trades on it.
    ['X-1', [], ['AAPL', 'EURUSD']],
    [encodeURIComponent(` ${'V'.repeat(64)} `), [], ['AAPL', 'EURUSD']],
  ])('venue=%s keeps only instruments quoted there', async (venue, kept, dropped) => {
    const response = await getQuotes(sb.url, token, `symbols=${[...kept, ...dropped].join(',')}&venue=${venue}`);
    expect(response.status).toBe(200);
    expect((response.json as { data: Array<{ symbol: string }> }).data.map((quote) => quote.symbol)).toEqual(kept);
  });

  it('quotes the primary venue by default, and another venue only when asked', async () => {
    const text = async (query: string) => rawQuotes((await getQuotes(sb.url, token, query)).text)[0]!;
    const primary = await text('symbols=EURUSD');
    expect(await text('symbols=EURUSD&venue=EBS')).toEqual(primary);
    // Venues tick at their own moments and spreads, so over a few seconds they differ somewhere.
    let differs = false;
    for (let i = 0; i < 10 && !differs; i++) {
      sb.clock.advance(1000);
      differs = JSON.stringify(await text('symbols=EURUSD&venue=LMAX')) !== JSON.stringify(await text('symbols=EURUSD'));
    }
    expect(differs).toBe(true);
  });

  it('limits the number of distinct symbols, naming the limit', async () => {
    const symbols = Array.from({ length: 101 }, (_, i) => `S${i}`);
    const over = await getQuotes(sb.url, token, `symbols=${symbols.join(',')}`);
    expect(over.status).toBe(400);
    expect(envelopeCode(over.json)).toBe('INVALID_REQUEST');
    expect((over.json as { error: { message: string } }).error.message).toContain('100');
    // Repeats do not count: 100 distinct symbols, each twice.
    const repeated = symbols.slice(0, 100);
    expect((await getQuotes(sb.url, token, `symbols=${[...repeated, ...repeated].join(',')}`)).status).toBe(200);
  });

  it('takes the symbol limit from maxSymbols', async () => {
    const small = await startTestSandbox({ maxSymbols: 3 });
    try {
      const smallToken = await getToken(small.url);
      expect((await getQuotes(small.url, smallToken, 'symbols=A,B,C')).status).toBe(200);
      const over = await getQuotes(small.url, smallToken, 'symbols=A,B,C,D');
      expect(over.status).toBe(400);
      expect((over.json as { error: { message: string } }).error.message).toContain('at most 3');
    } finally {
      await small.close();
    }
  });
});

describe('determinism', () => {
  const QUERY = `symbols=${ALL.join(',')}`;

  async function snapshot(seed: number | undefined, at: number): Promise<string> {
    const other = await startTestSandbox({ ...(seed === undefined ? {} : { seed }), startAt: at });
    try {
      return (await getQuotes(other.url, await getToken(other.url), QUERY)).text;
    } finally {
      await other.close();
    }
  }

  it('gives the same prices for the same seed and time, and other prices for another seed', async () => {
    const a = await snapshot(7, TEST_EPOCH);
    expect(await snapshot(7, TEST_EPOCH)).toBe(a);
    expect(await snapshot(8, TEST_EPOCH)).not.toBe(a);
    expect(await snapshot(undefined, TEST_EPOCH)).toBe(await snapshot(1, TEST_EPOCH));
  });

  it('keeps prices near their reference level over years', async () => {
    for (const at of [Date.UTC(2020, 0, 1), Date.UTC(2030, 5, 1), Date.UTC(2099, 11, 31, 23, 59, 59, 999)]) {
      const quotes = rawQuotes(await snapshot(3, at));
      for (const quote of quotes) {
        const reference = INSTRUMENTS.find((instrument) => instrument.symbol === quote.symbol)!;
        const ratio = Number(quote.bid) / (reference.basePrice / 10 ** reference.decimals);
        expect(ratio).toBeGreaterThan(0.5);
        expect(ratio).toBeLessThan(1.5);
      }
    }
  });
});

describe('synthetic instruments', () => {
  it('adds SYN00001..SYNnnnnn to the catalogue, 2 decimals, on XNAS', async () => {
    const big = await startTestSandbox({ synthetic: 10_000, limits: HIGH_LIMITS, maxSymbols: 1000 });
    try {
      const bigToken = await getToken(big.url);
      const response = await getQuotes(big.url, bigToken, 'symbols=SYN00001,syn10000,SYN10001,SYN00000,EURUSD');
      const quotes = rawQuotes(response.text);
      expect(quotes.map((quote) => quote.symbol)).toEqual(['SYN00001', 'SYN10000', 'EURUSD']);
      expect(quotes[0]!.bid).toMatch(/^\d+\.\d{2}$/);
      const onXnas = await getQuotes(big.url, bigToken, 'symbols=SYN00042&venue=XNAS');
      expect(rawQuotes(onXnas.text).map((quote) => quote.symbol)).toEqual(['SYN00042']);
      // 900 synthetic symbols in one request (well under the 8 KiB query limit).
      const many = Array.from({ length: 900 }, (_, i) => `SYN${String(i + 1).padStart(5, '0')}`);
      const batch = await getQuotes(big.url, bigToken, `symbols=${many.join(',')}`);
      expect(rawQuotes(batch.text)).toHaveLength(900);
    } finally {
      await big.close();
    }
  });

  it('knows no synthetic symbols by default', async () => {
    const response = await getQuotes(sb.url, token, 'symbols=SYN00001');
    expect(response.json).toEqual({ data: [] });
  });
});
