// Currency codes: ISO 4217 from the platform's list, the metals ICU leaves out, the minor units
// exchanges quote in, and case deciding between pounds and pence.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { currencyProblem, currencyUnit, isCurrency, minorDigits, MINOR_UNITS, NO_MINOR_UNIT } from '../../src/api/currencies.js';

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

describe('minorDigits: the minor units of ISO 4217\'s own list, not Intl\'s', () => {
  it.each([
    ['USD', 2], ['EUR', 2], ['JPY', 0], ['BHD', 3], ['KWD', 3], ['TND', 3],
    // Where Intl gives the digits a currency is used with, not those ISO defines it with.
    ['IQD', 3], ['HUF', 2], ['IDR', 2], ['COP', 2],
  ])('%s has %i', (code, digits) => {
    expect(minorDigits(code)).toBe(digits);
  });

  it('differs from Intl for IQD, HUF, IDR and COP, as the issue found', () => {
    const intl = (code: string) => new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits;
    expect(['IQD', 'HUF', 'IDR', 'COP'].map((code) => [code, intl(code)])).toEqual([['IQD', 0], ['HUF', 0], ['IDR', 0], ['COP', 0]]);
  });

  it.each([['GBX', 0], ['GBp', 0], ['ZAC', 0], ['ILA', 0], ['USX', 0], ['KWF', 0]])('a minor unit %s has its currency\'s less its own: %i', (code, digits) => {
    expect(minorDigits(code)).toBe(digits);
  });

  it('gives 4 places to the codes ISO lists with no minor unit (N.A.), the metals among them', () => {
    for (const code of ['XAU', 'XAG', 'XPT', 'XPD']) expect(minorDigits(code)).toBe(4);
  });

  it('holds its list of codes with no minor unit to the package\'s copy of ISO\'s list (its XML), so the list cannot go stale unseen', () => {
    const xml = fs.readFileSync(createRequire(import.meta.url).resolve('currency-codes/iso-4217-list-one.xml'), 'utf8');
    const none = new Set([...xml.matchAll(/<Ccy>([A-Z]{3})<\/Ccy>\s*<CcyNbr>\d*<\/CcyNbr>\s*<CcyMnrUnts>N\.A\.<\/CcyMnrUnts>/g)].map((match) => match[1]!));
    expect([...none].sort()).toEqual([...NO_MINOR_UNIT].sort());
  });

  it('has nothing for a code that is no currency', () => {
    expect(minorDigits('ABC')).toBeUndefined();
  });
});
