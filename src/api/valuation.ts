// valuePositions: positions valued against quotes, exactly, in their own currencies and in a base
// currency; no network. The result is the valuation document itself, its field names those of
// `mkt value --json` (snake_case, as the document is written), so a program, the CLI and an MCP
// tool hand on one shape. Every value is decimal text: value = price × quantity exactly, value_base
// = value × rate exactly, and every total the exact sum of the values shown.
import { currencyProblem, currencyUnit, isCurrency, type CurrencyUnit } from './currencies.js';
import { OptionsError } from './errors.js';
import { createQuoteLookup, findRate, type FxRate, type NoRoute, type QuoteLookup, type QuotesBySymbol } from './fx.js';
import { DECIMAL } from './json.js';
import { checkPositions, type Position } from './positions.js';
import type { Quote } from './types.js';
import { converted, DecimalSum, difference, exact, exactText, multiply, product, type Exact } from '../shared/decimal.js';

export type PriceRule = 'mid' | 'bid' | 'ask' | 'side';
export const PRICE_RULES: readonly PriceRule[] = ['mid', 'bid', 'ask', 'side'];

export interface ValuePositionsInput {
  positions: readonly Position[];
  /** The quotes by symbol (any case), or a list of them (getQuotes' `data`). */
  quotes: QuotesBySymbol;
  /** The currency of value_base and the totals: an ISO 4217 code (or a minor unit). */
  base: string;
  /** Which price values an instrument: mid (the default), bid, ask, or side (a long at the bid, a short at the ask). */
  price?: PriceRule;
}

export type PositionStatus = 'ok' | 'missing' | 'no_route';

/** One input position, valued. Values are null when they cannot be known (no quote, no rate). */
export interface ValuedPosition {
  symbol: string;
  quantity: string;
  currency: string;
  /** The price used (1 for cash); null with no quote. */
  price: string | null;
  /** price × quantity, in `currency`. */
  value: string | null;
  /** One unit of `currency` in the base currency: 1, a minor unit's fraction, an FX rate, or both. */
  rate: string | null;
  /** value × rate. */
  value_base: string | null;
  cost?: string;
  /** (price - cost) × quantity, in `currency`, where a cost is given. */
  pnl?: string | null;
  pnl_base?: string | null;
  /** ok; missing: no quote for the symbol; no_route: no rate from its currency to the base. */
  status: PositionStatus;
  /** The line of the positions file, where it came from one. */
  line?: number;
}

/** The positions in one currency (as written: GBX apart from GBP), summed. */
export interface CurrencyTotal {
  currency: string;
  /** Positions in this currency, valued or not. */
  positions: number;
  /** The sum of their values (those with a quote). */
  value: string;
  /** The sum of their value_base; null when the currency has no route to the base. */
  value_base: string | null;
  /** Where any of them has a cost: the sum of their pnl (those with a quote). */
  pnl?: string;
  pnl_base?: string | null;
  /** True when a position in this currency has no quote, or the currency no route: its sums leave them out. */
  incomplete: boolean;
}

export interface Valuation {
  base: string;
  price: PriceRule;
  /** One per input position, in input order. */
  positions: ValuedPosition[];
  /** One per currency, in the order the currencies first appear. */
  totals: CurrencyTotal[];
  /** The sum of every value_base shown. */
  total_base: string;
  /** Where any position has a cost: the sum of every pnl_base shown. */
  total_pnl_base?: string;
  /** Symbols with no quote, each once, as first written. */
  missing: string[];
  /** Currencies with no rate to the base, and the pairs tried. */
  no_route: NoRoute[];
  /** The rates used, in the order first needed. */
  fx: FxRate[];
  /** True when a position has no quote or no route: the totals leave it out. */
  incomplete: boolean;
}

/** How a currency converts to the base: its rate (null: no route), and the same as an Exact. */
interface Conversion {
  rate: string | null;
  exact: Exact | null;
}

/** Positions valued against `quotes`; throws an OptionsError (or PositionsError) for input it cannot use. */
export function valuePositions(input: ValuePositionsInput): Valuation {
  if (input === null || typeof input !== 'object') throw new OptionsError('INVALID_OPTIONS', 'valuePositions needs { positions, quotes, base }', { option: 'input', operation: 'valuePositions' });
  const { positions, base } = input;
  const rule = input.price ?? 'mid';
  const baseUnit = checkValuationOptions({ base, price: rule }, 'valuePositions');
  checkPositions(positions);
  return valueCheckedPositions(positions, createQuoteLookup(input.quotes), base, baseUnit, rule);
}

/** valuePositions for positions, a base and a rule already checked. */
export function valueCheckedPositions(positions: readonly Position[], lookup: QuoteLookup, base: string, baseUnit: CurrencyUnit, rule: PriceRule): Valuation {
  const fx: FxRate[] = [];
  const noRoute: NoRoute[] = [];
  const conversions = new Map<string, Conversion>();
  const convert = (code: string): Conversion => {
    let conversion = conversions.get(code);
    if (conversion === undefined) {
      conversion = conversionOf(currencyUnit(code)!, baseUnit, lookup, fx, noRoute);
      conversions.set(code, conversion);
    }
    return conversion;
  };

  // Lots of one symbol share a price: read once.
  const prices = new Map<string, Exact>();
  const parsedPrice = (text: string): Exact => {
    let parsed = prices.get(text);
    if (parsed === undefined) {
      parsed = exact(text);
      prices.set(text, parsed);
    }
    return parsed;
  };
  const missing: string[] = [];
  const missingKeys = new Set<string>();
  const totals = new Map<string, Totals>();
  let anyCost = false;
  const valued: ValuedPosition[] = new Array(positions.length);
  for (let i = 0; i < positions.length; i++) {
    const position = positions[i]!;
    const { symbol, currency } = position;
    const key = symbol.toUpperCase();
    let price: string | null = '1';
    if (symbol !== currency && key !== currency) {
      const quote = lookup(key);
      price = quote === undefined ? null : priceOf(quote, rule, position.quantity);
      if (quote === undefined && !missingKeys.has(key)) {
        missingKeys.add(key);
        missing.push(symbol);
      }
    }
    const conversion = convert(currency);
    const { out, value, valueBase, pnl, pnlBase } = valueOne(position, price, price === null ? null : parsedPrice(price), conversion);
    let total = totals.get(currency);
    if (total === undefined) {
      total = { count: 0, unvalued: 0, conversion, value: new DecimalSum(), valueBasePlaces: 0, pnl: undefined, pnlBasePlaces: 0 };
      totals.set(currency, total);
    }
    total.count++;
    if (value === null) total.unvalued++;
    else total.value.addExact(value);
    if (valueBase !== null && valueBase.places > total.valueBasePlaces) total.valueBasePlaces = valueBase.places;
    if (out.cost !== undefined) {
      anyCost = true;
      total.pnl ??= new DecimalSum();
      if (pnl !== null) total.pnl.addExact(pnl);
      if (pnlBase !== null && pnlBase.places > total.pnlBasePlaces) total.pnlBasePlaces = pnlBase.places;
    }
    valued[i] = out;
  }

  // The totals in the base, from each currency's: the sum of a currency's converted values is its
  // rate times the sum of its values, exactly (a conversion is an exact product), so only a few
  // long sums are added, not one per position.
  const currencyTotals: CurrencyTotal[] = [];
  const totalBase = new DecimalSum();
  const totalPnlBase = new DecimalSum();
  for (const [currency, total] of totals) {
    const { out, valueBase, pnlBase } = currencyTotal(currency, total);
    currencyTotals.push(out);
    if (valueBase !== null) totalBase.addExact(valueBase);
    if (pnlBase !== null) totalPnlBase.addExact(pnlBase);
  }

  return {
    base,
    price: rule,
    positions: valued,
    totals: currencyTotals,
    total_base: totalBase.toString(),
    ...(anyCost ? { total_pnl_base: totalPnlBase.toString() } : {}),
    missing,
    no_route: noRoute,
    fx,
    incomplete: missing.length > 0 || noRoute.length > 0,
  };
}

/** A position valued: its document, and its figures as Exact, for the totals. */
interface ValueOneResult {
  out: ValuedPosition;
  value: Exact | null;
  valueBase: Exact | null;
  pnl: Exact | null;
  pnlBase: Exact | null;
}

/** One position at `price` (null: no quote; `unit` the same as an Exact), converted. */
function valueOne(position: Position, price: string | null, unit: Exact | null, conversion: Conversion): ValueOneResult {
  const { symbol, quantity, currency, cost } = position;
  const { rate } = conversion;
  const amount = exact(quantity);
  const value = unit === null ? null : product(unit, amount);
  const valueBase = value === null || conversion.exact === null ? null : rate === '1' ? value : converted(value, conversion.exact);
  const status: PositionStatus = price === null ? 'missing' : rate === null ? 'no_route' : 'ok';
  const valueText = value === null ? null : exactText(value);
  const baseText = valueBase === null ? null : valueBase === value ? valueText : exactText(valueBase);
  // Object literals, not spreads: each row's object is built in one shape (a spread per row was
  // three times slower over 100,000 rows).
  let out: ValuedPosition;
  let pnl: Exact | null = null;
  let pnlBase: Exact | null = null;
  if (cost === undefined) {
    out = { symbol, quantity, currency, price, value: valueText, rate, value_base: baseText, status };
  } else {
    pnl = unit === null ? null : product(difference(unit, exact(cost)), amount);
    pnlBase = pnl === null || conversion.exact === null ? null : rate === '1' ? pnl : converted(pnl, conversion.exact);
    const pnlText = pnl === null ? null : exactText(pnl);
    const pnlBaseText = pnlBase === null ? null : pnlBase === pnl ? pnlText : exactText(pnlBase);
    out = { symbol, quantity, currency, price, value: valueText, rate, value_base: baseText, cost, pnl: pnlText, pnl_base: pnlBaseText, status };
  }
  if (position.line !== undefined) out.line = position.line;
  return { out, value, valueBase, pnl, pnlBase };
}

interface Totals {
  count: number;
  /** Positions left out of the sums: no quote. */
  unvalued: number;
  conversion: Conversion;
  value: DecimalSum;
  /** The most places of a converted value: those of their sum. */
  valueBasePlaces: number;
  pnl: DecimalSum | undefined;
  pnlBasePlaces: number;
}

/** A currency's sum of `sum`'s terms each converted at `conversion`: the rate times the sum, with the places of the most precise term. */
function convertedSum(sum: DecimalSum, places: number, conversion: Conversion): Exact | null {
  if (conversion.exact === null) return null;
  const { big } = sum.exact();
  return { big: conversion.rate === '1' ? big : big.times(conversion.exact.big), places };
}

function currencyTotal(currency: string, total: Totals): { out: CurrencyTotal; valueBase: Exact | null; pnlBase: Exact | null } {
  const value = total.value.toString();
  const valueBase = convertedSum(total.value, total.valueBasePlaces, total.conversion);
  const valueBaseText = valueBase === null ? null : exactText(valueBase);
  const incomplete = total.unvalued > 0 || valueBase === null;
  if (total.pnl === undefined) return { out: { currency, positions: total.count, value, value_base: valueBaseText, incomplete }, valueBase, pnlBase: null };
  const pnlBase = convertedSum(total.pnl, total.pnlBasePlaces, total.conversion);
  const out = { currency, positions: total.count, value, value_base: valueBaseText, pnl: total.pnl.toString(), pnl_base: pnlBase === null ? null : exactText(pnlBase), incomplete };
  return { out, valueBase, pnlBase };
}

/** The base and the price rule of a valuation, checked for `operation`; the base as a unit. */
export function checkValuationOptions(options: { base: unknown; price?: unknown }, operation: string): CurrencyUnit {
  const { base, price } = options;
  if (!isCurrency(base)) {
    const shown = typeof base === 'string' ? `${JSON.stringify(base.slice(0, 40))} ${currencyProblem(base)}` : 'is missing';
    throw new OptionsError('INVALID_OPTIONS', `base ${shown}`, { option: 'base', operation, hint: 'give the base currency as an ISO 4217 code, e.g. "USD"' });
  }
  if (price !== undefined && !(PRICE_RULES as readonly unknown[]).includes(price)) {
    throw new OptionsError('INVALID_OPTIONS', `price must be one of ${PRICE_RULES.join(', ')}, not ${JSON.stringify(String(price)).slice(0, 40)}`, {
      option: 'price', operation, expected: PRICE_RULES.join(', '),
    });
  }
  return currencyUnit(base)!;
}

/** The price `rule` picks from `quote` for `quantity`: side takes the bid for a long, the ask for a short, the mid for none. */
function priceOf(quote: Quote, rule: PriceRule, quantity: string): string {
  const field = rule !== 'side' ? rule : quantity.startsWith('-') && /[1-9]/.test(mantissa(quantity)) ? 'ask' : /[1-9]/.test(mantissa(quantity)) ? 'bid' : 'mid';
  const price: unknown = quote[field];
  if (typeof price !== 'string' || !DECIMAL.test(price)) {
    throw new OptionsError('INVALID_OPTIONS', `the quote of ${String(quote.symbol).slice(0, 40)} has a ${field} that is not decimal text`, { option: 'quotes', operation: 'valuePositions', hint: 'pass quotes as getQuotes returns them: prices are decimal strings' });
  }
  return price;
}

function mantissa(text: string): string {
  const e = text.search(/[eE]/);
  return e === -1 ? text : text.slice(0, e);
}

/**
 * How a currency converts to the base: 1 for the base itself; a minor unit's power of ten (GBX to
 * GBP is 0.01); an FX rate (recorded in `fx` once), times the power of ten when either is a minor unit.
 */
function conversionOf(unit: CurrencyUnit, base: CurrencyUnit, lookup: QuoteLookup, fx: FxRate[], noRoute: NoRoute[]): Conversion {
  let rate = '1';
  if (unit.major !== base.major) {
    const found = fx.find((r) => r.from === unit.major) ?? noRoute.find((r) => r.currency === unit.major) ?? findRate(unit.major, base.major, lookup);
    if ('tried' in found) {
      if (!noRoute.includes(found)) noRoute.push(found);
      return { rate: null, exact: null };
    }
    if (!fx.includes(found)) fx.push(found);
    rate = found.rate;
  }
  return inUnits(rate, unit, base);
}

/** A rate between ISO currencies as one between `unit` and `base`: the point moved by their minor units' exponents. */
function inUnits(rate: string, unit: CurrencyUnit, base: CurrencyUnit): Conversion {
  const shift = base.exponent - unit.exponent;
  if (shift !== 0) {
    // The point moved, and no zeros kept that only the move made (0.78... × 100 is 78.6..., not 78.6...00).
    const moved = multiply(rate, shift > 0 ? `1${'0'.repeat(shift)}` : `0.${'0'.repeat(-shift - 1)}1`);
    rate = moved.includes('.') ? moved.replace(/0+$/, '').replace(/\.$/, '') : moved;
  }
  return { rate, exact: exact(rate) };
}
