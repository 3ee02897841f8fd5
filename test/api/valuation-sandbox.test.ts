// A valuation end to end against the sandbox, as the client method will run it: round 1 (the
// instruments and direct pairs), round 2 (the USD legs still needed), then valuePositions. The
// expected figures are the tests' own arithmetic on the quotes the sandbox sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type Quote } from '../../src/api/index.js';
import { parsePositions } from '../../src/api/positions-text.js';
import { crossSymbols, valuationSymbols } from '../../src/api/valuation-plan.js';
import { valuePositions } from '../../src/api/valuation.js';
import { RATE_DIGITS } from '../../src/api/fx.js';
import { INSTRUMENTS } from '../../src/sandbox/index.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { divide, mul, same, sum } from '../helpers/decimal-oracle.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox({ limits: { perMinute: 1000, perHour: 100_000, perDay: 100_000 } });
});
afterAll(() => sb.close());

// Each position in the currency the sandbox's catalogue gives its instrument.
const currencyOf = (symbol: string) => INSTRUMENTS.find((instrument) => instrument.symbol === symbol)!.currency;
const FILE = [
  'symbol,quantity,currency,cost',
  `VOD.L,1000,${currencyOf('VOD.L')},70.25`,
  `SAP.DE,20,${currencyOf('SAP.DE')}`,
  `7203.T,100,${currencyOf('7203.T')}`,
  `RY.TO,-50,${currencyOf('RY.TO')}`,
  `AAPL,10,${currencyOf('AAPL')},150`,
  'EUR,2500.75,EUR',
].join('\n');

async function fetchRounds(base: string) {
  const positions = parsePositions(FILE, { source: 'portfolio.csv' });
  const client = createClient({ baseUrl: sb.url });
  const { accessToken } = await client.clientCredentials({ clientId: 'demo', clientSecret: 'demo-secret' });
  const ask = async (symbols: string[]) => (symbols.length === 0 ? [] : (await client.getQuotes({ symbols, accessToken, organizationId: 'org_demo' })).data);
  const first = valuationSymbols(positions, base);
  const round1 = await ask(first);
  const second = crossSymbols(positions, base, round1);
  const round2 = await ask(second);
  return { positions, first, second, quotes: [...round1, ...round2] };
}

const mid = (quotes: Quote[], symbol: string) => quotes.find((quote) => quote.symbol === symbol)!.mid;

describe('a portfolio in five currencies against the sandbox', () => {
  it('in EUR: CAD needs a second round and a cross through USD; the rest are direct or inverse', async () => {
    const { positions, first, second, quotes } = await fetchRounds('EUR');
    expect(first).toEqual(['VOD.L', 'SAP.DE', '7203.T', 'RY.TO', 'AAPL', 'GBPEUR', 'EURGBP', 'JPYEUR', 'EURJPY', 'CADEUR', 'EURCAD', 'USDEUR', 'EURUSD']);
    expect(second).toEqual(['CADUSD', 'USDCAD']);
    const valuation = valuePositions({ positions, quotes, base: 'EUR', price: 'side' });
    expect(valuation).toMatchObject({ missing: [], no_route: [], incomplete: false });

    const rates = {
      GBX: divide('1', mul(mid(quotes, 'EURGBP'), '100'), RATE_DIGITS),
      JPY: divide('1', mid(quotes, 'EURJPY'), RATE_DIGITS),
      CAD: divide('1', mul(mid(quotes, 'USDCAD'), mid(quotes, 'EURUSD')), RATE_DIGITS),
      USD: divide('1', mid(quotes, 'EURUSD'), RATE_DIGITS),
    };
    expect(valuation.fx.map((rate) => `${rate.from} ${rate.formula}`)).toEqual(['GBP 1/EURGBP', 'JPY 1/EURJPY', 'CAD 1/(USDCAD*EURUSD)', 'USD 1/EURUSD']);
    const [vod, sap, toyota, ry, aapl, cash] = valuation.positions;
    // 1 GBX in EUR is (1 / EURGBP) / 100: the rounded inverse moved two places, the same number as 1 / (EURGBP × 100).
    expect(same(vod!.rate!, rates.GBX)).toBe(true);
    expect(toyota!.rate).toBe(rates.JPY);
    expect(ry!.rate).toBe(rates.CAD);
    expect(aapl!.rate).toBe(rates.USD);
    expect(sap!.rate).toBe('1');
    expect(cash).toMatchObject({ price: '1', value: '2500.75', value_base: '2500.75' });
    // side: the long VOD.L at its bid, the short RY.TO at its ask.
    expect(vod!.price).toBe(quotes.find((quote) => quote.symbol === 'VOD.L')!.bid);
    expect(ry!.price).toBe(quotes.find((quote) => quote.symbol === 'RY.TO')!.ask);
    for (const p of valuation.positions) {
      expect(p.value).toBe(mul(p.price!, p.quantity));
      expect(same(p.value_base!, mul(p.value!, p.rate!))).toBe(true);
    }
    expect(valuation.total_base).toBe(sum(valuation.positions.map((p) => p.value_base!)));
    expect(valuation.total_pnl_base).toBe(sum([vod!.pnl_base!, aapl!.pnl_base!]));
  });

  it('in USD: every currency has a pair with USD, so one round', async () => {
    const { second, quotes, positions } = await fetchRounds('USD');
    expect(second).toEqual([]);
    const valuation = valuePositions({ positions, quotes, base: 'USD' });
    expect(valuation.fx.map((rate) => `${rate.from} ${rate.method} ${rate.formula}`)).toEqual(['GBP direct GBPUSD', 'EUR direct EURUSD', 'JPY inverse 1/USDJPY', 'CAD inverse 1/USDCAD']);
    // Pence: 1 GBX = GBPUSD / 100, exactly.
    expect(same(valuation.positions[0]!.rate!, mul(mid(quotes, 'GBPUSD'), '0.01'))).toBe(true);
    expect(valuation.total_base).toBe(sum(valuation.positions.map((p) => p.value_base!)));
  });
});
