// The sandbox's instruments in other currencies: each has a currency a valuation knows, the
// symbols with dots and digits are quoted, and the FX pairs leave one currency (CAD) with no
// direct pair to EUR, GBP or JPY, so that a valuation in those crosses through USD.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currencyUnit } from '../../src/api/currencies.js';
import { INSTRUMENTS, VENUES } from '../../src/sandbox/index.js';
import { getQuotes, getToken, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const bySymbol = new Map(INSTRUMENTS.map((instrument) => [instrument.symbol, instrument]));
const FX = INSTRUMENTS.filter((instrument) => /^[A-Z]{6}$/.test(instrument.symbol));

let sb: TestSandbox;
let token: string;
beforeAll(async () => {
  sb = await startTestSandbox();
  token = await getToken(sb.url);
});
afterAll(() => sb.close());

describe('the catalogue\'s currencies', () => {
  it('gives every instrument a currency code a valuation knows', () => {
    for (const instrument of INSTRUMENTS) expect(currencyUnit(instrument.currency), instrument.symbol).toBeDefined();
  });

  it('prices an FX pair in its second currency, a US listing in USD', () => {
    for (const pair of FX) expect(pair.currency).toBe(pair.symbol.slice(3));
    expect(['AAPL', 'SPY', 'KO'].map((symbol) => bySymbol.get(symbol)?.currency)).toEqual(['USD', 'USD', 'USD']);
  });

  it('lists four stocks abroad: London in pence, Frankfurt in EUR, Tokyo in JPY, Toronto in CAD', () => {
    expect(['VOD.L', 'SAP.DE', '7203.T', 'RY.TO'].map((symbol) => {
      const instrument = bySymbol.get(symbol)!;
      return [instrument.currency, instrument.venues[0], instrument.decimals];
    })).toEqual([['GBX', 'XLON', 2], ['EUR', 'XETR', 2], ['JPY', 'XTKS', 1], ['CAD', 'XTSE', 2]]);
    for (const venue of ['XLON', 'XETR', 'XTKS', 'XTSE']) expect(VENUES).toContain(venue);
  });

  it('has a pair with USD for every currency it prices in, and none between CAD and EUR, GBP or JPY', () => {
    const pairs = new Set(FX.map((pair) => pair.symbol));
    for (const currency of new Set(INSTRUMENTS.map((instrument) => currencyUnit(instrument.currency)!.major))) {
      if (currency !== 'USD') expect(pairs.has(`${currency}USD`) || pairs.has(`USD${currency}`), currency).toBe(true);
    }
    for (const other of ['EUR', 'GBP', 'JPY']) {
      expect(pairs.has(`CAD${other}`) || pairs.has(`${other}CAD`)).toBe(false);
    }
  });
});

describe('quotes of symbols with dots and digits', () => {
  it('quotes VOD.L, SAP.DE, 7203.T and RY.TO in any case, with their decimals', async () => {
    const response = await getQuotes(sb.url, token, 'symbols=vod.l,SAP.DE,7203.t,Ry.To');
    expect(response.status).toBe(200);
    const raw = [...response.text.matchAll(/"symbol":"([^"]+)","bid":([0-9.]+),"ask":([0-9.]+)/g)].map((m) => [m[1], m[2], m[3]]);
    expect(raw.map(([symbol]) => symbol)).toEqual(['VOD.L', 'SAP.DE', '7203.T', 'RY.TO']);
    for (const [symbol, bid, ask] of raw) {
      const places = bySymbol.get(symbol!)!.decimals;
      expect(bid).toMatch(new RegExp(`^\\d+\\.\\d{${places}}$`));
      expect(ask).toMatch(new RegExp(`^\\d+\\.\\d{${places}}$`));
    }
  });

  it('quotes them on their own venue only', async () => {
    const onXlon = await getQuotes(sb.url, token, 'symbols=VOD.L,SAP.DE&venue=XLON');
    expect((onXlon.json as { data: Array<{ symbol: string }> }).data.map((quote) => quote.symbol)).toEqual(['VOD.L']);
  });
});
