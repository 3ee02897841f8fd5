// Currency codes a position or a base may name: an ISO 4217 code, or a minor unit that exchanges
// quote in (pence on the London Stock Exchange). Which ISO codes exist is the platform's list
// (Intl.supportedValuesOf, ICU's data: the same 162 codes on Node 20, 22 and 24), not one kept here;
// the minor units are a convention of exchanges and data vendors, not of ISO, so they are listed.
// How many decimals each currency's amounts are written with for people (--precision minor) is ISO
// 4217's own list of minor units, as the currency-codes package carries it, not Intl's: ICU gives
// the digits a currency is used with (IQD 0, HUF 0, IDR 0, COP 0), ISO those it is defined with
// (IQD 3, HUF 2, IDR 2, COP 2), and an amount in a book is the defined one.
import { code as isoEntry } from 'currency-codes';

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

/**
 * Codes whose minor unit ISO 4217 lists as "N.A." (the package reads that as 0): the metals, the
 * SDR and the other X codes. Amounts in them are written with 4 decimals (a ten-thousandth of a
 * troy ounce), not rounded to whole units. test/api/currencies.test.ts reads the package's copy of
 * ISO's list and holds this one to it.
 */
export const NO_MINOR_UNIT: ReadonlySet<string> = new Set(['XAG', 'XAU', 'XBA', 'XBB', 'XBC', 'XBD', 'XDR', 'XPD', 'XPT', 'XSU', 'XTS', 'XUA', 'XXX']);
const NO_MINOR_UNIT_DIGITS = 4;
/**
 * Codes the platform knows that the package's copy of ISO's list (2024-06-25) has not: XCG (the
 * Caribbean guilder, listed in 2025) and the withdrawn HRK, SLL and ZWL. ISO defines each with 2.
 */
const UNLISTED_DIGITS = 2;

let isoCodes: ReadonlySet<string> | undefined;

/** The ISO 4217 codes this platform knows, plus the metals; read once, when first needed. */
function isoCurrencies(): ReadonlySet<string> {
  isoCodes ??= new Set([...Intl.supportedValuesOf('currency'), ...ISO_METALS]);
  return isoCodes;
}

/** `code` as a unit of its ISO currency, or undefined when it is neither an ISO code nor a listed minor unit. */
export function currencyUnit(code: string): CurrencyUnit | undefined {
  let unit = units.get(code);
  if (unit === undefined) {
    const minor = Object.hasOwn(MINOR_UNITS, code) ? MINOR_UNITS[code] : undefined;
    if (minor !== undefined) unit = { code, ...minor };
    else if (isoCurrencies().has(code)) unit = { code, major: code, exponent: 0 };
    else return undefined;
    units.set(code, unit);
  }
  return unit;
}

/** Every code currencyUnit() takes: the ISO 4217 codes this platform knows and the metals, then the minor units; for completion. */
export function currencyCodes(): string[] {
  return [...[...isoCurrencies()].sort(), ...Object.keys(MINOR_UNITS)];
}

/** currencyUnit's answers, each code once: every position asks for its currency's, several times. */
const units = new Map<string, CurrencyUnit>();

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

/**
 * The decimals an amount in `code` is written with for people: its ISO 4217 minor units (USD 2, JPY
 * 0, BHD 3); 4 where ISO lists none (NO_MINOR_UNIT); for a minor unit such as GBX, its ISO
 * currency's less the unit's own exponent, so that pence are whole (GBP 2 − 2): the same resolution
 * as the currency it is a unit of. Undefined for a code that is not a currency.
 */
export function minorDigits(code: string): number | undefined {
  let digits = minorDigitsByCode.get(code);
  if (digits === undefined) {
    const unit = currencyUnit(code);
    if (unit === undefined) return undefined;
    const iso = NO_MINOR_UNIT.has(unit.major) ? NO_MINOR_UNIT_DIGITS : isoEntry(unit.major)?.digits ?? UNLISTED_DIGITS;
    digits = Math.max(0, iso - unit.exponent);
    minorDigitsByCode.set(code, digits);
  }
  return digits;
}

/** minorDigits' answers: the package's look-up is a scan of its list. */
const minorDigitsByCode = new Map<string, number>();
