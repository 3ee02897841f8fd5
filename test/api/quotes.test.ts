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
