// Currency codes: ISO 4217 from the platform's list, the metals ICU leaves out, the minor units
// exchanges quote in, and case deciding between pounds and pence.
import { describe, expect, it } from 'vitest';
import { currencyProblem, currencyUnit, isCurrency, MINOR_UNITS } from '../../src/api/currencies.js';

describe('currencyUnit', () => {
  it.each(['USD', 'EUR', 'GBP', 'JPY', 'CHF', 'CAD', 'ZAR', 'ILS', 'KWD', 'XAU', 'XAG'])('%s is an ISO currency, its own major', (code) => {
    expect(currencyUnit(code)).toEqual({ code, major: code, exponent: 0 });
  });

  it.each([
    ['GBX', 'GBP', 2], ['GBp', 'GBP', 2], ['ZAC', 'ZAR', 2], ['ZAc', 'ZAR', 2], ['ILA', 'ILS', 2], ['USX', 'USD', 2], ['USd', 'USD', 2], ['KWF', 'KWD', 3],
  ])('%s is a minor unit: 10^-%i of %s', (code, major, exponent) => {
    expect(currencyUnit(code)).toEqual({ code, major, exponent });
  });

  it('every minor unit is a unit of an ISO currency the platform knows', () => {
    for (const { major } of Object.values(MINOR_UNITS)) expect(Intl.supportedValuesOf('currency')).toContain(major);
  });

  it.each(['usd', 'Usd', 'gbp', 'GBPX', 'XXX', 'ABC', '', 'EU', 'US D', 'toString', '__proto__', 'constructor'])('%j is not a currency', (code) => {
    expect(currencyUnit(code)).toBeUndefined();
    expect(isCurrency(code)).toBe(false);
  });

  it('tells a lower-case ISO code from an unknown one, and says which case means what', () => {
    expect(currencyProblem('usd')).toMatch(/case-sensitive .*did you mean USD\?/);
    expect(currencyProblem('gbp')).toMatch(/GBP is pounds, GBp pence/);
    expect(currencyProblem('ABC')).toMatch(/not an ISO 4217 currency code or a known minor unit \(GBX, GBp, ZAC/);
  });
});
