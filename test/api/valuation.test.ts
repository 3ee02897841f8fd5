// valuePositions against hand-made quotes: every expected figure is a literal worked by hand or the
// tests' own BigInt arithmetic (decimal-oracle.ts), never the module under test.
import { describe, expect, it } from 'vitest';
import { OptionsError } from '../../src/api/errors.js';
import type { Position } from '../../src/api/positions.js';
import { PositionsError } from '../../src/api/positions-error.js';
import type { Quote } from '../../src/api/types.js';
import { valueExactly, valuationAt, valuePositions, type Valuation, type ValuedPosition } from '../../src/api/valuation.js';
import { dec, divide, fullText, mul, rat, ratAdd, ratDiv, ratMul, ratSum, roundPlaces, sum, type Rat } from '../helpers/decimal-oracle.js';

const NOW = Date.UTC(2026, 0, 5, 14, 31);
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
const ONE: Rat = { n: 1n, d: 1n };
const inverse = (mid: string): Rat => ratDiv(ONE, rat(mid));

/**
 * Checks what every valuation at `full` must satisfy, by the tests' own arithmetic, given each
 * currency's exact rate to the base: value = price × quantity exactly; value_base = value × rate,
 * written at full (the exact decimal, or 34 significant digits); each total the exact total of the
 * exact figures, rounded once.
 */
function checkInvariants(valuation: Valuation, rates: Readonly<Record<string, Rat>>): void {
  const exactValues: Rat[] = [];
  const exactPnl: Rat[] = [];
  for (const p of valuation.positions) {
    if (p.status !== 'ok') continue;
    const value = ratMul(rat(p.price!), rat(p.quantity));
    expect(p.value).toBe(fullText(value, places(p.price!) + places(p.quantity)));
    const inBase = ratMul(value, rates[p.currency]!);
    expect(p.value_base).toBe(fullText(inBase, places(p.price!) + places(p.quantity)));
    exactValues.push(inBase);
    if (typeof p.cost === 'string') {
      const pnl = ratMul(ratAdd(rat(p.price!), ratMul(rat(p.cost), { n: -1n, d: 1n })), rat(p.quantity));
      expect(p.pnl).toBe(fullText(pnl, Math.max(places(p.price!), places(p.cost)) + places(p.quantity)));
      exactPnl.push(ratMul(pnl, rates[p.currency]!));
    }
  }
  const placesOf = (texts: ReadonlyArray<string | null | undefined>) => Math.max(0, ...texts.filter((t): t is string => typeof t === 'string').map((t) => (/[eE]/.test(t) ? 0 : places(t))));
  const totalPlaces = Math.max(0, ...valuation.positions.filter((p) => p.status === 'ok').map((p) => places(p.price!) + places(p.quantity)));
  expect(valuation.total_base).toBe(fullText(ratSum(exactValues), totalPlaces));
  if (exactPnl.length > 0) expect(valuation.total_pnl_base).toBe(fullText(ratSum(exactPnl), placesOf(valuation.positions.map((p) => p.pnl))));
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
  const valuation = valuePositions({ positions, quotes: QUOTES, base: 'USD', now: NOW });
  const [aapl, vod, sap, toyota, eur, usd] = valuation.positions as [ValuedPosition, ValuedPosition, ValuedPosition, ValuedPosition, ValuedPosition, ValuedPosition];
  const RATES = { USD: ONE, GBX: ratMul(rat('1.271505'), rat('0.01')), EUR: rat('1.08415'), JPY: inverse('151.420') };

  it('values each position at price × quantity, in its own currency', () => {
    expect(aapl).toMatchObject({ symbol: 'AAPL', quantity: '10', currency: 'USD', price: '227.11', value: '2271.10', rate: '1', value_base: '2271.10', status: 'ok' });
    expect(vod).toMatchObject({ price: '72.50', value: '72500.00' });
    expect(sap).toMatchObject({ price: '231.40', value: '4628.00' });
    expect(toyota).toMatchObject({ price: '2850.25', value: '285025.00' });
    checkInvariants(valuation, RATES);
  });

  it('converts pence exactly: GBX is GBP / 100, then GBPUSD', () => {
    // 72500.00 GBX = 725.0000 GBP; × 1.271505 = 921.841125 USD (by hand).
    expect(vod).toMatchObject({ currency: 'GBX', rate: '0.01271505', value_base: '921.841125' });
  });

  it('converts EUR at EURUSD directly, exactly', () => {
    // 4628.00 × 1.08415 = 5017.4462 (by hand).
    expect(sap).toMatchObject({ rate: '1.08415', value_base: '5017.4462' });
  });

  it('converts JPY at the exact inverse of USDJPY, rounded once where written: the value, not the rate, is rounded', () => {
    const rate = divide('1', '151.420', 34);
    expect(rate).toBe('0.006604147404570070003962488442742042');
    expect(toyota.rate).toBe(rate);
    // 285025.00 / 151.420, exactly, then 34 digits (Python's decimal at 34 digits agrees).
    expect(toyota.value_base).toBe(divide('285025.00', '151.420', 34));
    expect(toyota.value_base).toBe('1882.347113987584202879408268392551');
    expect(valuation.fx).toContainEqual({ from: 'JPY', to: 'USD', rate, method: 'inverse', pairs: ['USDJPY'], timestamps: ['2026-01-05T14:30:00.000Z'], formula: '1/USDJPY', rounded: true });
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

  it('totals each currency and the whole in USD: the exact total, rounded once', () => {
    expect(valuation.totals.map((total) => total.currency)).toEqual(['USD', 'GBX', 'EUR', 'JPY']);
    expect(valuation.totals[0]).toEqual({ currency: 'USD', positions: 2, value: '3271.60', value_base: '3271.60', pnl: '266.10', pnl_base: '266.10', incomplete: false });
    expect(valuation.totals[2]).toMatchObject({ currency: 'EUR', positions: 2, value: '7128.75', value_base: sum([sap.value_base!, eur.value_base!]) });
    expect(valuation.totals[1]).not.toHaveProperty('pnl');
    // USD, GBX and EUR are exact decimals; JPY is not: the total is its exact sum, rounded once.
    const exact = ratAdd(rat(sum([aapl, vod, sap, eur, usd].map((p) => p.value_base!))), ratMul(rat('285025.00'), inverse('151.420')));
    expect(valuation.total_base).toBe(fullText(exact, 4));
    // Python: the sum of the values as Fractions, at 34 digits.
    expect(valuation.total_base).toBe('13804.42255148758420287940826839255');
    expect(valuation).toMatchObject({ base: 'USD', price: 'mid', precision: 'full', as_of: '2026-01-05T14:30:00.000Z', missing: [], no_route: [], unusable: [], incomplete: false });
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
    const valuation = valuePositions({ positions, quotes: QUOTES, base: 'USD', price: rule, now: NOW });
    expect(valuation.price).toBe(rule);
    expect(valuation.positions.map((p) => p.price)).toEqual(prices);
    expect(valuation.positions.map((p) => p.value)).toEqual(prices.map((price, i) => mul(price, positions[i]!.quantity)));
    expect(valuation.positions[3]!.value).not.toMatch(/^-/);
    checkInvariants(valuation, { USD: ONE });
  });

  it('values a short at the ask with side: -4 × 227.12 = -908.48, and its P&L', () => {
    const valuation = valuePositions({ positions: [pos('AAPL', '-4', 'USD', '230')], quotes: QUOTES, base: 'USD', price: 'side', now: NOW });
    // (227.12 - 230) × -4 = 11.52: a short gains as the price falls.
    expect(valuation.positions[0]).toMatchObject({ price: '227.12', value: '-908.48', pnl: '11.52', pnl_base: '11.52' });
  });

  it('uses mid FX rates whatever the price rule', () => {
    const valuation = valuePositions({ positions: [pos('SAP.DE', '-20', 'EUR')], quotes: QUOTES, base: 'USD', price: 'side', now: NOW });
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

  it('keeps every digit of long quantities and prices: at full, a product of more than 34 digits is rounded to 34; the exact value stays', () => {
    const quotes = [quote('LONG', '1.084150000000000001', '1.084150000000000003', '1.084150000000000002')];
    const input = { positions: [pos('LONG', '123456789012345678.9', 'USD')], quotes, base: 'USD', now: NOW };
    const product = mul('1.084150000000000002', '123456789012345678.9');
    expect(product).toBe('133845677807734568.0263485780246913578');
    expect(valuePositions(input).positions[0]!.value).toBe(fullText(rat(product), 0));
    expect(valuePositions(input).positions[0]!.value).toBe('133845677807734568.0263485780246914');
    // Every digit at 19 places, and the exact figure itself.
    expect(valuePositions({ ...input, precision: 19 }).positions[0]!.value).toBe('133845677807734568.0263485780246913578');
    const exactValue = valueExactly(input).positions[0]!.value!;
    expect(exactValue.n * 10n ** 19n).toBe(BigInt(product.replace('.', '')) * exactValue.d);
  });
});

describe('valuePositions: lots, pence and bases', () => {
  it('values several lots of one symbol apart, each with its own cost', () => {
    const positions = [pos('AAPL', '10', 'USD', '150'), pos('AAPL', '5', 'USD', '240.25'), pos('aapl', '-3', 'USD')];
    const valuation = valuePositions({ positions, quotes: QUOTES, base: 'USD', now: NOW });
    expect(valuation.positions.map((p) => [p.symbol, p.value, p.pnl])).toEqual([
      ['AAPL', '2271.10', '771.10'], ['AAPL', '1135.55', '-65.70'], ['aapl', '-681.33', undefined],
    ]);
    expect(valuation.totals).toEqual([{ currency: 'USD', positions: 3, value: '2725.32', value_base: '2725.32', pnl: '705.40', pnl_base: '705.40', incomplete: false }]);
    checkInvariants(valuation, { USD: ONE });
  });

  it('takes GBX and GBp alike, and GBP apart; in base GBP pence are exact hundredths', () => {
    const positions = [pos('VOD.L', '1000', 'GBX'), pos('VOD.L', '1000', 'GBp'), pos('GBP', '10.5', 'GBP'), pos('GBp', '250', 'GBp')];
    const valuation = valuePositions({ positions, quotes: QUOTES, base: 'GBP', now: NOW });
    expect(valuation.positions.map((p) => [p.rate, p.value_base])).toEqual([['0.01', '725.00'], ['0.01', '725.00'], ['1', '10.5'], ['0.01', '2.5']]);
    expect(valuation.fx).toEqual([]);
    expect(valuation.totals.map((t) => t.currency)).toEqual(['GBX', 'GBp', 'GBP']);
    expect(valuation.total_base).toBe('1463.00');
    checkInvariants(valuation, { GBX: rat('0.01'), GBp: rat('0.01'), GBP: ONE });
  });

  it('takes a minor unit as base: pounds in pence are × 100', () => {
    const valuation = valuePositions({ positions: [pos('GBP', '10.5', 'GBP'), pos('USD', '2', 'USD')], quotes: QUOTES, base: 'GBX', now: NOW });
    // 1 USD = 1 / 1.271505 GBP = 100 / 1.271505 GBX, exactly; written at 34 digits.
    expect(valuation.positions.map((p) => p.rate)).toEqual(['100', divide('100', '1.271505', 34)]);
    expect(valuation.positions[0]!.value_base).toBe('1050.0');
    checkInvariants(valuation, { GBP: rat('100'), USD: ratDiv(rat('100'), rat('1.271505')) });
  });

  it('converts through a cross via USD when the currency has no pair with the base: RY.TO in EUR', () => {
    const valuation = valuePositions({ positions: [pos('RY.TO', '50', 'CAD')], quotes: QUOTES, base: 'EUR', now: NOW });
    const rate = divide('1', mul('1.36240', '1.08415'), 34);
    expect(rate).toBe('0.6770270032761878310137350093019448');
    expect(valuation.positions[0]).toMatchObject({ value: '8265.50', rate });
    // 8265.50 / (1.36240 × 1.08415), exactly, then 34 digits.
    expect(valuation.positions[0]!.value_base).toBe(divide('8265.50', mul('1.36240', '1.08415'), 34));
    expect(valuation.fx).toEqual([{
      from: 'CAD', to: 'EUR', rate, method: 'cross', pairs: ['USDCAD', 'EURUSD'], timestamps: ['2026-01-05T14:30:00.000Z', '2026-01-05T14:30:00.000Z'], formula: '1/(USDCAD*EURUSD)', rounded: true,
    }]);
    checkInvariants(valuation, { CAD: ratDiv(ONE, ratMul(rat('1.36240'), rat('1.08415'))) });
  });
});

describe('valuePositions: problems named, the rest still valued', () => {
  it('lists a symbol with no quote once, leaves its values null and says the total is incomplete', () => {
    const positions = [pos('NOPE', '1', 'USD'), pos('AAPL', '1', 'USD'), pos('nope', '2', 'USD', '5'), pos('GONE', '3', 'EUR')];
    const valuation = valuePositions({ positions, quotes: QUOTES, base: 'USD', now: NOW });
    expect(valuation.missing).toEqual(['NOPE', 'GONE']);
    expect(valuation.positions[0]).toMatchObject({ price: null, value: null, value_base: null, status: 'missing' });
    expect(valuation.positions[2]).toMatchObject({ cost: '5', pnl: null, pnl_base: null, status: 'missing' });
    expect(valuation.incomplete).toBe(true);
    expect(valuation.total_base).toBe('227.11');
    expect(valuation.totals[1]).toEqual({ currency: 'EUR', positions: 1, value: '0', value_base: '0', incomplete: true });
    expect(valuation.totals[0]).toMatchObject({ currency: 'USD', positions: 3, incomplete: true });
    checkInvariants(valuation, { USD: ONE, EUR: rat('1.08415') });
  });

  it('names a currency with no route and the pairs tried; its positions keep their own value', () => {
    const quotes = QUOTES.filter((q) => q.symbol !== 'USDCAD');
    const valuation = valuePositions({ positions: [pos('RY.TO', '50', 'CAD'), pos('SAP.DE', '1', 'EUR')], quotes, base: 'EUR', now: NOW });
    expect(valuation.no_route).toEqual([{
      currency: 'CAD', to: 'EUR', tried: ['CADEUR', 'EURCAD', 'CADUSD', 'USDCAD', 'EURUSD', 'USDEUR'], missing: ['CADEUR', 'EURCAD', 'CADUSD', 'USDCAD', 'USDEUR'],
    }]);
    expect(valuation.positions[0]).toMatchObject({ value: '8265.50', rate: null, value_base: null, status: 'no_route' });
    expect(valuation.totals[0]).toEqual({ currency: 'CAD', positions: 1, value: '8265.50', value_base: null, incomplete: true });
    expect(valuation.totals[1]).toMatchObject({ currency: 'EUR', incomplete: false });
    expect(valuation).toMatchObject({ total_base: '231.40', incomplete: true, missing: [] });
    checkInvariants(valuation, { EUR: ONE });
  });

  it('names a minor unit\'s currency once, as its ISO code', () => {
    const valuation = valuePositions({ positions: [pos('ZA1', '1', 'ZAc'), pos('ZA2', '1', 'ZAR')], quotes: [quote('ZA1', '1', '2', '1.5'), quote('ZA2', '1', '2', '1.5')], base: 'USD', now: NOW });
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
      valuePositions({ positions: [pos('AAPL', '1', 'USD'), pos('AAPL', 'abc', 'USD')], quotes: QUOTES, base: 'USD', now: NOW });
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
    valuePositions({ positions: small.positions, quotes: small.quotes, base: 'USD', price: 'side', now: NOW });
    const large = book(100_000, 1_000);
    const valuation = valuePositions({ positions: large.positions, quotes: large.quotes, base: 'USD', price: 'side', now: NOW });
    // Each lot is read a fixed number of times (its fields, once to check and once to value), and
    // each priced lot reads one price: ten times the lots, ten times the reads, no step that
    // grows with lots × lots or lots × symbols.
    expect(large.reads.positions / 100_000).toBeLessThanOrEqual(16);
    expect(large.reads.positions).toBe(small.reads.positions * 10);
    // One price a lot, and each symbol's quote judged once (its three prices read a few times).
    expect(large.reads.quotes).toBeLessThanOrEqual(100_000 + 10 * 1_000);
    expect(large.reads.quotes).toBeLessThanOrEqual(small.reads.quotes * 10);
    expect(valuation.positions).toHaveLength(100_000);
    expect(valuation.totals.map((t) => t.positions)).toEqual([33_400, 33_300, 33_300]);
    // The total is the exact total, rounded once, by the tests' own arithmetic: each currency's values
    // (exact products, written whole) summed, then converted at its exact rate.
    const byCurrency = (currency: string) => rat(sum(valuation.positions.filter((p) => p.currency === currency).map((p) => p.value!)));
    const exact = ratSum([byCurrency('USD'), ratMul(byCurrency('EUR'), rat('1.08415')), ratMul(byCurrency('JPY'), inverse('151.420'))]);
    expect(valuation.total_base).toBe(fullText(exact, 2));
  }, 60_000);
});

describe('the book of issue 34, in USD and in JPY: exact, rounded once where written', () => {
  const at = '2026-01-05T14:30:00.000Z';
  const q = (symbol: string, mid: string): Quote => ({ symbol, bid: mid, ask: mid, mid, timestamp: at });
  const quotes = [
    q('EURUSD', '1.084165'), q('GBPUSD', '1.271515'), q('USDJPY', '151.4215'), q('USDCHF', '0.881215'), q('EURJPY', '164.212'),
    q('AAPL', '227.12'), q('VOD', '72.36'), q('SAP', '201.50'), q('TOYOTA', '2877'), q('NESN', '96.14'), q('PENNY', '0.30'),
  ];
  const positions = [
    pos('AAPL', '150', 'USD', '180.25'), pos('AAPL', '-20', 'USD', '230.00'), pos('VOD', '10000', 'GBX', '70.10'), pos('SAP', '35.5', 'EUR', '150'),
    pos('TOYOTA', '300', 'JPY', '2500'), pos('NESN', '12', 'CHF'), pos('PENNY', '0.1', 'USD'), pos('EUR', '2500.75', 'EUR'),
  ];
  // Each position's value in its own currency, and each currency's exact rate to USD (a cross: CHF, JPY).
  const values = ['34068.00', '-4542.40', '723600.00', '7153.250', '863100', '1153.68', '0.030', '2500.75'];
  const toUsd: Record<string, Rat> = {
    USD: ONE, GBX: ratMul(rat('1.271515'), rat('0.01')), EUR: rat('1.084165'), JPY: inverse('151.4215'), CHF: inverse('0.881215'),
  };
  const exactUsd = values.map((value, i) => ratMul(rat(value), toUsd[positions[i]!.currency]!));
  const totalUsd = ratSum(exactUsd);
  const exact = valueExactly({ positions, quotes, base: 'USD', now: NOW });

  it('totals 56,202.0170314176256401377584087551… USD exactly: full writes 34 digits, every one right', () => {
    const full = valuationAt(exact, 'full');
    expect(full.total_base).toBe(fullText(totalUsd, 3));
    expect(full.total_base).toBe('56202.01703141762564013775840875513');
    // The digits the issue says the old rounding got wrong: the exact value continues …8755129439….
    expect(roundPlaces(totalUsd, 40)).toMatch(/^56202\.01703141762564013775840875512943/);
    expect(full.positions.map((p) => p.value_base)).toEqual(exactUsd.map((value, i) => fullText(value, places(values[i]!))));
  });

  it('at minor: each figure in its currency\'s minor units, the total the exact total rounded once, and the rows adding up to a cent less', () => {
    const minor = valuationAt(exact, 'minor');
    expect(minor.precision).toBe('minor');
    expect(minor.total_base).toBe(roundPlaces(totalUsd, 2));
    expect(minor.total_base).toBe('56202.02');
    const rows = minor.positions.map((p) => p.value_base!);
    expect(rows).toEqual(exactUsd.map((value) => roundPlaces(value, 2)));
    expect(sum(rows)).toBe('56202.01');
    // Values in their own currencies: GBX in whole pence, JPY in whole yen, the rest in cents.
    expect(minor.positions.map((p) => p.value)).toEqual(values.map((value, i) => roundPlaces(rat(value), positions[i]!.currency === 'GBX' || positions[i]!.currency === 'JPY' ? 0 : 2)));
    // A rate, which is no amount, at 10 significant digits.
    expect(minor.fx.find((rate) => rate.from === 'CHF')).toMatchObject({ rate: '1.134796843', formula: '1/USDCHF', rounded: true });
    expect(minor.fx.find((rate) => rate.from === 'EUR')).toMatchObject({ rate: '1.084165', rounded: false });
  });

  it('in JPY: whole yen, 8,510,639 in all; EUR and USD are direct (EURJPY, USDJPY), CHF a cross (USDJPY / USDCHF)', () => {
    const inJpy = valueExactly({ positions, quotes, base: 'JPY', now: NOW });
    const toJpy: Record<string, Rat> = {
      USD: rat('151.4215'), GBX: ratMul(ratMul(rat('1.271515'), rat('151.4215')), rat('0.01')), EUR: rat('164.212'), JPY: ONE, CHF: ratDiv(rat('151.4215'), rat('0.881215')),
    };
    const total = ratSum(values.map((value, i) => ratMul(rat(value), toJpy[positions[i]!.currency]!)));
    expect(valuationAt(inJpy, 'minor').total_base).toBe(roundPlaces(total, 0));
    expect(valuationAt(inJpy, 'minor').total_base).toBe('8510639');
    expect(valuationAt(inJpy, 'full').total_base).toBe(fullText(total, 3));
    expect(valuationAt(inJpy, 'full').total_base.startsWith('8510638.86257723900086811958489131')).toBe(true);
    expect(inJpy.fx.map((rate) => rate.formula)).toEqual(['USDJPY', 'GBPUSD*USDJPY', 'EURJPY', 'USDJPY/USDCHF']);
  });

  it('at N places: exactly N, padded with zeros; 0 to 34', () => {
    expect(valuationAt(exact, 4).total_base).toBe(roundPlaces(totalUsd, 4));
    expect(valuationAt(exact, 0).total_base).toBe('56202');
    expect(valuationAt(exact, 34).total_base).toBe(roundPlaces(totalUsd, 34));
    expect(valuationAt(exact, 6).positions[0]!.value).toBe('34068.000000');
    expect(() => valuationAt(exact, 35)).toThrow(/precision must be "minor", "full" or a whole number of decimal places from 0 to 34, not 35/);
    expect(() => valuationAt(exact, 2.5)).toThrow(OptionsError);
  });

  it('says where the prices are from: as_of, the oldest quote used; each position and rate with its quotes\' timestamps', () => {
    expect(exact.as_of).toBe(at);
    expect(exact.positions[0]!.timestamp).toBe(at);
    expect(exact.positions[7]).toMatchObject({ symbol: 'EUR', timestamp: null });
    expect(exact.fx.find((rate) => rate.from === 'GBP')).toMatchObject({ pairs: ['GBPUSD'], timestamps: [at] });
  });

  it('as_of is the oldest quote a valued position used, its pair\'s included; not a quote of a position left unvalued', () => {
    const stamped = (symbol: string, mid: string, timestamp: string): Quote => ({ symbol, bid: mid, ask: mid, mid, timestamp });
    const [t0, t1, t2, t3] = ['2026-01-05T14:26:00Z', '2026-01-05T14:27:00Z', '2026-01-05T14:28:00Z', '2026-01-05T14:29:00Z'];
    const book = [stamped('BAD', '-1', t0), stamped('EURUSD', '1.08', t1), stamped('AAPL', '227', t2), stamped('SAP', '200', t3)];
    const asOf = (lots: Position[]) => valuePositions({ positions: lots, quotes: book, base: 'USD', now: NOW }).as_of;
    expect(asOf([pos('SAP', '1', 'EUR'), pos('AAPL', '1', 'USD')])).toBe(t1);
    // No position in EUR is valued: EURUSD is not used, nor BAD's quote, which cannot be right.
    expect(asOf([pos('NOQ', '1', 'EUR'), pos('BAD', '1', 'EUR'), pos('AAPL', '1', 'USD')])).toBe(t2);
    // The first in EUR is not valued, the next is: EURUSD counts.
    expect(asOf([pos('BAD', '1', 'EUR'), pos('AAPL', '1', 'USD'), pos('SAP', '1', 'EUR')])).toBe(t1);
    expect(asOf([pos('EUR', '5', 'EUR')])).toBe(t1);
    expect(asOf([pos('USD', '5', 'USD')])).toBeNull();
  });

  it('valued and written in one pass (valuePositions), the document is the exact valuation written (valuationAt), at every precision', () => {
    // Every kind of position: a cost, a lot's total cost, cash, a cross, no quote, no rate, a quote that cannot be right.
    const odd = [
      ...positions,
      { symbol: 'AAPL', quantity: '4', currency: 'USD', cost_total: '700.10' }, pos('NOPE', '1', 'USD', '5'), pos('NOK', '2', 'NOK'),
      pos('BAD', '3', 'USD', '1'), { ...pos('AAPL', '0', 'USD', '1'), line: 14 },
    ];
    const input = { positions: odd, quotes: [...quotes, q('BAD', '-1')], base: 'JPY', now: NOW };
    for (const precision of ['full', 'minor', 0, 3, 34] as const) {
      const written = valuePositions({ ...input, precision });
      expect(written).toEqual(valuationAt(valueExactly(input), precision));
      expect(written.positions.map((p) => p.status)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'missing', 'no_route', 'unusable', 'ok']);
    }
  });
});

describe('half-even, decided on the exact value', () => {
  it('a tie goes to the even digit: 0.125 is 0.12 and 0.135 is 0.14 at two places; a hair past the tie, away', () => {
    const book = (quantity: string) => valueExactly({ positions: [pos('USD', quantity, 'USD')], quotes: [], base: 'USD', now: NOW });
    expect(valuationAt(book('0.125'), 'minor').total_base).toBe('0.12');
    expect(valuationAt(book('0.135'), 'minor').total_base).toBe('0.14');
    expect(valuationAt(book('0.1250000000000000000001'), 'minor').total_base).toBe('0.13');
    expect(valuationAt(book('-0.125'), 'minor').total_base).toBe('-0.12');
  });

  it('a tie made by a conversion: 1 EUR at EURUSD 0.0125 is $0.0125, 0.01 at minor; 3 EUR, $0.0375, is 0.04', () => {
    const valued = (quantity: string) => valuationAt(valueExactly({ positions: [pos('EUR', quantity, 'EUR')], quotes: [quote('EURUSD', '0.0125', '0.0125', '0.0125')], base: 'USD', now: NOW }), 'minor');
    expect(valued('1').total_base).toBe(roundPlaces(ratMul(rat('1'), rat('0.0125')), 2));
    expect(valued('1').total_base).toBe('0.01');
    expect(valued('3').total_base).toBe('0.04');
  });
});

describe('quotes that cannot be right value nothing (the library\'s one verdict)', () => {
  it('a negative AAPL (bid -100, ask -99) is unusable, named with why; the totals leave it out', () => {
    const quotes = [quote('AAPL', '-100', '-99', '-99.5'), quote('MSFT', '400', '401', '400.5')];
    const valuation = valuePositions({ positions: [pos('AAPL', '10', 'USD', '90'), pos('MSFT', '2', 'USD')], quotes, base: 'USD', now: NOW });
    expect(valuation.positions[0]).toMatchObject({
      status: 'unusable', price: null, value: null, value_base: null, pnl: null, reason: 'the quote of AAPL cannot be right: bid is negative, ask is negative, mid is negative',
    });
    expect(valuation).toMatchObject({ incomplete: true, total_base: '801.0', total_pnl_base: null, unusable: [{ symbol: 'AAPL', problems: ['bid is negative', 'ask is negative', 'mid is negative'] }] });
  });

  it('a mid outside bid..ask, a future timestamp, a symbol sent twice at two prices: each unusable', () => {
    const quotes = [
      quote('OUT', '10', '11', '12'), { ...quote('AHEAD', '10', '11', '10.5'), timestamp: '2026-01-05T14:32:00Z' },
      quote('TWICE', '10', '11', '10.5'), quote('TWICE', '10', '11', '10.6'), quote('SAME', '10', '11', '10.5'), quote('SAME', '10.0', '11.00', '10.50'),
    ];
    const valuation = valuePositions({ positions: ['OUT', 'AHEAD', 'TWICE', 'SAME'].map((symbol) => pos(symbol, '1', 'USD')), quotes, base: 'USD', now: NOW });
    expect(valuation.positions.map((p) => p.status)).toEqual(['unusable', 'unusable', 'unusable', 'ok']);
    expect(valuation.unusable).toEqual([
      { symbol: 'OUT', problems: ['mid is outside bid..ask'] },
      { symbol: 'AHEAD', problems: ['timestamp is 1m in the future'] },
      { symbol: 'TWICE', problems: ['sent twice at different prices (mid 10.5 and 10.6)'] },
    ]);
    expect(valuation.total_base).toBe('10.5');
  });

  it('a rate from a quote that cannot be right: the currency\'s positions are unusable, naming the pair; their own value stays', () => {
    const quotes = [quote('SAP', '200', '201', '200.5'), quote('EURUSD', '1.08', '1.09', '1.2')];
    const valuation = valuePositions({ positions: [pos('SAP', '2', 'EUR'), pos('EUR', '5', 'EUR')], quotes, base: 'USD', now: NOW });
    expect(valuation.positions[0]).toMatchObject({
      status: 'unusable', value: '401.0', rate: null, value_base: null, reason: 'the quote of EURUSD, for the rate from EUR to USD, cannot be right: mid is outside bid..ask',
    });
    expect(valuation.totals[0]).toMatchObject({ currency: 'EUR', value: '406.0', value_base: null, incomplete: true });
    expect(valuation).toMatchObject({ fx: [], no_route: [], incomplete: true, total_base: '0', total_pnl_base: null });
  });
});
