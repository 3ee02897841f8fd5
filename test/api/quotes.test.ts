import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJsonExact } from '../../src/api/json.js';
import { getQuotes, merge, mergeByRequest, parseQuotes, readCompactQuotes, type BatchResult } from '../../src/api/quotes.js';
import { getToken, startTestSandbox } from '../helpers/sandbox.js';
import type { Quote } from '../../src/api/types.js';

const quote = (symbol: string, bid = '1.0'): Quote => ({ symbol, bid, ask: '1.1', mid: '1.05', timestamp: '2026-11-22T12:00:00.000Z' });
const batch = (quotes: Quote[]): BatchResult => ({ quotes, attempts: 1, rateLimit: undefined });

describe('merging batches', () => {
  it('keeps the order asked when the service answers in order', () => {
    const result = merge(['A', 'B', 'C'], [batch([quote('A'), quote('B')]), batch([quote('C')])]);
    expect(result.data.map((q) => q.symbol)).toEqual(['A', 'B', 'C']);
    expect(result).toMatchObject({ missing: [], requests: 2, attempts: 2 });
  });

  it.each([
    ['answered out of order', ['A', 'B'], [[quote('B'), quote('A')]], ['A', 'B'], []],
    ['one missing', ['A', 'B', 'C'], [[quote('A'), quote('C')]], ['A', 'C'], ['B']],
    ['asked twice', ['A', 'B', 'a'], [[quote('A'), quote('B'), quote('A', '2.0')]], ['A', 'A', 'B'], []],
    ['sent unasked', ['A'], [[quote('A'), quote('Z')]], ['A', 'Z'], []],
    ['in another case', ['eurusd'], [[quote('EURUSD')]], ['EURUSD'], []],
  ])('%s', (_name, symbols, batches, order, missing) => {
    const result = merge(symbols, batches.map(batch));
    expect(result.data.map((q) => q.symbol)).toEqual(order);
    expect(result.missing).toEqual(missing);
  });

  // The shortcut for answers in order must give exactly what the general merge gives, or step aside.
  it('gives what the general merge gives, for any answer', () => {
    const symbol = fc.constantFrom('A', 'B', 'C', 'D', 'a', 'b');
    fc.assert(fc.property(
      fc.array(symbol, { maxLength: 8 }),
      fc.array(fc.array(fc.tuple(symbol, fc.constantFrom('1.0', '2.0')), { maxLength: 5 }), { maxLength: 3 }),
      (symbols, answers) => {
        const batches = answers.map((quotes) => batch(quotes.map(([name, bid]) => quote(name, bid))));
        const { data, missing } = merge(symbols, batches);
        expect({ data, missing }).toEqual(mergeByRequest(symbols, batches));
      },
    ), { numRuns: 3000 });
  });

  it('keeps 250 symbols in order across batches', () => {
    const symbols = Array.from({ length: 250 }, (_, i) => `S${i}`);
    const batches = [batch(symbols.slice(0, 100).map((s) => quote(s))), batch(symbols.slice(100).map((s) => quote(s)))];
    expect(merge(symbols, batches).data.map((q) => q.symbol)).toEqual(symbols);
  });
});

describe('reading a compact quotes body', () => {
  const url = 'http://127.0.0.1:1/v1/market/quotes?symbols=A';
  const general = async (text: string) => {
    try {
      return parseQuotes(await parseJsonExact(text), url);
    } catch {
      return 'error';
    }
  };
  const compact = (quotes: Array<Record<string, string>>) => `{"data":[${quotes.map((q) =>
    `{"symbol":${JSON.stringify(q.symbol)},"bid":${q.bid},"ask":${q.ask},"mid":${q.mid},"timestamp":${JSON.stringify(q.timestamp)}}`).join(',')}]}`;

  it('reads what JSON.stringify writes, keeping every digit', () => {
    const text = compact([{ symbol: 'EURUSD', bid: '1.08500', ask: '1.084150000000000001', mid: '1E-8', timestamp: '2026-11-22T12:00:00.000Z' }]);
    expect(readCompactQuotes(text)).toEqual([{ symbol: 'EURUSD', bid: '1.08500', ask: '1.084150000000000001', mid: '1E-8', timestamp: '2026-11-22T12:00:00.000Z' }]);
    expect(readCompactQuotes('{"data":[]}\n')).toEqual([]);
  });

  it.each([
    ['spaces', '{"data": [{"symbol":"A","bid":1,"ask":1,"mid":1,"timestamp":"2026-11-22T12:00:00Z"}]}'],
    ['another field', '{"data":[{"symbol":"A","bid":1,"ask":1,"mid":1,"timestamp":"2026-11-22T12:00:00Z","venue":"X"}]}'],
    ['an escape', '{"data":[{"symbol":"A\\u0041","bid":1,"ask":1,"mid":1,"timestamp":"2026-11-22T12:00:00Z"}]}'],
    ['a price as a string', '{"data":[{"symbol":"A","bid":"1","ask":1,"mid":1,"timestamp":"2026-11-22T12:00:00Z"}]}'],
    ['a long exponent', '{"data":[{"symbol":"A","bid":1e1000,"ask":1,"mid":1,"timestamp":"2026-11-22T12:00:00Z"}]}'],
    ['a date that is not one', '{"data":[{"symbol":"A","bid":1,"ask":1,"mid":1,"timestamp":"2026-13-45T12:00:00Z"}]}'],
    ['a blank symbol', '{"data":[{"symbol":" ","bid":1,"ask":1,"mid":1,"timestamp":"2026-11-22T12:00:00Z"}]}'],
    ['more after the data', '{"data":[{"symbol":"A","bid":1,"ask":1,"mid":1,"timestamp":"2026-11-22T12:00:00Z"}],"meta":{}}'],
    ['cut off', '{"data":[{"symbol":"A","bid":1,"ask":1,"mid":1,"timestamp":"2026-11-22T12:00:00Z"},'],
  ])('leaves the general way to read %s', (_name, text) => {
    expect(readCompactQuotes(text)).toBeUndefined();
  });

  // Whatever the compact reader returns, the general way (JSON.parse, exact numbers, parseQuotes)
  // returns too; where they would differ, it steps aside.
  it('gives what the general way gives, for any body near the compact form', async () => {
    // Mostly what a service sends, sometimes what it should not.
    const odd = fc.constantFrom(' ', '', '\\"', '\\u00e9', '01', '.5', '1E-999', 'x', ',', '"', '}', ']', '2026-11-22T12:00Z', '2026-13-45T00:00:00Z');
    const choose = (usual: fc.Arbitrary<string>) => fc.oneof({ weight: 6, arbitrary: usual }, { weight: 1, arbitrary: odd });
    const quote = fc.record({
      symbol: choose(fc.constantFrom('A', 'EURUSD', 'é', 'a b', 'A\u007f')),
      bid: choose(fc.constantFrom('1.50', '-0.0', '1e5', '0', '227.10', '1.084150000000000001')),
      ask: choose(fc.constantFrom('1.50', '2', '3.0E-3')),
      mid: choose(fc.constantFrom('1.75', '0.5')),
      timestamp: choose(fc.constantFrom('2026-11-22T12:00:00.000Z', '2026-11-22T12:00:00+01:00', '2026-11-22T12:00Z')),
    });
    let read = 0;
    await fc.assert(fc.asyncProperty(fc.array(quote, { maxLength: 3 }), fc.constantFrom('', '\n', ' x'), async (quotes, tail) => {
      const text = `{"data":[${quotes.map((q) => `{"symbol":"${q.symbol}","bid":${q.bid},"ask":${q.ask},"mid":${q.mid},"timestamp":"${q.timestamp}"}`).join(',')}]}${tail}`;
      const fast = readCompactQuotes(text);
      if (fast !== undefined) {
        read++;
        expect(fast).toEqual(await general(text));
      }
    }), { numRuns: 5000 });
    expect(read).toBeGreaterThan(500);
    // And the compact reader does read the bodies the sandbox sends.
    expect(readCompactQuotes(compact([{ symbol: 'A', bid: '1', ask: '2', mid: '1.5', timestamp: '2026-11-22T12:00:00Z' }]))).toHaveLength(1);
  });
});

describe('getQuotes', () => {
  it('hands each batch to onBatch as it arrives, with its place, and still returns the whole', async () => {
    const sandbox = await startTestSandbox({ synthetic: 50 });
    try {
      const symbols = Array.from({ length: 25 }, (_, i) => `SYN${String(i + 1).padStart(5, '0')}`);
      const seen: Array<[number, string[]]> = [];
      const result = await getQuotes({}, {
        baseUrl: sandbox.url, accessToken: await getToken(sandbox.url), organizationId: 'org_demo', symbols, batchSize: 10, concurrency: 3,
        onBatch: (index, quotes) => seen.push([index, quotes.map((quote) => quote.symbol)]),
      });
      expect(seen.sort(([a], [b]) => a - b)).toEqual([[0, symbols.slice(0, 10)], [1, symbols.slice(10, 20)], [2, symbols.slice(20)]]);
      expect(result.data.map((quote) => quote.symbol)).toEqual(symbols);
    } finally {
      await sandbox.close();
    }
  });
});

