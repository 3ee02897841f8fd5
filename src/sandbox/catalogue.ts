// The instruments the sandbox quotes. Prices are held in minor units (integers scaled by
// 10^decimals) so that bid, ask and mid are exact; see prices.ts.

export interface Instrument {
  symbol: string;
  /** Decimal places of bid and ask: 5 for FX, 3 for JPY pairs, 2 for US equities and ETFs. */
  decimals: number;
  /** Reference price in minor units, around which the walk moves. */
  basePrice: number;
  /** Narrowest spread in minor units; a quote's spread varies between this and twice this. */
  spread: number;
  /** Typical relative move over a day (0.006 = 0.6 %). */
  dailyVolatility: number;
  /** Venues (ISO 10383 MIC or FX platform), primary first. */
  venues: readonly string[];
  /**
   * The currency prices are in: an FX pair's second currency (EURUSD in USD), an equity's trading
   * currency, GBX (pence) for London. The service never sends it (a Quote has no currency), which
   * is why a positions file gives each position's; tests and the docs read it here.
   */
  currency: string;
}

type Row = [symbol: string, decimals: number, price: string, spread: number, volatility: number, venues: string, currency?: string];

// Real symbols, plausible mid-2020s levels. FX: EBS is primary for EUR, JPY and CHF pairs, LMAX for
// the others; equities: the listing exchange first, then NYSE Arca where they also trade. A row's
// currency is an FX pair's second currency, else USD unless given: the four listed abroad are there
// for valuations in several currencies (pence, a EUR and a JPY price, and CAD, which has no direct
// pair with EUR, GBP or JPY here, so that a valuation in those needs a cross through USD).
const ROWS: readonly Row[] = [
  ['EURUSD', 5, '1.08450', 2, 0.005, 'EBS LMAX'],
  ['GBPUSD', 5, '1.27150', 3, 0.006, 'LMAX EBS'],
  ['USDJPY', 3, '151.420', 3, 0.006, 'EBS LMAX'],
  ['USDCHF', 5, '0.88120', 3, 0.005, 'EBS LMAX'],
  ['AUDUSD', 5, '0.65830', 3, 0.007, 'LMAX EBS'],
  ['NZDUSD', 5, '0.60210', 4, 0.007, 'LMAX'],
  ['USDCAD', 5, '1.36240', 3, 0.005, 'LMAX EBS'],
  ['EURGBP', 5, '0.85290', 4, 0.004, 'LMAX EBS'],
  ['EURJPY', 3, '164.210', 4, 0.006, 'EBS LMAX'],
  ['GBPJPY', 3, '192.530', 6, 0.007, 'LMAX'],
  ['EURCHF', 5, '0.95560', 4, 0.004, 'EBS'],
  ['AUDJPY', 3, '99.680', 5, 0.008, 'LMAX'],
  ['AAPL', 2, '227.10', 1, 0.015, 'XNAS ARCX'],
  ['MSFT', 2, '415.30', 2, 0.014, 'XNAS ARCX'],
  ['NVDA', 2, '118.20', 1, 0.03, 'XNAS ARCX'],
  ['AMZN', 2, '186.40', 1, 0.018, 'XNAS'],
  ['GOOGL', 2, '164.70', 1, 0.017, 'XNAS'],
  ['META', 2, '512.60', 3, 0.02, 'XNAS'],
  ['TSLA', 2, '248.50', 2, 0.035, 'XNAS ARCX'],
  ['JPM', 2, '211.80', 2, 0.012, 'XNYS ARCX'],
  ['V', 2, '276.40', 2, 0.011, 'XNYS'],
  ['KO', 2, '69.85', 1, 0.008, 'XNYS'],
  ['XOM', 2, '117.30', 1, 0.014, 'XNYS ARCX'],
  ['IBM', 2, '191.20', 2, 0.012, 'XNYS'],
  ['SPY', 2, '554.20', 1, 0.01, 'ARCX XNAS'],
  ['QQQ', 2, '476.90', 1, 0.012, 'XNAS ARCX'],
  ['IWM', 2, '218.40', 1, 0.014, 'ARCX'],
  ['GLD', 2, '231.60', 1, 0.009, 'ARCX'],
  ['DIA', 2, '409.10', 2, 0.009, 'ARCX'],
  ['VOD.L', 2, '72.50', 2, 0.015, 'XLON', 'GBX'],
  ['SAP.DE', 2, '231.40', 5, 0.016, 'XETR', 'EUR'],
  ['7203.T', 1, '2850.0', 5, 0.016, 'XTKS', 'JPY'],
  ['RY.TO', 2, '165.30', 2, 0.01, 'XTSE', 'CAD'],
];

const FX_PAIR = /^[A-Z]{6}$/;

export const INSTRUMENTS: readonly Instrument[] = ROWS.map(([symbol, decimals, price, spread, dailyVolatility, venues, currency]) => ({
  symbol,
  decimals,
  basePrice: Number(price.replace('.', '')),
  spread,
  dailyVolatility,
  venues: venues.split(' '),
  currency: currency ?? (FX_PAIR.test(symbol) ? symbol.slice(3) : 'USD'),
}));

export const VENUES: readonly string[] = ['EBS', 'LMAX', 'XNAS', 'XNYS', 'ARCX', 'XLON', 'XETR', 'XTKS', 'XTSE'];

/** `SYN00001`, `SYN00002`, ...: always five digits, hence at most 99,999 of them. */
export function syntheticSymbol(index: number): string {
  return `SYN${String(index).padStart(5, '0')}`;
}

/** FNV-1a, 32 bits: a cheap, stable hash of a symbol for deriving synthetic prices. */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  }
  return hash >>> 0;
}

/** The real instruments plus `synthetic` SYN instruments (2 decimals, in USD, on XNAS), keyed by symbol. */
export function createCatalogue(synthetic = 0): Map<string, Instrument> {
  const catalogue = new Map<string, Instrument>();
  for (const instrument of INSTRUMENTS) catalogue.set(instrument.symbol, instrument);
  const synVenues = ['XNAS'];
  for (let i = 1; i <= synthetic; i++) {
    const symbol = syntheticSymbol(i);
    const hash = hashString(symbol);
    catalogue.set(symbol, {
      symbol,
      decimals: 2,
      basePrice: 1000 + (hash % 49_000), // 10.00 to 499.99
      spread: 1 + (hash >>> 20) % 3,
      dailyVolatility: 0.02,
      venues: synVenues,
      currency: 'USD',
    });
  }
  return catalogue;
}
