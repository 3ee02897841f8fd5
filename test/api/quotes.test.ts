import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/index.js';
import { mergeBatches, type BatchResult } from '../../src/api/merge-quotes.js';
import { getToken, startTestSandbox } from '../helpers/sandbox.js';
import type { Quote } from '../../src/api/types.js';
import { quote, quotesJson } from '../helpers/quotes.js';
import { useServers } from '../helpers/fault-server.js';

const servers = useServers();

const batch = (quotes: Quote[]): BatchResult => ({ quotes, attempts: 1, rateLimit: undefined });

describe('merging batches', () => {
  it('keeps the order asked when the service answers in order', () => {
    const result = mergeBatches(['A', 'B', 'C'], [batch([quote('A'), quote('B')]), batch([quote('C')])]);
    expect(result.data.map((q) => q.symbol)).toEqual(['A', 'B', 'C']);
    expect(result).toMatchObject({ missing: [], requests: 2, attempts: 2 });
  });

  it.each([
    ['answered out of order', ['A', 'B'], [[quote('B'), quote('A')]], ['A', 'B'], []],
    ['one missing', ['A', 'B', 'C'], [[quote('A'), quote('C')]], ['A', 'C'], ['B']],
    ['asked twice', ['A', 'B', 'a'], [[quote('A'), quote('B'), quote('A', '2.0')]], ['A', 'A', 'B'], []],
    ['sent unasked', ['A'], [[quote('A'), quote('Z')]], ['A'], [], ['Z']],
    ['sent unasked twice, in two cases, across batches', ['A', 'B'], [[quote('z'), quote('A')], [quote('Z'), quote('B'), quote('Y')]], ['A', 'B'], [], ['z', 'Y']],
    ['in another case', ['eurusd'], [[quote('EURUSD')]], ['EURUSD'], [], []],
  ])('%s', (_name, symbols, batches, order, missing, unasked = []) => {
    const result = mergeBatches(symbols, batches.map(batch));
    expect(result.data.map((q) => q.symbol)).toEqual(order);
    expect(result.missing).toEqual(missing);
    expect(result.unasked).toEqual(unasked);
  });

  it('keeps 250 symbols in order across batches', () => {
    const symbols = Array.from({ length: 250 }, (_, i) => `S${i}`);
    const batches = [batch(symbols.slice(0, 100).map((s) => quote(s))), batch(symbols.slice(100).map((s) => quote(s)))];
    expect(mergeBatches(symbols, batches).data.map((q) => q.symbol)).toEqual(symbols);
  });
});

describe('getQuotes', () => {
  it('returns the batches merged back in the order asked', async () => {
    const sandbox = await startTestSandbox({ synthetic: 50 });
    try {
      const symbols = Array.from({ length: 25 }, (_, i) => `SYN${String(25 - i).padStart(5, '0')}`);
      const result = await createClient({ baseUrl: sandbox.url }).getQuotes({
        accessToken: await getToken(sandbox.url), organizationId: 'org_demo', symbols, batchSize: 10, concurrency: 3,
      });
      expect(result.data.map((quote) => quote.symbol)).toEqual(symbols);
      expect(result).toMatchObject({ missing: [], requests: 3, attempts: 3 });
    } finally {
      await sandbox.close();
    }
  });

  it('leaves out quotes for symbols not asked for, and names them in unasked (the spec answers for the symbols requested)', async () => {
    const api = await servers.start((_req, res) => res.writeHead(200, { 'content-type': 'application/json' })
      .end(quotesJson([quote('TINY'), quote('EURUSD'), quote('tiny'), quote('OTHER')])));
    const result = await createClient({ baseUrl: api.url, accessToken: 'tok', organizationId: 'org_demo' }).getQuotes({ symbols: ['EURUSD', 'AAPL'] });
    expect(result.data.map((q) => q.symbol)).toEqual(['EURUSD']);
    expect(result).toMatchObject({ missing: ['AAPL'], unasked: ['TINY', 'OTHER'] });
  });
});

describe('the verdict on each quote, once, in the library (getQuotes\' unusable)', () => {
  const q = (symbol: string, bid: string, ask: string, mid: string, timestamp = '2026-01-05T14:30:00Z'): Quote => ({ symbol, bid, ask, mid, timestamp });
  const serve = (quotes: Quote[]) => servers.start((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(quotesJson(quotes)));
  const NOW = Date.UTC(2026, 0, 5, 14, 31);

  it('names each quote that cannot be right, and what is wrong, keeping it in data as sent', async () => {
    const api = await serve([
      q('AAPL', '-100', '-99', '-99.5'), q('EURUSD', '1.0841', '1.0842', '1.09'), q('ZERO', '0', '1', '0.5'),
      q('GOOD', '1.0841', '1.0842', '1.08415'), q('AHEAD', '1', '2', '1.5', '2026-01-05T15:30:00Z'),
    ]);
    const result = await createClient({ baseUrl: api.url, accessToken: 'tok', organizationId: 'org_demo' }).getQuotes({ symbols: ['AAPL', 'EURUSD', 'ZERO', 'GOOD', 'AHEAD'] });
    expect(result.data.map((quote) => quote.symbol)).toEqual(['AAPL', 'EURUSD', 'ZERO', 'GOOD', 'AHEAD']);
    // The client's clock is the machine's here: AHEAD is an hour ahead of 14:31 only if the machine says so.
    expect(result.unusable.filter((each) => each.symbol !== 'AHEAD')).toEqual([
      { symbol: 'AAPL', problems: ['bid is negative', 'ask is negative', 'mid is negative'] },
      { symbol: 'EURUSD', problems: ['mid is outside bid..ask'] },
      { symbol: 'ZERO', problems: ['bid is zero'] },
    ]);
  });

  it('takes a symbol sent twice at different prices as one that cannot be right; at numerically equal prices, as one quote', () => {
    const result = mergeBatches(['A', 'B'], [batch([q('A', '1.0', '1.2', '1.1'), q('B', '2', '3', '2.5'), q('A', '1.0', '1.2', '1.11'), q('B', '2.00', '3.0', '2.50')])], NOW);
    expect(result.data).toHaveLength(4);
    expect(result.unusable).toEqual([{ symbol: 'A', problems: ['sent twice at different prices (mid 1.1 and 1.11)'] }]);
  });

  it('compares a symbol sent twice with prices mkt does not read as they are written, at once (1e-1000000 read as a figure took all the memory)', () => {
    const result = mergeBatches(['A'], [batch([q('A', '1e-1000000', '1.2', '1.1'), q('A', '2e-1000000', '1.2', '1.1')])], NOW);
    expect(result.unusable).toEqual([{ symbol: 'A', problems: ['bid is out of range', 'sent twice at different prices (bid 1e-1000000 and 2e-1000000)'] }]);
  });

  it('judges a timestamp against the clock it is given: more than 10 s ahead cannot be right', () => {
    const result = mergeBatches(['A', 'B'], [batch([q('A', '1', '2', '1.5', '2026-01-05T14:31:10Z'), q('B', '1', '2', '1.5', '2026-01-05T14:31:11Z')])], NOW);
    expect(result.unusable).toEqual([{ symbol: 'B', problems: ['timestamp is 11s in the future'] }]);
  });
});
