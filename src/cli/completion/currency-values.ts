// The candidates of an option that takes a currency (mkt value --base, --currency): every code the
// library takes (src/api/currencies.ts), an ISO 4217 code with its English name, a minor unit with
// the currency it is a fraction of. Read at Tab time only.
import { currencyCodes, currencyUnit } from '../../api/internal.js';
import type { Candidate } from './candidates.js';

const FRACTIONS: Readonly<Record<number, string>> = { 2: 'a hundredth', 3: 'a thousandth' };

export function currencyValues(): Candidate[] {
  const names = new Intl.DisplayNames(['en'], { type: 'currency', fallback: 'none' });
  return currencyCodes().map((code) => {
    const { major, exponent } = currencyUnit(code)!;
    const description = exponent === 0 ? names.of(code) : `${FRACTIONS[exponent] ?? `10^-${exponent}`} of ${major}`;
    return description === undefined ? { value: code } : { value: code, description };
  });
}
