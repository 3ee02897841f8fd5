// The valuation's public functions given what a careless or hostile caller gives them: a symbol sent
// twice with prices that are not numbers mkt reads, quotes with no symbol, roundings and rate digits
// out of range, timestamps written with a lower-case t, and a figure whose rounding carries. Each is
// a typed error or a figure worked out here, never an internal TypeError or a run without end.
import { describe, expect, it } from 'vitest';
import { FULL, figureText, OptionsError, valueExactly, valuationAt, valuePositions, type Position, type Quote } from '../../src/api/index.js';

const AT = '2026-01-05T14:30:00Z';
const NOW = Date.parse('2026-01-05T14:31:00Z');
const ONE_LOT: Position[] = [{ symbol: 'X', quantity: '1', currency: 'USD' }];
const quote = (symbol: string, bid: unknown, ask: unknown, mid: unknown, timestamp = AT) => ({ symbol, bid, ask, mid, timestamp }) as Quote;

describe('a symbol sent twice', () => {
  it.each([
    ['a number and the same as text', 1, '1', 'bid 1 (number) and 1'],
    ['null and an empty string', null, '', 'bid null and ""'],
    ['two exponents no valuation reads (1e-1000000, 2e-1000000)', '1e-1000000', '2e-1000000', 'bid 1e-1000000 and 2e-1000000'],
  ])('with bids %s: unusable, said by the price that differs, at once', (_name, first, second, said) => {
    const started = process.cpuUsage();
    const valuation = valuePositions({ positions: ONE_LOT, base: 'USD', now: NOW, quotes: [quote('X', first, '2', '1.5'), quote('X', second, '2', '1.5')] });
    expect(valuation.positions[0]!.status).toBe('unusable');
    expect(valuation.unusable[0]!.problems).toContain(`sent twice at different prices (${said})`);
    // Read as a figure, 1e-1000000 took 20 s and all the memory there was; compared as written, none of it.
    const { user, system } = process.cpuUsage(started);
    expect(user + system).toBeLessThan(2_000_000);
  });

  it('at numerically equal prices is one quote, and at a bid apart says the bid', () => {
    expect(valuePositions({ positions: ONE_LOT, base: 'USD', now: NOW, quotes: [quote('X', '1.0', '2', '1.5'), quote('X', '1.00', '2.0', '1.50')] }).positions[0]!.status).toBe('ok');
    const apart = valuePositions({ positions: ONE_LOT, base: 'USD', now: NOW, quotes: [quote('X', '1.0', '2', '1.5'), quote('X', '1.1', '2', '1.5')] });
    expect(apart.unusable).toEqual([{ symbol: 'X', problems: ['sent twice at different prices (bid 1.0 and 1.1)'] }]);
  });
});

describe('quotes by symbol', () => {
  it('a quote with no symbol of its own is an OptionsError, not a crash when its pair cannot be right', () => {
    const call = () => valuePositions({ positions: [{ symbol: 'EUR', quantity: '1', currency: 'EUR' }], base: 'USD', quotes: new Map([['EURUSD', { bid: '-1', ask: '1', mid: '1', timestamp: AT } as unknown as Quote]]) });
    expect(call).toThrow(OptionsError);
    expect(call).toThrow('quotes must be a Map of symbol to Quote');
  });
});

describe('valuationAt and figureText refuse what they cannot write', () => {
  const exact = valueExactly({ positions: [{ symbol: 'EUR', quantity: '1', currency: 'EUR' }], base: 'USD', now: NOW, quotes: [quote('USDEUR', '3', '3', '3')] });

  it.each([0, -1, 1.5, 35, '10'])('rateDigits %j: an OptionsError, where 0 wrote the rate 1/3 as "0"', (rateDigits) => {
    expect(() => valuationAt(exact, 'full', { rateDigits: rateDigits as number })).toThrow(OptionsError);
  });

  it('writes 1/3 at rateDigits 1 to 34, each a rounding of the exact rate', () => {
    expect(valuationAt(exact, 'full', { rateDigits: 1 }).fx[0]!.rate).toBe('0.3');
    expect(valuationAt(exact, 'full', { rateDigits: 34 }).fx[0]!.rate).toBe(`0.${'3'.repeat(34)}`);
  });

  it.each([[null], [{}], [{ positions: 'no' }]])('an exact valuation that is none (%j): an OptionsError', (given) => {
    expect(() => valuationAt(given as never, 'full')).toThrow(OptionsError);
  });

  it.each([
    ['significant 0', { significant: 0, keepPlaces: false }],
    ['significant 35', { significant: 35, keepPlaces: true }],
    ['places 1.5', { places: 1.5 }],
    ['places -1', { places: -1 }],
    ['no keepPlaces', { significant: 10 }],
    ['null', null],
  ])('figureText with a rounding of %s: an OptionsError, where significant 0 wrote "0"', (_name, rounding) => {
    expect(() => figureText({ n: 1n, d: 3n, places: 0 }, rounding as never)).toThrow(OptionsError);
  });

  it.each([
    ['d of zero', { n: 1n, d: 0n, places: 0 }],
    ['a number n', { n: 1, d: 3n, places: 0 }],
    ['places 1.5', { n: 1n, d: 3n, places: 1.5 }],
  ])('figureText of a figure with %s: an OptionsError', (_name, figure) => {
    expect(() => figureText(figure as never, FULL)).toThrow(OptionsError);
  });
});

describe('a rounding that carries', () => {
  // 1 - 10^-40 to 34 significant digits is 1 followed by 33 zeros: 34 digits, as decimal128 has it.
  const ROUNDED = `1.${'0'.repeat(33)}`;

  it('writes 34 significant digits at full, not 35', () => {
    expect(figureText({ n: 10n ** 40n - 1n, d: 10n ** 40n, places: 40 }, FULL)).toBe(ROUNDED);
    // 10^35 - 1, an integer: 10^35 written whole.
    expect(figureText({ n: 10n ** 35n - 1n, d: 1n, places: 0 }, FULL)).toBe(`1${'0'.repeat(35)}`);
    // 9.99…9 to 10 digits for a table's rate: 10.
    expect(figureText({ n: 10n ** 12n - 1n, d: 10n ** 11n, places: 0 }, { significant: 10, keepPlaces: false })).toBe('10');
  });

  it('in a valuation: a quantity of forty nines after the point, at price 1', () => {
    const valuation = valuePositions({ positions: [{ symbol: 'X', quantity: `0.${'9'.repeat(40)}`, currency: 'USD' }], base: 'USD', now: NOW, quotes: [quote('X', '1', '1', '1')] });
    expect(valuation.positions[0]!.value).toBe(ROUNDED);
    expect(valuation.total_base).toBe(ROUNDED);
  });
});

describe('as_of', () => {
  it.each([
    ['a lower-case t', '2026-01-05t09:00:00Z'],
    ['a lower-case z', '2026-01-05T09:00:00z'],
    ['an offset', '2026-01-05T10:00:00+01:00'],
  ])('is the oldest quote\'s timestamp, one written with %s among them', (_name, older) => {
    const positions: Position[] = [{ symbol: 'A', quantity: '1', currency: 'USD' }, { symbol: 'B', quantity: '1', currency: 'USD' }];
    for (const order of [[older, '2026-01-05T10:00:00Z'], ['2026-01-05T10:00:00Z', older]]) {
      const valuation = valuePositions({ positions, base: 'USD', now: NOW, quotes: [quote('A', '1', '1', '1', order[0]), quote('B', '1', '1', '1', order[1])] });
      expect(valuation.as_of).toBe(older);
    }
  });
});
