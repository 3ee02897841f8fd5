import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { merge, mergeByRequest, type BatchResult } from '../../src/api/quotes.js';
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
