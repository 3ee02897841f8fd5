import { describe, expect, it } from 'vitest';
import { JsonNumber, parseJsonExact } from '../../src/api/json.js';
import { parseQuotes } from '../../src/api/quotes.js';

describe('exact JSON parsing', () => {
  it('keeps the source text of every number', async () => {
    const value = await parseJsonExact('{"a": 227.10, "b": 1.084150000000000001, "c": 0.00000001, "d": 1E-8, "e": [5, -0.0]}') as Record<string, unknown>;
    expect(value.a).toEqual(new JsonNumber('227.10'));
    expect((value.b as JsonNumber).source).toBe('1.084150000000000001');
    expect((value.c as JsonNumber).source).toBe('0.00000001');
    expect((value.d as JsonNumber).source).toBe('1E-8');
    expect((value.e as JsonNumber[]).map((n) => n.source)).toEqual(['5', '-0.0']);
  });

  it('rejects invalid JSON like JSON.parse does', async () => {
    await expect(parseJsonExact('{"data": [')).rejects.toThrow();
    await expect(parseJsonExact('<html>')).rejects.toThrow();
  });

  it('takes the last of duplicate keys, as JSON.parse does', async () => {
    expect(await parseJsonExact('{"a": "x", "a": "y"}')).toEqual({ a: 'y' });
  });
});

describe('parseQuotes', () => {
  const url = 'http://127.0.0.1:1/v1/market/quotes?symbols=EURUSD';
  const good = { symbol: 'EURUSD', bid: new JsonNumber('1.08505'), ask: new JsonNumber('1.08508'), mid: new JsonNumber('1.085065'), timestamp: '2026-11-22T12:00:00.000Z' };

  it('reads quotes, keeping digits and tolerating extra fields and numeric strings', () => {
    const quotes = parseQuotes({ data: [{ ...good, venue: 'EBS' }, { ...good, symbol: 'AAPL', bid: '227.10' }], meta: {} }, url);
    expect(quotes).toEqual([
      { symbol: 'EURUSD', bid: '1.08505', ask: '1.08508', mid: '1.085065', timestamp: '2026-11-22T12:00:00.000Z' },
      { symbol: 'AAPL', bid: '227.10', ask: '1.08508', mid: '1.085065', timestamp: '2026-11-22T12:00:00.000Z' },
    ]);
  });

  it.each([
    ['not an object', [1, 2], /not a JSON object/],
    ['no data', { quotes: [] }, /without a "data" field/],
    ['data not an array', { data: {} }, /"data" field that is not an array/],
    ['a quote that is a string', { data: ['EURUSD'] }, /quote 1 that is not an object/],
    ['a missing symbol', { data: [{ ...good, symbol: undefined }] }, /quote 1 without a symbol/],
    ['a missing bid', { data: [{ ...good, bid: undefined }] }, /\(EURUSD\) without bid/],
    ['a price that is not numeric', { data: [{ ...good, ask: 'abc' }] }, /ask that is not a number \("abc"\)/],
    ['a price that is a boolean', { data: [{ ...good, mid: true }] }, /mid that is not a number \(true\)/],
    ['a price that is null', { data: [{ ...good, bid: null }] }, /bid that is not a number \(null\)/],
    ['a timestamp that is not ISO 8601', { data: [{ ...good, timestamp: 'yesterday' }] }, /not ISO 8601 \(yesterday\)/],
    ['a timestamp that is a number', { data: [{ ...good, timestamp: new JsonNumber('1700000000') }] }, /timestamp that is not a string/],
    ['an impossible date', { data: [{ ...good, timestamp: '2026-13-45T99:00:00Z' }] }, /not ISO 8601/],
  ])('refuses %s', (_name, body, message) => {
    expect(() => parseQuotes(body, url)).toThrow(message);
  });

  it('names the bad field without echoing control characters', () => {
    expect(() => parseQuotes({ data: [{ ...good, symbol: 'EV\u001bIL', bid: 'x' }] }, url)).toThrow(/\(EVIL\)/);
  });
});
