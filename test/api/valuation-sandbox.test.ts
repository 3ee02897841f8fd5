// A valuation end to end against the sandbox, as the client method will run it: round 1 (the
// instruments and direct pairs), round 2 (the USD legs still needed), then valuePositions. The
// expected figures are the tests' own arithmetic on the quotes the sandbox sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type Quote } from '../../src/api/index.js';
import { parsePositions } from '../../src/api/positions-text.js';
import { crossSymbols, valuationSymbols } from '../../src/api/valuation-plan.js';
import { valuePositions } from '../../src/api/valuation.js';
import { INSTRUMENTS } from '../../src/sandbox/index.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { dec, fullText, mul, rat, sub, ratDiv, ratMul, ratSum, same, type Rat } from '../helpers/decimal-oracle.js';

const ONE: Rat = { n: 1n, d: 1n };
const places = (text: string) => dec(text).scale;

/** What every position and total must be, given each currency's exact rate: value_base = value × rate, the total the exact total, at full. */
function checkFigures(valuation: ReturnType<typeof valuePositions>, rates: Record<string, Rat>): void {
  const exact: Rat[] = [];
  for (const p of valuation.positions) {
    expect(p.value).toBe(mul(p.price!, p.quantity));
    expect(p.rate).toBe(fullText(rates[p.currency]!, 0));
    const inBase = ratMul(rat(p.value!), rates[p.currency]!);
    expect(p.value_base).toBe(fullText(inBase, places(p.value!)));
    exact.push(inBase);
  }
  expect(valuation.total_base).toBe(fullText(ratSum(exact), Math.max(...valuation.positions.map((p) => places(p.value!)))));
}

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
/** price − cost, exactly, as plain text. */
const ratText = (price: string, cost: string) => sub(price, cost);

describe('a portfolio in five currencies against the sandbox', () => {
  it('in EUR: CAD needs a second round and a cross through USD; the rest are direct or inverse', async () => {
    const { positions, first, second, quotes } = await fetchRounds('EUR');
    expect(first).toEqual(['VOD.L', 'SAP.DE', '7203.T', 'RY.TO', 'AAPL', 'GBPEUR', 'EURGBP', 'JPYEUR', 'EURJPY', 'CADEUR', 'EURCAD', 'USDEUR', 'EURUSD']);
    expect(second).toEqual(['CADUSD', 'USDCAD']);
    const valuation = valuePositions({ positions, quotes, base: 'EUR', price: 'side' });
    expect(valuation).toMatchObject({ missing: [], no_route: [], unusable: [], incomplete: false });

    // Each rate exact: 1 GBX in EUR is 1 / (EURGBP × 100); CAD a cross, 1 / (USDCAD × EURUSD).
    const inverse = (text: string) => ratDiv(ONE, rat(text));
    const rates = {
      GBX: inverse(mul(mid(quotes, 'EURGBP'), '100')),
      JPY: inverse(mid(quotes, 'EURJPY')),
      CAD: inverse(mul(mid(quotes, 'USDCAD'), mid(quotes, 'EURUSD'))),
      USD: inverse(mid(quotes, 'EURUSD')),
      EUR: ONE,
    };
    expect(valuation.fx.map((rate) => `${rate.from} ${rate.formula}`)).toEqual(['GBP 1/EURGBP', 'JPY 1/EURJPY', 'CAD 1/(USDCAD*EURUSD)', 'USD 1/EURUSD']);
    const [vod, , , ry, aapl, cash] = valuation.positions;
    expect(cash).toMatchObject({ price: '1', value: '2500.75', value_base: '2500.75' });
    // side: the long VOD.L at its bid, the short RY.TO at its ask.
    expect(vod!.price).toBe(quotes.find((quote) => quote.symbol === 'VOD.L')!.bid);
    expect(ry!.price).toBe(quotes.find((quote) => quote.symbol === 'RY.TO')!.ask);
    checkFigures(valuation, rates);
    const pnl = (p: typeof vod) => ratMul(rat(mul(ratText(p!.price!, p!.cost!), p!.quantity)), rates[p!.currency as keyof typeof rates]);
    expect(valuation.total_pnl_base).toBe(fullText(ratSum([pnl(vod), pnl(aapl)]), Math.max(places(vod!.pnl!), places(aapl!.pnl!))));
  });

  it('in USD: every currency has a pair with USD, so one round', async () => {
    const { second, quotes, positions } = await fetchRounds('USD');
    expect(second).toEqual([]);
    const valuation = valuePositions({ positions, quotes, base: 'USD' });
    expect(valuation.fx.map((rate) => `${rate.from} ${rate.method} ${rate.formula}`)).toEqual(['GBP direct GBPUSD', 'EUR direct EURUSD', 'JPY inverse 1/USDJPY', 'CAD inverse 1/USDCAD']);
    // Pence: 1 GBX = GBPUSD / 100, exactly.
    expect(same(valuation.positions[0]!.rate!, mul(mid(quotes, 'GBPUSD'), '0.01'))).toBe(true);
    checkFigures(valuation, {
      GBX: ratMul(rat(mid(quotes, 'GBPUSD')), rat('0.01')), EUR: rat(mid(quotes, 'EURUSD')), JPY: ratDiv(ONE, rat(mid(quotes, 'USDJPY'))), CAD: ratDiv(ONE, rat(mid(quotes, 'USDCAD'))), USD: ONE,
    });
  });
});
