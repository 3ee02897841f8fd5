// valuePositions against hand-made quotes: every expected figure is a literal worked by hand or the
// tests' own BigInt arithmetic (decimal-oracle.ts), never the module under test.
import { describe, expect, it } from 'vitest';
import { RATE_DIGITS } from '../../src/api/fx.js';
import { OptionsError } from '../../src/api/errors.js';
import type { Position } from '../../src/api/positions.js';
import { PositionsError } from '../../src/api/positions-error.js';
import type { Quote } from '../../src/api/types.js';
import { valuePositions, type Valuation, type ValuedPosition } from '../../src/api/valuation.js';
import { dec, divide, mul, same, sub, sum } from '../helpers/decimal-oracle.js';

const quote = (symbol: string, bid: string, ask: string, mid: string): Quote => ({ symbol, bid, ask, mid, timestamp: '2026-01-05T14:30:00.000Z' });

const QUOTES: Quote[] = [
  quote('AAPL', '227.10', '227.12', '227.11'),
  quote('VOD.L', '72.48', '72.52', '72.50'),
  quote('SAP.DE', '231.35', '231.45', '231.40'),
  quote('7203.T', '2850.0', '2850.5', '2850.25'),
  quote('RY.TO', '165.30', '165.32', '165.31'),
  quote('TINY', '0.29', '0.31', '0.30'),
  quote('EURUSD', '1.08412', '1.08418', '1.08415'),
  quote('GBPUSD', '1.27148', '1.27153', '1.271505'),
  quote('USDJPY', '151.417', '151.423', '151.420'),
  quote('USDCAD', '1.36238', '1.36242', '1.36240'),
  quote('EURGBP', '0.85288', '0.85292', '0.85290'),
];

const pos = (symbol: string, quantity: string, currency: string, cost?: string): Position => (cost === undefined ? { symbol, quantity, currency } : { symbol, quantity, currency, cost });

/** The number of places of plain decimal text. */
const places = (text: string) => dec(text).scale;

/** Checks what every valuation must satisfy, with the tests' own arithmetic. */
function checkInvariants(valuation: Valuation): void {
  const shown = (values: Array<string | null | undefined>) => values.filter((value): value is string => typeof value === 'string');
  for (const p of valuation.positions) {
    if (p.price !== null) expect(p.value).toBe(mul(p.price, p.quantity));
    if (p.value !== null && p.rate !== null) {
      expect(same(p.value_base!, mul(p.value, p.rate))).toBe(true);
      // A converted value keeps at least the value's places.
      expect(places(p.value_base!)).toBeGreaterThanOrEqual(places(p.value));
    }
    if (p.cost !== undefined && p.price !== null) expect(p.pnl).toBe(mul(sub(p.price, p.cost), p.quantity));
  }
  // Every total is the exact sum of the values shown, digit for digit.
  expect(valuation.total_base).toBe(sum(shown(valuation.positions.map((p) => p.value_base))));
  if (valuation.total_pnl_base !== undefined) expect(valuation.total_pnl_base).toBe(sum(shown(valuation.positions.map((p) => p.pnl_base))));
  for (const total of valuation.totals) {
    const mine = valuation.positions.filter((p) => p.currency === total.currency);
    expect(total.positions).toBe(mine.length);
    expect(total.value).toBe(sum(shown(mine.map((p) => p.value))));
    if (total.value_base !== null) expect(total.value_base).toBe(sum(shown(mine.map((p) => p.value_base))));
    if (total.pnl !== undefined) expect(total.pnl).toBe(sum(shown(mine.map((p) => p.pnl))));
  }
  // The document is plain data: it survives JSON whole.
  expect(JSON.parse(JSON.stringify(valuation))).toEqual(valuation);
}

describe('valuePositions: a portfolio in four currencies, valued in USD at the mid', () => {
  const positions = [
    pos('AAPL', '10', 'USD', '200.5'),
    pos('VOD.L', '1000', 'GBX'),
    pos('SAP.DE', '20', 'EUR', '250'),
    pos('7203.T', '100', 'JPY'),
    pos('EUR', '2500.75', 'EUR'),
    pos('USD', '1000.50', 'USD'),
  ];
  const valuation = valuePositions({ positions, quotes: QUOTES, base: 'USD' });
  const [aapl, vod, sap, toyota, eur, usd] = valuation.positions as [ValuedPosition, ValuedPosition, ValuedPosition, ValuedPosition, ValuedPosition, ValuedPosition];

  it('values each position at price × quantity, in its own currency', () => {
    expect(aapl).toMatchObject({ symbol: 'AAPL', quantity: '10', currency: 'USD', price: '227.11', value: '2271.10', rate: '1', value_base: '2271.10', status: 'ok' });
    expect(vod).toMatchObject({ price: '72.50', value: '72500.00' });
    expect(sap).toMatchObject({ price: '231.40', value: '4628.00' });
    expect(toyota).toMatchObject({ price: '2850.25', value: '285025.00' });
    checkInvariants(valuation);
  });

  it('converts pence exactly: GBX is GBP / 100, then GBPUSD', () => {
    // 72500.00 GBX = 725.0000 GBP; × 1.271505 = 921.841125 USD (by hand).
    expect(vod).toMatchObject({ currency: 'GBX', rate: '0.01271505', value_base: '921.841125' });
  });

  it('converts EUR at EURUSD directly, exactly', () => {
    // 4628.00 × 1.08415 = 5017.4462 (by hand).
    expect(sap).toMatchObject({ rate: '1.08415', value_base: '5017.4462' });
  });

  it('converts JPY through the inverse of USDJPY, rounded half-even to 34 digits, then exactly', () => {
    const rate = divide('1', '151.420', RATE_DIGITS);
    expect(rate).toBe('0.006604147404570070003962488442742042');
    expect(toyota.rate).toBe(rate);
    expect(same(toyota.value_base!, mul('285025.00', rate))).toBe(true);
    expect(valuation.fx).toContainEqual({ from: 'JPY', to: 'USD', rate, method: 'inverse', pairs: ['USDJPY'], formula: '1/USDJPY', rounded: true });
  });

  it('values cash rows at 1, with no quote, and converts foreign cash', () => {
    expect(eur).toMatchObject({ symbol: 'EUR', price: '1', value: '2500.75', rate: '1.08415', value_base: mul('2500.75', '1.08415') });
    expect(usd).toMatchObject({ symbol: 'USD', price: '1', value: '1000.50', rate: '1', value_base: '1000.50' });
    // 2500.75 × 1.08415 = 2711.1880625 (by hand)
    expect(eur.value_base).toBe('2711.1881125');
  });

  it('gives P&L, (price - cost) × quantity, where a cost is given', () => {
    expect(aapl).toMatchObject({ cost: '200.5', pnl: '266.10', pnl_base: '266.10' });
    // (231.40 - 250) × 20 = -372.00 EUR; × 1.08415 = -403.3038 USD
    expect(sap).toMatchObject({ cost: '250', pnl: '-372.00', pnl_base: '-403.3038' });
    expect(vod).not.toHaveProperty('cost');
    expect(vod).not.toHaveProperty('pnl');
    expect(valuation.total_pnl_base).toBe('-137.2038');
  });

  it('totals each currency and the whole in USD, as exact sums of the values shown', () => {
    expect(valuation.totals.map((total) => total.currency)).toEqual(['USD', 'GBX', 'EUR', 'JPY']);
    expect(valuation.totals[0]).toEqual({ currency: 'USD', positions: 2, value: '3271.60', value_base: '3271.60', pnl: '266.10', pnl_base: '266.10', incomplete: false });
    expect(valuation.totals[2]).toMatchObject({ currency: 'EUR', positions: 2, value: '7128.75', value_base: sum([sap.value_base!, eur.value_base!]) });
    expect(valuation.totals[1]).not.toHaveProperty('pnl');
    expect(valuation.total_base).toBe(sum([aapl, vod, sap, toyota, eur, usd].map((p) => p.value_base!)));
    expect(valuation).toMatchObject({ base: 'USD', price: 'mid', missing: [], no_route: [], incomplete: false });
  });

  it('lists each rate once, in the order first needed', () => {
    expect(valuation.fx.map((rate) => `${rate.from}${rate.to} ${rate.formula}`)).toEqual(['GBPUSD GBPUSD', 'EURUSD EURUSD', 'JPYUSD 1/USDJPY']);
  });
});

describe('valuePositions: the price rule', () => {
  const positions = [pos('AAPL', '10', 'USD'), pos('AAPL', '-4', 'USD'), pos('AAPL', '0', 'USD'), pos('AAPL', '-0', 'USD')];

  it.each([
    ['mid', ['227.11', '227.11', '227.11', '227.11']],
    ['bid', ['227.10', '227.10', '227.10', '227.10']],
    ['ask', ['227.12', '227.12', '227.12', '227.12']],
    // side: a long at the bid, a short at the ask, nothing held at the mid.
    ['side', ['227.10', '227.12', '227.11', '227.11']],
  ] as const)('%s prices the lots at %j', (rule, prices) => {
    const valuation = valuePositions({ positions, quotes: QUOTES, base: 'USD', price: rule });
    expect(valuation.price).toBe(rule);
    expect(valuation.positions.map((p) => p.price)).toEqual(prices);
    expect(valuation.positions.map((p) => p.value)).toEqual(prices.map((price, i) => mul(price, positions[i]!.quantity)));
    expect(valuation.positions[3]!.value).not.toMatch(/^-/);
    checkInvariants(valuation);
  });

  it('values a short at the ask with side: -4 × 227.12 = -908.48, and its P&L', () => {
    const valuation = valuePositions({ positions: [pos('AAPL', '-4', 'USD', '230')], quotes: QUOTES, base: 'USD', price: 'side' });
    // (227.12 - 230) × -4 = 11.52: a short gains as the price falls.
    expect(valuation.positions[0]).toMatchObject({ price: '227.12', value: '-908.48', pnl: '11.52', pnl_base: '11.52' });
  });

  it('uses mid FX rates whatever the price rule', () => {
    const valuation = valuePositions({ positions: [pos('SAP.DE', '-20', 'EUR')], quotes: QUOTES, base: 'USD', price: 'side' });
    expect(valuation.positions[0]).toMatchObject({ price: '231.45', rate: '1.08415' });
  });
});

describe('valuePositions: exactness where floating point fails', () => {
  it('0.1 × 0.30 is 0.030, and lots of 0.1 and 0.2 add to 0.3', () => {
    const valuation = valuePositions({
      positions: [pos('TINY', '0.1', 'USD'), pos('USD', '0.1', 'USD'), pos('USD', '0.2', 'USD')],
      quotes: QUOTES, base: 'USD',
    });
    expect(valuation.positions[0]).toMatchObject({ price: '0.30', value: '0.030', value_base: '0.030' });
    expect(0.1 + 0.2 + 0.03).not.toBe(0.33);
    expect(valuation.totals[0]!.value).toBe('0.330');
    expect(valuation.total_base).toBe('0.330');
  });

  it('keeps every digit of long quantities and prices', () => {
    const quotes = [quote('LONG', '1.084150000000000001', '1.084150000000000003', '1.084150000000000002')];
    const valuation = valuePositions({ positions: [pos('LONG', '123456789012345678.9', 'USD')], quotes, base: 'USD' });
    expect(valuation.positions[0]!.value).toBe(mul('1.084150000000000002', '123456789012345678.9'));
    expect(valuation.positions[0]!.value).toBe('133845677807734568.0263485780246913578');
  });
});

describe('valuePositions: lots, pence and bases', () => {
  it('values several lots of one symbol apart, each with its own cost', () => {
    const positions = [pos('AAPL', '10', 'USD', '150'), pos('AAPL', '5', 'USD', '240.25'), pos('aapl', '-3', 'USD')];
    const valuation = valuePositions({ positions, quotes: QUOTES, base: 'USD' });
    expect(valuation.positions.map((p) => [p.symbol, p.value, p.pnl])).toEqual([
      ['AAPL', '2271.10', '771.10'], ['AAPL', '1135.55', '-65.70'], ['aapl', '-681.33', undefined],
    ]);
    expect(valuation.totals).toEqual([{ currency: 'USD', positions: 3, value: '2725.32', value_base: '2725.32', pnl: '705.40', pnl_base: '705.40', incomplete: false }]);
    checkInvariants(valuation);
  });

  it('takes GBX and GBp alike, and GBP apart; in base GBP pence are exact hundredths', () => {
    const positions = [pos('VOD.L', '1000', 'GBX'), pos('VOD.L', '1000', 'GBp'), pos('GBP', '10.5', 'GBP'), pos('GBp', '250', 'GBp')];
    const valuation = valuePositions({ positions, quotes: QUOTES, base: 'GBP' });
    expect(valuation.positions.map((p) => [p.rate, p.value_base])).toEqual([['0.01', '725.00'], ['0.01', '725.00'], ['1', '10.5'], ['0.01', '2.5']]);
    expect(valuation.fx).toEqual([]);
    expect(valuation.totals.map((t) => t.currency)).toEqual(['GBX', 'GBp', 'GBP']);
    expect(valuation.total_base).toBe('1463.00');
    checkInvariants(valuation);
  });

  it('takes a minor unit as base: pounds in pence are × 100', () => {
    const valuation = valuePositions({ positions: [pos('GBP', '10.5', 'GBP'), pos('USD', '2', 'USD')], quotes: QUOTES, base: 'GBX' });
    // 1 USD = 1 / 1.271505 GBP = 100 / 1.271505 GBX: the rounded rate moved two places, no zeros added.
    const perPound = divide('1', '1.271505', RATE_DIGITS);
    expect(valuation.positions.map((p) => p.rate)).toEqual(['100', mul(perPound, '100').replace(/0+$/, '')]);
    expect(same(valuation.positions[1]!.rate!, mul(perPound, '100'))).toBe(true);
    expect(valuation.positions[0]!.value_base).toBe('1050.0');
    checkInvariants(valuation);
  });

  it('converts through a cross via USD when the currency has no pair with the base: RY.TO in EUR', () => {
    const valuation = valuePositions({ positions: [pos('RY.TO', '50', 'CAD')], quotes: QUOTES, base: 'EUR' });
    const rate = divide('1', mul('1.36240', '1.08415'), RATE_DIGITS);
    expect(rate).toBe('0.6770270032761878310137350093019448');
    expect(valuation.positions[0]).toMatchObject({ value: '8265.50', rate });
    expect(same(valuation.positions[0]!.value_base!, mul('8265.50', rate))).toBe(true);
    expect(valuation.fx).toEqual([{ from: 'CAD', to: 'EUR', rate, method: 'cross', pairs: ['USDCAD', 'EURUSD'], formula: '1/(USDCAD*EURUSD)', rounded: true }]);
    checkInvariants(valuation);
  });
});

describe('valuePositions: problems named, the rest still valued', () => {
  it('lists a symbol with no quote once, leaves its values null and says the total is incomplete', () => {
    const positions = [pos('NOPE', '1', 'USD'), pos('AAPL', '1', 'USD'), pos('nope', '2', 'USD', '5'), pos('GONE', '3', 'EUR')];
    const valuation = valuePositions({ positions, quotes: QUOTES, base: 'USD' });
    expect(valuation.missing).toEqual(['NOPE', 'GONE']);
    expect(valuation.positions[0]).toMatchObject({ price: null, value: null, value_base: null, status: 'missing' });
    expect(valuation.positions[2]).toMatchObject({ cost: '5', pnl: null, pnl_base: null, status: 'missing' });
    expect(valuation.incomplete).toBe(true);
    expect(valuation.total_base).toBe('227.11');
    expect(valuation.totals[1]).toEqual({ currency: 'EUR', positions: 1, value: '0', value_base: '0', incomplete: true });
    expect(valuation.totals[0]).toMatchObject({ currency: 'USD', positions: 3, incomplete: true });
    checkInvariants(valuation);
  });

  it('names a currency with no route and the pairs tried; its positions keep their own value', () => {
    const quotes = QUOTES.filter((q) => q.symbol !== 'USDCAD');
    const valuation = valuePositions({ positions: [pos('RY.TO', '50', 'CAD'), pos('SAP.DE', '1', 'EUR')], quotes, base: 'EUR' });
    expect(valuation.no_route).toEqual([{
      currency: 'CAD', to: 'EUR', tried: ['CADEUR', 'EURCAD', 'CADUSD', 'USDCAD', 'EURUSD', 'USDEUR'], missing: ['CADEUR', 'EURCAD', 'CADUSD', 'USDCAD', 'USDEUR'],
    }]);
    expect(valuation.positions[0]).toMatchObject({ value: '8265.50', rate: null, value_base: null, status: 'no_route' });
    expect(valuation.totals[0]).toEqual({ currency: 'CAD', positions: 1, value: '8265.50', value_base: null, incomplete: true });
    expect(valuation.totals[1]).toMatchObject({ currency: 'EUR', incomplete: false });
    expect(valuation).toMatchObject({ total_base: '231.40', incomplete: true, missing: [] });
    checkInvariants(valuation);
  });

  it('names a minor unit\'s currency once, as its ISO code', () => {
    const valuation = valuePositions({ positions: [pos('ZA1', '1', 'ZAc'), pos('ZA2', '1', 'ZAR')], quotes: [quote('ZA1', '1', '2', '1.5'), quote('ZA2', '1', '2', '1.5')], base: 'USD' });
    expect(valuation.no_route).toEqual([{ currency: 'ZAR', to: 'USD', tried: ['ZARUSD', 'USDZAR'], missing: ['ZARUSD', 'USDZAR'] }]);
  });
});

describe('valuePositions refuses input it cannot use, naming it', () => {
  it.each([
    ['a base that is no currency', { base: 'usd' }, OptionsError, /base "usd" is not a currency code.*did you mean USD/],
    ['no base', { base: undefined }, OptionsError, /base is missing/],
    ['an unknown price rule', { price: 'last' }, OptionsError, /price must be one of mid, bid, ask, side, not "last"/],
    ['positions that are not an array', { positions: 'AAPL' }, PositionsError, /positions must be an array/],
    ['a quantity that is a number', { positions: [{ symbol: 'AAPL', quantity: 10, currency: 'USD' }] }, PositionsError, /^position 1: quantity must be a string holding a decimal/],
    ['a quantity such as abc', { positions: [pos('AAPL', '1', 'USD'), pos('AAPL', 'abc', 'USD')] }, PositionsError, /^position 2: quantity must be/],
    ['a cost with a comma', { positions: [pos('AAPL', '1', 'USD', '1,5')] }, PositionsError, /^position 1: cost must be/],
    ['a currency nobody issues', { positions: [pos('AAPL', '1', 'ABC')] }, PositionsError, /^position 1: currency "ABC" is not an ISO 4217/],
    ['no currency', { positions: [{ symbol: 'AAPL', quantity: '1' }] }, PositionsError, /^position 1: currency must be a currency code/],
    ['a symbol with a space', { positions: [pos('A B', '1', 'USD')] }, PositionsError, /^position 1: symbol must be 1 to 32 visible ASCII/],
    ['quotes that are not quotes', { quotes: 'AAPL' }, OptionsError, /quotes must be a Map of symbol to Quote, or an array/],
    ['a price that is not decimal text', { quotes: [{ ...QUOTES[0]!, mid: 227.11 }] }, OptionsError, /the quote of AAPL has a mid that is not decimal text/],
  ])('%s', (_name, change, kind, message) => {
    const input = { positions: [pos('AAPL', '1', 'USD')], quotes: QUOTES, base: 'USD', ...change };
    expect(() => valuePositions(input as never)).toThrow(message);
    expect(() => valuePositions(input as never)).toThrow(kind);
  });

  it('gives the facts of a bad position: which, which field, what value', () => {
    try {
      valuePositions({ positions: [pos('AAPL', '1', 'USD'), pos('AAPL', 'abc', 'USD')], quotes: QUOTES, base: 'USD' });
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ name: 'PositionsError', code: 'INVALID_OPTIONS', reason: 'value', item: 2, field: 'quantity', value: 'abc' });
    }
  });
});

describe('valuePositions at scale', () => {
  /** `count` lots over `symbols` symbols in three currencies, and a count of every read of a position or a price. */
  function book(count: number, symbols: number) {
    const reads = { positions: 0, quotes: 0 };
    const currencies = ['USD', 'EUR', 'JPY'];
    const quotes: Quote[] = [];
    for (let s = 0; s < symbols; s++) {
      const price = `${100 + (s % 900)}.${String(s % 100).padStart(2, '0')}`;
      const q = quote(`S${s}`, price, price, price);
      quotes.push(new Proxy(q, { get: (target, key) => (key === 'bid' || key === 'ask' || key === 'mid' ? (reads.quotes++, target[key]) : target[key as keyof Quote]) }));
    }
    quotes.push(QUOTES.find((q) => q.symbol === 'EURUSD')!, QUOTES.find((q) => q.symbol === 'USDJPY')!);
    const positions: Position[] = [];
    for (let i = 0; i < count; i++) {
      const s = (i * 7919) % symbols;
      const p = pos(`S${s}`, String((i % 50) - 10), currencies[s % 3]!, i % 4 === 0 ? '150.5' : undefined);
      positions.push(new Proxy(p, { get: (target, key) => (reads.positions++, target[key as keyof Position]) }));
    }
    return { positions, quotes, reads };
  }

  it('values 100,000 lots over 1,000 symbols with a bounded number of reads per lot, and exactly', () => {
    const small = book(10_000, 1_000);
    valuePositions({ positions: small.positions, quotes: small.quotes, base: 'USD', price: 'side' });
    const large = book(100_000, 1_000);
    const valuation = valuePositions({ positions: large.positions, quotes: large.quotes, base: 'USD', price: 'side' });
    // Each lot is read a fixed number of times (its fields, once to check and once to value), and
    // each priced lot reads one price: ten times the lots, ten times the reads, no step that
    // grows with lots × lots or lots × symbols.
    expect(large.reads.positions / 100_000).toBeLessThanOrEqual(16);
    expect(large.reads.positions).toBe(small.reads.positions * 10);
    expect(large.reads.quotes).toBeLessThanOrEqual(100_000 + 10);
    expect(large.reads.quotes).toBeLessThanOrEqual(small.reads.quotes * 10);
    expect(valuation.positions).toHaveLength(100_000);
    expect(valuation.totals.map((t) => t.positions)).toEqual([33_400, 33_300, 33_300]);
    // The total is the exact sum of the values shown, by the tests' own arithmetic.
    const shown = valuation.positions.map((p) => p.value_base!);
    expect(valuation.total_base).toBe(sum(shown));
  }, 60_000);
});
