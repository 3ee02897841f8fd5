import { describe, expect, it } from 'vitest';
import { quoteProblems, symbolProblems } from '../../src/api/quote-checks.js';
import type { Quote } from '../../src/api/types.js';

const now = Date.UTC(2026, 10, 23, 12, 0, 0);
const good: Quote = { symbol: 'EURUSD', bid: '1.08505', ask: '1.08508', mid: '1.085065', timestamp: '2026-11-23T11:59:58.123Z' };

describe('quoteProblems', () => {
  it.each([
    ['an ordinary quote', good],
    ['a crossed quote with the mid between', { ...good, bid: '1.2', ask: '1.1', mid: '1.15' }],
    ['exponent notation in range', { ...good, bid: '1.0E-8', ask: '3e-8', mid: '2E-8' }],
    ['nanoseconds and an offset', { ...good, timestamp: '2026-11-23T13:59:58.123456789+02:00' }],
    ['29 February of a leap year', { ...good, timestamp: '2024-02-29T00:00:00Z' }],
    ['a timestamp 10 s ahead: within the clock-skew allowance', { ...good, timestamp: '2026-11-23T12:00:10Z' }],
    ['a symbol with =, +, - and @ after its first character', { ...good, symbol: 'A=B+C-D@E' }],
  ])('finds nothing wrong with %s', (_name, quote) => {
    expect(quoteProblems(quote, now)).toEqual([]);
  });

  it.each([
    ['a price of 1e999', { ...good, ask: '1e999', mid: '1' }, ['ask is out of range', 'mid is outside bid..ask']],
    ['a price of 1e-999', { ...good, bid: '1e-999', mid: '1e-999' }, ['bid is out of range', 'mid is out of range']],
    ['a negative price', { ...good, bid: '-1.08505', mid: '1.08' }, ['bid is negative']],
    ['zero prices', { ...good, bid: '0', ask: '0.0', mid: '-0.0' }, ['bid is zero', 'ask is zero', 'mid is zero']],
    ['a bid and ask of -100 and -99', { ...good, bid: '-100', ask: '-99', mid: '-99.5' }, ['bid is negative', 'ask is negative', 'mid is negative']],
    ['a price of 150 significant digits', { ...good, bid: `1.${'1'.repeat(149)}`, ask: '1.2', mid: '1.15' }, ['bid has 150 significant digits; at most 100 are read']],
    ['a price of 101 decimal places', { ...good, bid: `1.${'0'.repeat(101)}`, ask: '1.2', mid: '1.15' }, ['bid has 101 decimal places; at most 100 are read']],
    ['a mid outside by 1e-20, which a double cannot tell', { ...good, bid: '1.08505', ask: '1.08508', mid: '1.08508000000000000001' }, ['mid is outside bid..ask']],
    ['a mid above the ask', { ...good, mid: '1.09' }, ['mid is outside bid..ask']],
    ['a mid below the bid', { ...good, mid: '1.08504999999' }, ['mid is outside bid..ask']],
    ['a day that does not exist', { ...good, timestamp: '2026-02-30T00:00:00Z' }, ['timestamp names a day that does not exist']],
    ['twelve fraction digits', { ...good, timestamp: '9999-12-31T23:59:59.999999999999+23:59' }, ['timestamp is not an RFC 3339 date-time']],
    ['year 9999', { ...good, timestamp: '9999-12-31T23:59:59Z' }, ['timestamp is 2912116d in the future']],
    ['a timestamp 23 hours ahead', { ...good, timestamp: '2026-11-24T11:00:00Z' }, ['timestamp is 23h in the future']],
    ['a timestamp 11 s ahead, past the 10 s clock-skew allowance', { ...good, timestamp: '2026-11-23T12:00:11Z' }, ['timestamp is 11s in the future']],
    ['an offset of 24 hours', { ...good, timestamp: '2026-11-23T12:00:00+24:00' }, ['timestamp is not an RFC 3339 date-time']],
    ...['=', '+', '-', '@'].map((first): [string, Quote, string[]] => [`a symbol that starts with ${first}`, { ...good, symbol: `${first}EURUSD` }, [`symbol starts with ${first}`]]),
  ])('names %s', (_name, quote, problems) => {
    expect(quoteProblems(quote, now)).toEqual(problems);
  });
});

describe('quoteProblems judges a timestamp at the instant it is given', () => {
  it('the same timestamp is in the future at one instant and not at a later one, judged in either order', () => {
    const ahead = { ...good, timestamp: '2026-11-23T12:01:00Z' };
    const later = now + 120_000;
    expect(quoteProblems(ahead, now)).toEqual(['timestamp is 1m in the future']);
    expect(quoteProblems(ahead, later)).toEqual([]);
    expect(quoteProblems(ahead, now)).toEqual(['timestamp is 1m in the future']);
    expect(quoteProblems(ahead)).toEqual([]);
  });

  it('mid against bid and ask exactly where their doubles tie', () => {
    // 0.1 + 1e-20 and 0.1 are one double: the exact comparison decides.
    expect(quoteProblems({ ...good, bid: '0.1', ask: '0.2', mid: '0.10000000000000000001' }, now)).toEqual([]);
    expect(quoteProblems({ ...good, bid: '0.10000000000000000001', ask: '0.2', mid: '0.1' }, now)).toEqual(['mid is outside bid..ask']);
  });
});

describe('symbolProblems: one verdict on a symbol sent more than once', () => {
  const NOW = Date.parse('2026-11-29T12:00:00Z');
  const at = (mid: string, timestamp = '2026-11-29T11:59:00Z'): Quote => ({ symbol: 'AAPL', bid: mid, ask: mid, mid, timestamp });

  it.each<[string, Quote, Quote[], string[]]>([
    ['alike, both good: nothing', at('227.10'), [at('227.1')], []],
    ['alike, the later one from the future', at('227.10'), [at('227.10', '2026-11-29T13:00:00Z')], ['timestamp is 1h in the future']],
    ['at another price: the first such difference', at('227.10'), [at('227.10'), at('227.11'), at('228')], ['sent twice at different prices (mid 227.10 and 227.11)']],
    ['the first\'s problems first, each said once', at('-1'), [at('-1'), at('0')], ['bid is negative', 'ask is negative', 'mid is negative', 'sent twice at different prices (mid -1 and 0)', 'bid is zero', 'ask is zero', 'mid is zero']],
  ])('%s', (_name, first, later, problems) => {
    expect(symbolProblems(first, later, NOW)).toEqual(problems);
  });
});
