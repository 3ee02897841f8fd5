// valuePositions: positions valued against quotes, exactly, in their own currencies and in a base
// currency; no network. Two steps:
//   1. valueExactly: every figure an exact rational (shared/figure.ts): value = price × quantity,
//      value_base = value × rate (a rate from an inverse or a cross is the exact quotient of the
//      service's digits), every total the exact sum. Nothing is rounded.
//   2. valuationAt: the valuation document at a precision, each figure rounded once, half-even, by
//      the stated rule (precision.ts); its field names those of `mkt value --json` (snake_case, as
//      the document is written), so a program, the CLI and an MCP tool hand on one shape.
// valuePositions (valueWritten) takes both steps a position at a time: the same document, without
// holding every position's exact figures until the last is valued.
// A quote that cannot be right (quote-checks.ts, judged once in the library) values nothing: a
// position priced or converted by one is `unusable`, and the totals leave it out.
import { currencyProblem, currencyUnit, isCurrency, type CurrencyUnit } from './currencies.js';
import { checkNumber } from './check-options.js';
import { OptionsError } from './errors.js';
import { createQuoteBook, findRate, type ExactFxRate, type NoRoute, type PriceField, type QuoteBook, type QuotesBySymbol, type UnusableRoute } from './fx.js';
import { checkPositions, type Position } from './positions.js';
import { amountRounding, checkPrecision, rateRounding, type Precision } from './precision.js';
import type { Quote, UnusableQuote } from './types.js';
import { converted, figureOf, FigureSum, FULL_DIGITS, minus, ONE, over, pow10, roundFigure, times, type Figure, type Rounding } from '../shared/figure.js';

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
  /** How the figures are written: `full` (the default), `minor` (each currency's minor units), or a number of decimal places. */
  precision?: Precision;
  /** Milliseconds since the epoch, for judging the quotes: a timestamp more than 10 s ahead of it cannot be right. Default: now. */
  now?: number;
}

export type PositionStatus = 'ok' | 'missing' | 'no_route' | 'unusable';

/** The members every valued position has, whatever its figures are written as. */
export interface PositionFacts {
  symbol: string;
  quantity: string;
  currency: string;
  /** The price used (1 for cash), as the service sent it; null with no quote. */
  price: string | null;
  /** The lot's total cost, as given (the positions' cost_total): its cost per unit is then cost_total / quantity. */
  cost_total?: string;
  /**
   * ok; missing: no quote for the symbol; no_route: no rate from its currency to the base;
   * unusable: its quote, or the quote of a pair its rate comes from, cannot be right.
   */
  status: PositionStatus;
  /** For `unusable`: the quote and what is wrong with it. */
  reason?: string;
  /** The timestamp of the instrument's quote, as the service wrote it; null for cash and with no quote. */
  timestamp: string | null;
  /** The line of the positions file, where it came from one. */
  line?: number;
}

/** One input position, valued exactly. A figure is null when it cannot be known (no quote, no rate). */
export interface ExactPosition extends PositionFacts {
  /** The cost per unit: as given, or for a lot given its total, cost_total / quantity exactly (null for a quantity of 0). */
  cost?: string | Figure | null;
  /** price × quantity, in `currency`. */
  value: Figure | null;
  /** One unit of `currency` in the base: 1, a minor unit's fraction, an FX rate, or both. */
  rate: Figure | null;
  /** value × rate. */
  value_base: Figure | null;
  /** (price - cost) × quantity, in `currency`, where a cost is given. */
  pnl?: Figure | null;
  pnl_base?: Figure | null;
}

/** One input position, its figures written at the valuation's precision. */
export interface ValuedPosition extends PositionFacts {
  /** The cost per unit: as given, or cost_total / quantity written at the valuation's precision (null for a quantity of 0). */
  cost?: string | null;
  value: string | null;
  rate: string | null;
  value_base: string | null;
  pnl?: string | null;
  pnl_base?: string | null;
}

export interface TotalFacts {
  currency: string;
  /** Positions in this currency, valued or not. */
  positions: number;
  /** True when a position in this currency is not valued, or the currency has no rate: its sums leave them out. */
  incomplete: boolean;
}

/** The positions in one currency (as written: GBX apart from GBP), summed exactly. */
export interface ExactCurrencyTotal extends TotalFacts {
  value: Figure;
  value_base: Figure | null;
  pnl?: Figure;
  pnl_base?: Figure | null;
}

/** A currency's total, written at the valuation's precision. */
export interface CurrencyTotal extends TotalFacts {
  /** The sum of their values (those valued). */
  value: string;
  /** The sum of their value_base; null when the currency has no rate to the base. */
  value_base: string | null;
  /** Where any of them has a cost: the sum of their pnl (those valued). */
  pnl?: string;
  pnl_base?: string | null;
}

/** A rate used, written at the valuation's precision. */
export interface FxRate extends Omit<ExactFxRate, 'rate'> {
  rate: string;
  /** True when `rate` is not the exact rate: rounded at the valuation's precision. */
  rounded: boolean;
}

export interface ValuationFacts {
  base: string;
  price: PriceRule;
  /**
   * The oldest timestamp of a quote the valuation used (an instrument's price or a pair's rate), as
   * the service wrote it; null when it used none.
   */
  as_of: string | null;
  /** Symbols with no quote, each once, as first written. */
  missing: string[];
  /** Currencies with no rate to the base, and the pairs tried. */
  no_route: NoRoute[];
  /** Quotes the valuation needed that cannot be right (an instrument's, or a pair's), each once, and why. */
  unusable: UnusableQuote[];
  /** True when a position is not valued (no quote, no rate, an unusable quote): the totals leave it out. */
  incomplete: boolean;
}

/** A valuation, every figure exact. */
export interface ExactValuation extends ValuationFacts {
  /** One per input position, in input order. */
  positions: ExactPosition[];
  /** One per currency, in the order the currencies first appear. */
  totals: ExactCurrencyTotal[];
  /** The sum of every value_base. */
  total_base: Figure;
  /** The sum of every pnl_base; null when no P&L is known (no cost, or none valued). */
  total_pnl_base: Figure | null;
  /** The rates used, in the order first needed. */
  fx: ExactFxRate[];
}

/** The valuation document: `mkt value --json`'s, every figure rounded once at `precision`. */
export interface Valuation extends ValuationFacts {
  /** How the figures are written: `full`, `minor`, or a number of decimal places. */
  precision: Precision;
  positions: ValuedPosition[];
  totals: CurrencyTotal[];
  total_base: string;
  total_pnl_base: string | null;
  fx: FxRate[];
}

/** Positions valued against `quotes`, written at `precision` (default full); throws an OptionsError (or PositionsError) for input it cannot use. */
export function valuePositions(input: ValuePositionsInput): Valuation {
  const { positions, book, base, baseUnit, rule } = checkedInput(input);
  return valueWritten(positions, book, base, baseUnit, rule, input.precision ?? 'full');
}

/** valuePositions' valuation before it is written: every figure exact. */
export function valueExactly(input: ValuePositionsInput): ExactValuation {
  const { positions, book, base, baseUnit, rule } = checkedInput(input);
  return valueCheckedPositions(positions, book, base, baseUnit, rule);
}

/** The input of valuePositions and valueExactly, checked: its quotes in a book, judged. */
function checkedInput(input: ValuePositionsInput) {
  if (input === null || typeof input !== 'object') throw new OptionsError('INVALID_OPTIONS', 'valuePositions needs { positions, quotes, base }', { option: 'input', operation: 'valuePositions' });
  const { positions, base } = input;
  const rule = input.price ?? 'mid';
  const baseUnit = checkValuationOptions({ base, price: rule }, 'valuePositions');
  if (input.precision !== undefined) checkPrecision(input.precision, 'valuePositions');
  if (input.now !== undefined && !Number.isFinite(input.now)) {
    throw new OptionsError('INVALID_OPTIONS', 'now must be milliseconds since the epoch', { option: 'now', operation: 'valuePositions', expected: 'a finite number' });
  }
  checkPositions(positions);
  return { positions, book: createQuoteBook(input.quotes, undefined, input.now ?? Date.now()), base, baseUnit, rule };
}

/** How a currency converts to the base: its rate (null: no rate), or why it cannot. */
interface Conversion {
  rate: Figure | null;
  /** The rate, shared by every conversion at it; ONE itself for the base. */
  exact: Figure | null;
  /** For a rate from a quote that cannot be right: the position's reason. */
  unusable?: string;
  /** The pairs' timestamps. */
  timestamps: readonly string[];
  /** Whether a position valued at it has counted its timestamps toward as_of: one does for all. */
  counted?: boolean;
}

/** valueExactly for positions, a base and a rule already checked, against a book of judged quotes. */
export function valueCheckedPositions(positions: readonly Position[], book: QuoteBook, base: string, baseUnit: CurrencyUnit, rule: PriceRule): ExactValuation {
  const valued: ExactPosition[] = new Array(positions.length);
  const facts = valueEach(positions, book, base, baseUnit, rule, (position, i) => {
    valued[i] = position;
  });
  return { ...facts, positions: valued };
}

/**
 * valuePositions for positions, a base and a rule already checked, against a book of judged quotes:
 * each position written as soon as it is valued, so that its exact figures are garbage at once,
 * not held (and copied by every scavenge) until the last is valued: `mkt value` of 10,000 positions
 * takes about 30 ms less CPU in EUR, 10 in USD (docs/benchmarks.md, target 7). valueCheckedPositions
 * is the same loop, keeping them.
 */
export function valueWritten(positions: readonly Position[], book: QuoteBook, base: string, baseUnit: CurrencyUnit, rule: PriceRule, precision: Precision, options: ValuationAtOptions = {}): Valuation {
  const writer = figureWriter(precision, base, options);
  const written: ValuedPosition[] = new Array(positions.length);
  const facts = valueEach(positions, book, base, baseUnit, rule, (position, i) => {
    written[i] = writer.position(position);
  });
  return writer.valuation(facts, written);
}

/** An exact valuation but its positions: what is known once every position is valued. */
type ExactFacts = Omit<ExactValuation, 'positions'>;

/** Values each position exactly, in order, handing each to `each`; then the totals and the rest. */
function valueEach(positions: readonly Position[], book: QuoteBook, base: string, baseUnit: CurrencyUnit, rule: PriceRule, each: (position: ExactPosition, index: number) => void): ExactFacts {
  const fx: ExactFxRate[] = [];
  const noRoute: NoRoute[] = [];
  const unusable = new Map<string, UnusableQuote>();
  const conversions = new Map<string, Conversion>();
  const convert = (code: string): Conversion => {
    let conversion = conversions.get(code);
    if (conversion === undefined) {
      conversion = conversionOf(currencyUnit(code)!, baseUnit, book, fx, noRoute, unusable);
      conversions.set(code, conversion);
    }
    return conversion;
  };
  const missing: string[] = [];
  const missingKeys = new Set<string>();
  const totals = new Map<string, Totals>();
  let oldest: Oldest | undefined;
  const used = (timestamp: string) => {
    oldest = older(oldest, timestamp);
  };
  let anyPnl = false;
  let unvalued = false;
  for (let i = 0; i < positions.length; i++) {
    const position = positions[i]!;
    const { symbol, currency } = position;
    const key = symbol.toUpperCase();
    let priced: Priced = CASH;
    if (symbol !== currency && key !== currency) {
      const quote = book.quote(key);
      if (quote === undefined) {
        priced = MISSING;
        if (!missingKeys.has(key)) {
          missingKeys.add(key);
          missing.push(symbol);
        }
      } else {
        const problems = book.problems(key);
        if (problems !== undefined && !unusable.has(key)) unusable.set(key, { symbol: quote.symbol, problems });
        const field = priceField(rule, position.quantity);
        const price = priceOf(quote, field);
        // Lots of one symbol share a price: the book reads it once.
        priced = problems === undefined
          ? { status: 'ok', price, figure: book.price(key, field), timestamp: quote.timestamp }
          : { status: 'unusable', price: null, figure: null, timestamp: quote.timestamp, reason: `the quote of ${quote.symbol} cannot be right: ${problems.join(', ')}` };
      }
    }
    const conversion = convert(currency);
    const out = valueOne(position, priced, conversion);
    if (out.status === 'ok') {
      if (priced.timestamp !== null) used(priced.timestamp);
      if (conversion.counted !== true) {
        conversion.counted = true;
        for (const timestamp of conversion.timestamps) used(timestamp);
      }
    } else {
      unvalued = true;
    }
    let total = totals.get(currency);
    if (total === undefined) {
      total = { count: 0, unvalued: 0, conversion, value: new FigureSum(), pnl: undefined };
      totals.set(currency, total);
    }
    total.count++;
    if (out.value === null) total.unvalued++;
    else total.value.add(out.value);
    if (out.cost !== undefined) {
      total.pnl ??= new FigureSum();
      if (out.pnl !== null && out.pnl !== undefined) {
        total.pnl.add(out.pnl);
        if (out.pnl_base !== null) anyPnl = true;
      }
    }
    each(out, i);
  }

  // The totals in the base, from each currency's: the sum of a currency's converted values is its
  // rate times the sum of its values, exactly, so a few sums are converted, not one per position.
  const currencyTotals: ExactCurrencyTotal[] = [];
  const totalBase = new FigureSum();
  const totalPnlBase = new FigureSum();
  for (const [currency, total] of totals) {
    const out = currencyTotal(currency, total);
    currencyTotals.push(out);
    if (out.value_base !== null) totalBase.add(out.value_base);
    if (out.pnl_base !== undefined && out.pnl_base !== null) totalPnlBase.add(out.pnl_base);
  }

  return {
    base,
    price: rule,
    as_of: oldest?.text ?? null,
    totals: currencyTotals,
    total_base: totalBase.figure,
    total_pnl_base: anyPnl ? totalPnlBase.figure : null,
    missing,
    no_route: noRoute,
    unusable: [...unusable.values()],
    fx,
    incomplete: unvalued,
  };
}

/** An instrument's price, as read: cash is 1; no quote; or a quote that cannot be right, which prices nothing. */
interface Priced {
  status: 'ok' | 'missing' | 'unusable';
  price: string | null;
  figure: Figure | null;
  timestamp: string | null;
  reason?: string;
}

const CASH: Priced = { status: 'ok', price: '1', figure: ONE, timestamp: null };
const MISSING: Priced = { status: 'missing', price: null, figure: null, timestamp: null };

function valueOne(position: Position, priced: Priced, conversion: Conversion): ExactPosition {
  const { symbol, quantity, currency, cost, cost_total: costTotal } = position;
  const status: PositionStatus = priced.status !== 'ok' ? priced.status : conversion.unusable !== undefined ? 'unusable' : conversion.rate === null ? 'no_route' : 'ok';
  const reason = status === 'unusable' ? priced.reason ?? conversion.unusable : undefined;
  // A rate that cannot be used still leaves the value in the position's own currency, as no route does.
  const unit = priced.status === 'ok' ? priced.figure : null;
  const amount = unit === null ? null : figureOf(quantity);
  const value = unit === null ? null : times(unit, amount!);
  const { exact } = conversion;
  // Object literals, not spreads: each row's object is built in one shape.
  const out: ExactPosition = { symbol, quantity, currency, price: priced.price, value, rate: conversion.rate, value_base: inBase(value, exact), status, timestamp: priced.timestamp };
  if (cost !== undefined) {
    out.cost = cost;
    out.pnl = unit === null ? null : times(minus(unit, figureOf(cost)), amount!);
    out.pnl_base = inBase(out.pnl, exact);
  } else if (costTotal !== undefined) {
    // The lot's total cost: P&L is its value less that, exactly; the cost per unit the exact quotient.
    const total = figureOf(costTotal);
    const held = amount ?? figureOf(quantity);
    out.cost = held.n === 0n ? null : over(total, held);
    out.cost_total = costTotal;
    out.pnl = value === null ? null : minus(value, total);
    out.pnl_base = inBase(out.pnl, exact);
  }
  if (reason !== undefined) out.reason = reason;
  if (position.line !== undefined) out.line = position.line;
  return out;
}

/** A figure in the base: at the conversion's rate, itself when the rate is ONE (the base), null with no rate. */
function inBase(figure: Figure | null, exact: Figure | null): Figure | null {
  return figure === null || exact === null ? null : exact === ONE ? figure : converted(figure, exact);
}

interface Totals {
  count: number;
  /** Positions left out of the sums. */
  unvalued: number;
  conversion: Conversion;
  value: FigureSum;
  pnl: FigureSum | undefined;
}

function currencyTotal(currency: string, total: Totals): ExactCurrencyTotal {
  const { exact } = total.conversion;
  const inBase = (sum: FigureSum): Figure | null => (exact === null ? null : exact === ONE ? sum.figure : converted(sum.figure, exact));
  const value = total.value.figure;
  const valueBase = inBase(total.value);
  const incomplete = total.unvalued > 0 || valueBase === null;
  const out: ExactCurrencyTotal = { currency, positions: total.count, value, value_base: valueBase, incomplete };
  if (total.pnl !== undefined) {
    out.pnl = total.pnl.figure;
    out.pnl_base = inBase(total.pnl);
  }
  return out;
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

/** The price `rule` picks for `quantity`: side takes the bid for a long, the ask for a short, the mid for none. */
function priceField(rule: PriceRule, quantity: string): PriceField {
  return rule !== 'side' ? rule : quantity.startsWith('-') && /[1-9]/.test(mantissa(quantity)) ? 'ask' : /[1-9]/.test(mantissa(quantity)) ? 'bid' : 'mid';
}

/** The quote's price `field`, as decimal text. */
function priceOf(quote: Quote, field: PriceField): string {
  const price: unknown = quote[field];
  if (typeof price !== 'string') {
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
 * GBP is 1/100); an FX rate (recorded in `fx` once), times the power of ten when either is a minor
 * unit; or no route, or a pair that cannot be right.
 */
function conversionOf(unit: CurrencyUnit, base: CurrencyUnit, book: QuoteBook, fx: ExactFxRate[], noRoute: NoRoute[], unusable: Map<string, UnusableQuote>): Conversion {
  let rate: Figure = ONE;
  let timestamps: readonly string[] = [];
  if (unit.major !== base.major) {
    const found: ExactFxRate | NoRoute | UnusableRoute = fx.find((r) => r.from === unit.major) ?? noRoute.find((r) => r.currency === unit.major) ?? findRate(unit.major, base.major, book);
    if ('tried' in found) {
      if (!noRoute.includes(found)) noRoute.push(found);
      return { rate: null, exact: null, timestamps };
    }
    if ('unusable' in found) {
      const { symbol, problems } = found.unusable;
      if (!unusable.has(symbol.toUpperCase())) unusable.set(symbol.toUpperCase(), found.unusable);
      return { rate: null, exact: null, unusable: `the quote of ${symbol}, for the rate from ${found.currency} to ${found.to}, cannot be right: ${problems.join(', ')}`, timestamps };
    }
    if (!fx.includes(found)) fx.push(found);
    rate = found.rate;
    timestamps = found.timestamps;
  }
  // Between minor units, the point moves by their exponents: exactly, and no places of its own.
  const shift = base.exponent - unit.exponent;
  if (shift !== 0) rate = { n: shift > 0 ? rate.n * pow10(shift) : rate.n, d: shift > 0 ? rate.d : rate.d * pow10(-shift), places: 0 };
  return { rate, exact: rate, timestamps };
}

/** The oldest timestamp so far: its text as written, and its instant. */
interface Oldest {
  text: string;
  ms: number;
}

function older(oldest: Oldest | undefined, text: string): Oldest {
  if (oldest === undefined) return { text, ms: Date.parse(text) };
  if (oldest.text === text) return oldest;
  // Two UTC timestamps written alike (as a service writes them all: the same length, an upper-case T
  // and Z; RFC 3339 allows t and z, which sort after the digits) order as their text does.
  if (text.length === oldest.text.length && text.charCodeAt(10) === 84 && oldest.text.charCodeAt(10) === 84 && text.endsWith('Z') && oldest.text.endsWith('Z')) {
    return text < oldest.text ? { text, ms: Date.parse(text) } : oldest;
  }
  const ms = Date.parse(text);
  return ms < oldest.ms ? { text, ms } : oldest;
}

export interface ValuationAtOptions {
  /** Rates with at most this many significant digits, where the precision would write more (a table's: 10). */
  rateDigits?: number;
}

/**
 * The valuation written at `precision`: each figure rounded once, half-even, by the precision's
 * rule for its kind (an amount in a currency, or a rate). Totals are the exact totals rounded, not
 * sums of rounded rows.
 */
export function valuationAt(exact: ExactValuation, precision: Precision, options: ValuationAtOptions = {}): Valuation {
  if (exact === null || typeof exact !== 'object' || !Array.isArray(exact.positions)) {
    throw new OptionsError('INVALID_OPTIONS', 'valuationAt needs an exact valuation (valueExactly\'s, or valuePortfolio\'s exact)', { option: 'exact', operation: 'valuationAt' });
  }
  checkPrecision(precision, 'valuationAt');
  if (options === null || typeof options !== 'object') throw new OptionsError('INVALID_OPTIONS', 'options must be an object such as { rateDigits: 10 }', { option: 'options', operation: 'valuationAt' });
  checkNumber('rateDigits', options.rateDigits, 1, FULL_DIGITS, true, 'valuationAt');
  const writer = figureWriter(precision, exact.base, options);
  const positions: ValuedPosition[] = new Array(exact.positions.length);
  for (let i = 0; i < exact.positions.length; i++) positions[i] = writer.position(exact.positions[i]!);
  return writer.valuation(exact, positions);
}

/** Writes a valuation's figures at `precision`: a position as it is valued, then the rest once all are. */
function figureWriter(precision: Precision, base: string, options: ValuationAtOptions = {}) {
  const rateRule = rateRounding(precision, options.rateDigits);
  const roundings = new Map<string, Rounding>();
  const text = (figure: Figure, currency: string) => {
    let rounding = roundings.get(currency);
    if (rounding === undefined) {
      rounding = amountRounding(precision, currency);
      roundings.set(currency, rounding);
    }
    return roundFigure(figure, rounding).text;
  };
  const rates = new Map<Figure, { text: string; exact: boolean }>();
  const rated = (figure: Figure) => {
    let out = rates.get(figure);
    if (out === undefined) {
      out = rateRule(figure);
      rates.set(figure, out);
    }
    return out;
  };
  const orNull = (figure: Figure | null, currency: string) => (figure === null ? null : text(figure, currency));
  // Half of the figures are in the base: their rounding is looked up once.
  const baseRounding = amountRounding(precision, base);
  const baseText = (figure: Figure | null) => (figure === null ? null : roundFigure(figure, baseRounding).text);
  return {
    position(p: ExactPosition): ValuedPosition {
      // A figure in the base currency that is the figure itself (no conversion) is written once.
      const value = orNull(p.value, p.currency);
      const out: ValuedPosition = {
        symbol: p.symbol, quantity: p.quantity, currency: p.currency, price: p.price,
        value, rate: p.rate === null ? null : rated(p.rate).text, value_base: p.value_base === p.value && p.currency === base ? value : baseText(p.value_base),
        status: p.status, timestamp: p.timestamp,
      };
      if (p.cost !== undefined) {
        out.cost = p.cost === null || typeof p.cost === 'string' ? p.cost : text(p.cost, p.currency);
        if (p.cost_total !== undefined) out.cost_total = p.cost_total;
        const pnl = orNull(p.pnl ?? null, p.currency);
        out.pnl = pnl;
        out.pnl_base = p.pnl_base === p.pnl && p.currency === base ? pnl : baseText(p.pnl_base ?? null);
      }
      if (p.reason !== undefined) out.reason = p.reason;
      if (p.line !== undefined) out.line = p.line;
      return out;
    },
    valuation(exact: ExactFacts, positions: ValuedPosition[]): Valuation {
      const totals = exact.totals.map((t): CurrencyTotal => {
        const out: CurrencyTotal = { currency: t.currency, positions: t.positions, value: text(t.value, t.currency), value_base: baseText(t.value_base), incomplete: t.incomplete };
        if (t.pnl !== undefined) {
          out.pnl = text(t.pnl, t.currency);
          out.pnl_base = baseText(t.pnl_base ?? null);
        }
        return out;
      });
      return {
        base,
        price: exact.price,
        precision,
        as_of: exact.as_of,
        positions,
        totals,
        total_base: baseText(exact.total_base)!,
        total_pnl_base: baseText(exact.total_pnl_base),
        missing: exact.missing,
        no_route: exact.no_route,
        unusable: exact.unusable,
        fx: exact.fx.map((r) => {
          const { text: rate, exact: whole } = rated(r.rate);
          return { from: r.from, to: r.to, rate, method: r.method, pairs: r.pairs, timestamps: r.timestamps, formula: r.formula, rounded: !whole };
        }),
        incomplete: exact.incomplete,
      };
    },
  };
}
