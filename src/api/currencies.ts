// Currency codes a position or a base may name: an ISO 4217 code, or a minor unit that exchanges
// quote in (pence on the London Stock Exchange). Which ISO codes exist is the platform's list
// (Intl.supportedValuesOf, ICU's data: the same 162 codes on Node 20, 22 and 24), not one kept here;
// the minor units are a convention of exchanges and data vendors, not of ISO, so they are listed.

/** A currency as arithmetic sees it: `major`'s amount is this currency's amount times 10^-exponent. */
export interface CurrencyUnit {
  /** The code as written: `GBp`. */
  code: string;
  /** The ISO 4217 currency it is a unit of: `GBP`. */
  major: string;
  /** 0 for an ISO code; 2 for pence (1 GBp = 10^-2 GBP), 3 for fils. */
  exponent: number;
}

/**
 * Minor units, each a fixed fraction of an ISO currency. Codes are case-sensitive: `GBP` is pounds
 * and `GBp` pence, the two spellings of London prices that data vendors use (`GBX` and `GBp`).
 */
export const MINOR_UNITS: Readonly<Record<string, { major: string; exponent: number }>> = {
  /** Pence sterling: London Stock Exchange prices. */
  GBX: { major: 'GBP', exponent: 2 },
  GBp: { major: 'GBP', exponent: 2 },
  /** South African cents: Johannesburg Stock Exchange prices. */
  ZAC: { major: 'ZAR', exponent: 2 },
  ZAc: { major: 'ZAR', exponent: 2 },
  /** Israeli agorot: Tel Aviv Stock Exchange prices. */
  ILA: { major: 'ILS', exponent: 2 },
  /** US cents: grain and livestock futures on CME. */
  USX: { major: 'USD', exponent: 2 },
  USd: { major: 'USD', exponent: 2 },
  /** Kuwaiti fils, a thousandth of a dinar: Boursa Kuwait prices. */
  KWF: { major: 'KWD', exponent: 3 },
};

/**
 * ISO 4217 codes ICU leaves out of its list because no country pays in them, but which markets
 * quote: the precious metals, priced per troy ounce (XAUUSD).
 */
const ISO_METALS = ['XAU', 'XAG', 'XPT', 'XPD'];

let isoCodes: ReadonlySet<string> | undefined;

/** The ISO 4217 codes this platform knows, plus the metals; read once, when first needed. */
function isoCurrencies(): ReadonlySet<string> {
  isoCodes ??= new Set([...Intl.supportedValuesOf('currency'), ...ISO_METALS]);
  return isoCodes;
}

/** `code` as a unit of its ISO currency, or undefined when it is neither an ISO code nor a listed minor unit. */
export function currencyUnit(code: string): CurrencyUnit | undefined {
  const minor = Object.hasOwn(MINOR_UNITS, code) ? MINOR_UNITS[code] : undefined;
  if (minor !== undefined) return { code, ...minor };
  return isoCurrencies().has(code) ? { code, major: code, exponent: 0 } : undefined;
}

export function isCurrency(code: unknown): code is string {
  return typeof code === 'string' && currencyUnit(code) !== undefined;
}

/**
 * Why `code` is not a currency, as the end of a sentence that names it ("currency "usd" is ..."),
 * suggesting the fix: an ISO code in lower case is refused rather than guessed, since case decides
 * between GBP and GBp.
 */
export function currencyProblem(code: string): string {
  const upper = code.toUpperCase();
  if (upper !== code && /^[A-Za-z]{3}$/.test(code) && currencyUnit(upper) !== undefined) {
    return `is not a currency code: codes are case-sensitive (GBP is pounds, GBp pence); did you mean ${upper}?`;
  }
  return `is not an ISO 4217 currency code or a known minor unit (${Object.keys(MINOR_UNITS).join(', ')})`;
}
