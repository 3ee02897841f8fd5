import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonNumber, parseJsonExact } from '../../src/api/json.js';
import { parseQuotes } from '../../src/api/parse-quotes.js';

describe('exact JSON parsing', () => {
  it('keeps the source text of every number', () => {
    const value = parseJsonExact('{"a": 227.10, "b": 1.084150000000000001, "c": 0.00000001, "d": 1E-8, "e": [5, -0.0]}') as Record<string, unknown>;
    expect(value.a).toEqual(new JsonNumber('227.10'));
    expect((value.b as JsonNumber).source).toBe('1.084150000000000001');
    expect((value.c as JsonNumber).source).toBe('0.00000001');
    expect((value.d as JsonNumber).source).toBe('1E-8');
    expect((value.e as JsonNumber[]).map((n) => n.source)).toEqual(['5', '-0.0']);
  });

  it.each([
    ['cut off', '{"data": [', /not valid JSON at position 10/],
    ['HTML', '<html>', /not valid JSON at position 0/],
    ['a bare secret', 'SECRETTOKENVALUE0123456789', /not valid JSON at position 0/],
    ['nesting too deep for the stack', `${'['.repeat(200_000)}1${']'.repeat(200_000)}`, /not valid JSON/],
  ])('refuses %s with a position, never a piece of the text', (_name, text, message) => {
    expect(() => parseJsonExact(text)).toThrow(message);
    try {
      parseJsonExact(text);
    } catch (error) {
      expect(error).toBeInstanceOf(SyntaxError);
      expect((error as Error).message).not.toMatch(/SECRET|html|\[\[/);
    }
  });

  it('refuses a member name given twice with different values (JSON.parse would keep the last)', () => {
    expect(() => parseJsonExact('{"symbol": "EURUSD", "bid": 1, "symbol": "AAPL"}')).toThrow(/appears twice/);
    expect(parseJsonExact('{"a": 1.0, "a": 1.0}')).toEqual({ a: new JsonNumber('1.0') });
  });

  const whitespace = fc.constantFrom('', ' ', '\n  ', '\t');
  const numberText = fc.tuple(fc.boolean(), fc.nat({ max: 999 }), fc.option(fc.string({ unit: fc.constantFrom('0', '1', '5'), minLength: 1, maxLength: 4 }), { nil: undefined }),
    fc.option(fc.integer({ min: -20, max: 20 }), { nil: undefined }))
    .map(([negative, int, fraction, exponent]) => `${negative ? '-' : ''}${int}${fraction === undefined ? '' : `.${fraction}`}${exponent === undefined ? '' : `e${exponent}`}`);
  const stringText = fc.constantFrom('x', '":1', '"\\":2', '[3', ',4', 'a,5', '\\', '', 'bid', '1').map((value) => JSON.stringify(value));
  const keyText = fc.constantFrom('a', 'b', 'bid', '0', '7', '":1', 'x y');
  const { value: jsonText } = fc.letrec<{ value: string }>((tie) => ({
    value: fc.oneof({ depthSize: 'small', withCrossShrink: true },
      numberText, stringText, fc.constantFrom('true', 'false', 'null'),
      fc.array(tie('value'), { maxLength: 4 }).chain((items) => whitespace.map((space) => `[${space}${items.join(`${space},${space}`)}${space}]`)),
      fc.uniqueArray(fc.tuple(keyText, tie('value'), whitespace), { maxLength: 4, selector: ([key]) => key })
        .map((members) => `{${members.map(([key, item, space]) => `${space}${JSON.stringify(key)}${space}:${space}${item}`).join(',')}}`)),
  }));
  const asNumbers = (value: unknown): unknown => {
    if (value instanceof JsonNumber) return Number(value.source);
    if (Array.isArray(value)) return value.map(asNumbers);
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, asNumbers(item)]));
    return value;
  };

  it('reads any JSON text as JSON.parse does, numbers apart', () => {
    fc.assert(fc.property(jsonText, (text) => {
      expect(asNumbers(parseJsonExact(text))).toEqual(JSON.parse(text));
    }), { numRuns: 3000 });
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

  it('takes a timestamp exactly when it has the form and Date.parse reads it as an instant', () => {
    const form = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/;
    const two = (n: number) => String(n).padStart(2, '0');
    const timestamps = Array.from({ length: 100 }, (_, a) => Array.from({ length: 100 }, (_, b) => [
      `2026-${two(a)}-${two(b)}T12:00:00Z`, `2026-01-01T${two(a)}:${two(b)}:00Z`, `2026-01-01T${two(a)}:00:${two(b)}.5Z`, `2026-01-01T${two(a)}:${two(b)}Z`,
      `2026-01-01T12:00:00+${two(a)}:${two(b)}`, `2026-01-01T12:00-${two(a)}${two(b)}`, `2026-01-01T24:${two(a)}:${two(b)}.0Z`,
    ])).flat(2);
    timestamps.push('2026-01-01T24:00:00.000Z', '2026-01-01T24:00:00.001Z', '2026-01-01T24:00+01:00', '0000-02-29T00:00:00.123456789Z');
    for (const timestamp of timestamps) {
      const readable = form.test(timestamp) && !Number.isNaN(Date.parse(timestamp));
      const taken = (() => {
        try {
          return parseQuotes({ data: [{ ...good, timestamp }] }, url).length === 1;
        } catch {
          return false;
        }
      })();
      if (taken !== readable) expect.fail(`${timestamp}: parseQuotes ${taken ? 'takes' : 'refuses'} it, Date.parse ${readable ? 'reads' : 'does not read'} it`);
    }
  });

  it('names the bad field without echoing control characters', () => {
    expect(() => parseQuotes({ data: [{ ...good, symbol: 'EV\u001bIL', bid: 'x' }] }, url)).toThrow(/\(EVIL\)/);
  });
});
