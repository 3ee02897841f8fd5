// The prices a valuation used, as the books people keep read them (`mkt value --format ledger` and
// `--format beancount`): a price directive for each instrument's mid in its currency, each FX pair's
// mid as the service sent it, and each minor unit's factor (GBX is 0.01 GBP). A book's prices are
// marks, so the mids are written whatever the price rule; a quote that cannot be right gives none.
//
// - ledger and hledger: `P 2026-11-29 14:30:15 AAPL 227.12 USD`, the date and time of the quote in
//   UTC; a commodity that is not all letters is written in double quotes ("VOD.L"), as both require.
//   A quoted name cannot hold a double quote: a symbol with one is written with ' in its place, a
//   -2, -3... added if that name is taken, and a comment line at the top names it (ledger and hledger
//   read `"AB"` as AB: deleting the quote from A"B would price AB twice).
//   hledger values through chains and reverses of these prices (`hledger bal -X USD`).
// A minor unit's factor, which no quote dates, takes the valuation's as_of, or with none (a book of
// cash alone) the time of the run.
// - beancount: `2026-11-29 price AAPL 227.12 USD` (a date, no time). beancount converts only by a
//   direct price, its inverse, or through a cost currency, so every commodity's price in the
//   valuation's base is written too, at `full`. beancount has no quoting: a commodity must be 2 to 24
//   upper-case letters, digits and ' . _ -, a letter first and a letter or digit last. A symbol that
//   is not (a lower-case letter, a leading digit, GBp) is written as X followed by the symbol
//   upper-cased with every other character as -, cut to 24 (7203.T is X7203.T, GBp is XGBP), a -2,
//   -3... added if that name is taken; a comment line at the top names each name given so.
import type { ExactValuation } from '../api/valuation.js';
import type { Quote } from '../api/types.js';
import { currencyUnit } from '../api/currencies.js';
import { figureOf, figureText, FULL, times } from '../shared/figure.js';
import { plainDecimal } from './decimal.js';

export const PRICE_FORMATS = ['ledger', 'beancount'] as const;
export type PriceFormat = (typeof PRICE_FORMATS)[number];

export function isPriceFormat(value: unknown): value is PriceFormat {
  return (PRICE_FORMATS as readonly unknown[]).includes(value);
}

/** One price: one `commodity` is worth `price` of `currency`, at `timestamp` (the service's, or the valuation's). */
interface Price {
  commodity: string;
  price: string;
  currency: string;
  timestamp: string;
}

/** The prices of a valuation (valuePortfolio's exact valuation and the quotes it used), in `format`; `now` dates a factor when no quote does. */
export function renderPrices(valuation: ExactValuation, quotes: readonly Quote[], format: PriceFormat, now: number): string {
  const when = valuation.as_of ?? new Date(now).toISOString();
  const prices = marks(valuation, quotes, when);
  if (format === 'ledger') {
    const names = ledgerNames(prices);
    const lines = prices.map((p) => `P ${utc(p.timestamp)} ${names.get(p.commodity)} ${p.price} ${names.get(p.currency)}\n`);
    return renamedLines(names, 'ledger', (symbol, name) => name === symbol || name === `"${symbol}"`) + lines.join('');
  }
  const all = [...prices, ...inBase(valuation, quotes, when)];
  const names = beancountNames(all);
  const lines = all.map((p) => `${utc(p.timestamp).slice(0, 10)} price ${names.get(p.commodity)} ${p.price} ${names.get(p.currency)}\n`);
  return renamedLines(names, 'beancount', (symbol, name) => name === symbol) + [...new Set(lines)].join('');
}

/** A comment line for each symbol the book cannot name as it is (`named` says which it can). */
function renamedLines(names: ReadonlyMap<string, string>, book: PriceFormat, named: (symbol: string, name: string) => boolean): string {
  return [...names].filter(([symbol, name]) => !named(symbol, name)).map(([symbol, name]) => `; ${symbol} is written ${name}: ${book} cannot name it\n`).join('');
}

/** The instruments' mids, the pairs' mids, and the minor units' factors (dated `when`): each once, in the order first used. */
function marks(valuation: ExactValuation, quotes: readonly Quote[], when: string): Price[] {
  const bySymbol = new Map(quotes.map((quote) => [quote.symbol.toUpperCase(), quote]));
  const out: Price[] = [];
  const seen = new Set<string>();
  const add = (price: Price) => {
    const key = `${price.commodity} ${price.currency}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push(price);
    }
  };
  for (const position of valuation.positions) {
    // A quote that cannot be right, and no quote, give no price.
    if (position.timestamp === null || position.price === null || position.status === 'missing' || position.status === 'unusable') continue;
    const quote = bySymbol.get(position.symbol.toUpperCase());
    if (quote !== undefined) add({ commodity: position.symbol, price: plainDecimal(quote.mid), currency: position.currency, timestamp: quote.timestamp });
  }
  for (const rate of valuation.fx) {
    rate.pairs.forEach((pair, i) => {
      const quote = bySymbol.get(pair);
      if (quote !== undefined) add({ commodity: pair.slice(0, 3), price: plainDecimal(quote.mid), currency: pair.slice(3), timestamp: rate.timestamps[i] ?? quote.timestamp });
    });
  }
  for (const code of new Set([...valuation.positions.map((position) => position.currency), valuation.base])) {
    const unit = currencyUnit(code);
    if (unit !== undefined && unit.exponent > 0) add({ commodity: code, price: `0.${'0'.repeat(unit.exponent - 1)}1`, currency: unit.major, timestamp: when });
  }
  return out;
}

/** For beancount: each commodity's price in the base, at full: an instrument's mid times its currency's rate, each currency's rate (dated `when`). */
function inBase(valuation: ExactValuation, quotes: readonly Quote[], when: string): Price[] {
  const bySymbol = new Map(quotes.map((quote) => [quote.symbol.toUpperCase(), quote]));
  const out: Price[] = [];
  const base = valuation.base;
  for (const position of valuation.positions) {
    if (position.rate === null || position.currency === base) continue;
    // Each currency once: its rate to the base (a cross's too).
    out.push({ commodity: position.currency, price: figureText(position.rate, FULL), currency: base, timestamp: when });
    if (position.status !== 'ok' || position.symbol === position.currency || position.symbol.toUpperCase() === position.currency) continue;
    const quote = bySymbol.get(position.symbol.toUpperCase());
    if (quote === undefined) continue;
    out.push({ commodity: position.symbol, price: figureText(times(figureOf(quote.mid), position.rate), FULL), currency: base, timestamp: quote.timestamp });
  }
  return out;
}

/** `2026-11-29 14:30:15`: the instant in UTC, to the second. */
function utc(timestamp: string): string {
  const ms = Date.parse(timestamp);
  return Number.isNaN(ms) ? timestamp : new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/** Each commodity and currency of `prices` to its ledger and hledger name, by the rule at the head of this file. */
function ledgerNames(prices: readonly Price[]): Map<string, string> {
  const names = new Map<string, string>();
  const taken = new Set<string>();
  const symbols = prices.flatMap((p) => [p.commodity, p.currency]);
  // Names that can be written as they are, or quoted, come first: they keep their names.
  for (const symbol of symbols) {
    if (symbol.includes('"') || names.has(symbol)) continue;
    const name = /^[A-Za-z]+$/.test(symbol) ? symbol : `"${symbol}"`;
    names.set(symbol, name);
    taken.add(name);
  }
  for (const symbol of symbols) {
    if (names.has(symbol)) continue;
    const stem = symbol.replaceAll('"', "'");
    let name = `"${stem}"`;
    for (let n = 2; taken.has(name); n++) name = `"${stem}-${n}"`;
    names.set(symbol, name);
    taken.add(name);
  }
  return names;
}

/** beancount's commodity syntax. */
const BEANCOUNT_NAME = /^[A-Z][A-Z0-9'._-]{0,22}[A-Z0-9]$/;

/** Each commodity and currency of `prices` to its beancount name, by the rule at the head of this file. */
function beancountNames(prices: readonly Price[]): Map<string, string> {
  const names = new Map<string, string>();
  const taken = new Set<string>();
  const symbols = prices.flatMap((p) => [p.commodity, p.currency]);
  // Names that are valid as they are come first: they keep their names.
  for (const symbol of symbols) {
    if (BEANCOUNT_NAME.test(symbol) && !names.has(symbol)) {
      names.set(symbol, symbol);
      taken.add(symbol);
    }
  }
  for (const symbol of symbols) {
    if (names.has(symbol)) continue;
    const stem = `X${symbol.toUpperCase().replace(/[^A-Z0-9'._-]/g, '-')}`.slice(0, 24).replace(/[^A-Z0-9]+$/, '') || 'X';
    let name = stem.length < 2 ? `${stem}X` : stem;
    for (let n = 2; taken.has(name); n++) name = `${stem.slice(0, 24 - String(n).length - 1)}-${n}`;
    names.set(symbol, name);
    taken.add(name);
  }
  return names;
}
