// A valuation's checks through the engine (compileChecks, evaluateChecks, evaluateUntil): each
// position's figures and the totals compared exactly, no value where a figure cannot be known, an
// incomplete total refused rather than compared, and what an --exec program is told. The valuations
// come from valuePositions on hand-made quotes; the expected figures are worked here by hand.
import { describe, expect, it } from 'vitest';
import type { Position } from '../../../src/api/positions.js';
import type { Quote } from '../../../src/api/types.js';
import { valueExactly, type ExactValuation } from '../../../src/api/valuation.js';
import { compileChecks } from '../../../src/render/checks/compile-checks.js';
import { evaluateChecks } from '../../../src/render/checks/evaluate-checks.js';
import { evaluateUntil, triggerEnvironmentNames } from '../../../src/render/checks/evaluate-until.js';
import { valueCheckModel } from '../../../src/render/checks/value-check-model.js';
import { UsageError } from '../../../src/shared/errors.js';

const AT = '2026-01-05T14:30:15.250Z';
const NOW = Date.parse(AT);
const quote = (symbol: string, bid: string, ask: string, mid: string): Quote => ({ symbol, bid, ask, mid, timestamp: AT });
const QUOTES = [
  quote('AAPL', '227.10', '227.12', '227.11'), quote('TINY', '0.29', '0.31', '0.30'), quote('DIME', '0.09', '0.11', '0.1'), quote('EURUSD', '1.08412', '1.08418', '1.08415'),
];
const POSITIONS: Position[] = [
  { symbol: 'AAPL', quantity: '10', currency: 'USD', cost: '200.5' },
  { symbol: 'TINY', quantity: '0.1', currency: 'USD' },
  { symbol: 'DIME', quantity: '3', currency: 'USD' },
  { symbol: 'EUR', quantity: '1000', currency: 'EUR' },
];
// By hand: AAPL 227.11 × 10 = 2271.10; TINY 0.30 × 0.1 = 0.030 (the places of both); DIME 0.1 × 3 =
// 0.3 (a double gives 0.30000000000000004); 1000 EUR × 1.08415 = 1084.15 (a conversion keeps the
// value's places and drops the zeros only the rate's bring); total 2271.10 + 0.030 + 0.3 + 1084.15 =
// 3355.580. AAPL P&L (227.11 - 200.5) × 10 = 266.10.
const VALUATION = valueExactly({ positions: POSITIONS, quotes: QUOTES, base: 'USD', now: NOW });
const KEYS = ['AAPL', 'TINY', 'DIME', 'EUR'];

function check(expressions: string[], valuation: ExactValuation = VALUATION, currencies = ['USD', 'EUR']) {
  const set = compileChecks(expressions, valueCheckModel(currencies), { flag: '--check', keys: KEYS });
  return evaluateChecks(set, { rows: valuation.positions, document: valuation, keys: KEYS }, NOW);
}

const failed = (expressions: string[], valuation?: ExactValuation) =>
  check(expressions, valuation).failures.map((failure) => [failure.check.expression, failure.key, failure.actual, failure.reason, failure.detail]);

describe('a valuation\'s checks', () => {
  it('compares each position\'s figures exactly: 3 × 0.1 is 0.3, where a double gives 0.30000000000000004', () => {
    expect(3 * 0.1).toBe(0.30000000000000004);
    expect(failed(['DIME.value == 0.3', 'DIME.value <= 0.3', 'TINY.value == 0.03', 'TINY.value < 0.030000000000000002', 'AAPL.value == 2271.1'])).toEqual([]);
    expect(failed(['DIME.value > 0.3', 'TINY.value > 0.03'])).toEqual([
      ['DIME.value > 0.3', 'DIME', '0.3', 'not_met', undefined],
      ['TINY.value > 0.03', 'TINY', '0.030', 'not_met', undefined],
    ]);
  });

  it('the totals of the whole valuation, in the base and in each currency', () => {
    expect(failed(['total_base == 3355.58', 'total_pnl_base == 266.10', 'total_usd == 2271.430', 'total_eur == 1000'])).toEqual([]);
    expect(failed(['total_base > 3355.58000000000000000001'])).toEqual([['total_base > 3355.58000000000000000001', undefined, '3355.580', 'not_met', undefined]]);
  });

  it('a check without a symbol applies to every position; one with no figure fails, saying why', () => {
    expect(failed(['value_base > 0'])).toEqual([]);
    expect(failed(['pnl > 0'])).toEqual([
      ['pnl > 0', 'TINY', undefined, 'no_value', 'it has no cost'],
      ['pnl > 0', 'DIME', undefined, 'no_value', 'it has no cost'],
      ['pnl > 0', 'EUR', undefined, 'no_value', 'it has no cost'],
    ]);
  });

  it('a position with no quote, and a currency with no rate, have no value; an incomplete total is refused, not compared', () => {
    const valuation = valueExactly({ now: NOW,
      positions: [...POSITIONS, { symbol: 'NOPE', quantity: '1', currency: 'USD' }, { symbol: 'RY.TO', quantity: '1', currency: 'CAD' }],
      quotes: [...QUOTES, quote('RY.TO', '165.30', '165.32', '165.31')], base: 'USD',
    });
    const set = compileChecks(['NOPE.value > 0', 'RY.TO.value_base > 0', 'RY.TO.value == 165.31', 'total_base > 0', 'total_usd > 0', 'total_eur > 0'], valueCheckModel(['USD', 'EUR', 'CAD']), { flag: '--check' });
    const verdict = evaluateChecks(set, { rows: valuation.positions, document: valuation }, NOW);
    expect(verdict.failures.map((failure) => [failure.check.expression, failure.reason, failure.detail])).toEqual([
      ['NOPE.value > 0', 'no_value', 'its symbol has no quote'],
      ['RY.TO.value_base > 0', 'no_value', 'its currency CAD has no rate to the base currency'],
      ['total_base > 0', 'no_value', 'the valuation is incomplete: 1 position without a quote, 1 without a rate to USD'],
      ['total_usd > 0', 'no_value', 'a position in USD has no quote'],
    ]);
  });

  it('lots of one symbol are each checked, under the symbol in any case', () => {
    const valuation = valueExactly({ now: NOW, positions: [{ symbol: 'aapl', quantity: '1', currency: 'USD' }, { symbol: 'AAPL', quantity: '-3', currency: 'USD' }], quotes: QUOTES, base: 'USD' });
    expect(failed(['AAPL.quantity > 0'], valuation)).toEqual([['AAPL.quantity > 0', 'AAPL', '-3', 'not_met', undefined]]);
  });

  it('refuses before any request: an unknown field (listing the valid ones), a total with a symbol, a duration', () => {
    const compile = (expression: string) => () => compileChecks([expression], valueCheckModel(['USD', 'EUR']), { flag: '--check', keys: KEYS });
    expect(compile('AAPL.bid > 1')).toThrow(UsageError);
    expect(compile('AAPL.bid > 1')).toThrow(/quantity, price, value, rate, value_base, cost, pnl, pnl_base; of the whole result: total_base, total_pnl_base, total_usd, total_eur/);
    expect(compile('AAPL.total_base > 1')).toThrow(/belongs to the whole result/);
    expect(compile('value > 5s')).toThrow(/is a decimal, not a duration/);
    expect(compile('total_gbp > 1')).toThrow(/unknown field/);
  });

  // A valuation's example is its own field (value_base), never quotes' bid, which is no field here.
  it.each([
    ['AAPL > 100', 'a check on one symbol names a field after the symbol: AAPL.value_base > 100'],
    ['tiny >= 1', 'a check on one symbol names a field after the symbol: TINY.value_base >= 1'],
    ['eurusd >= 1', 'for example value_base >= 1'],
    ['AAPL.bid > 1', 'for example AAPL.value_base > 1'],
    ['bid > 1', 'for example value_base > 1'],
    ['total > 10000', 'for example value_base > 10000'],
  ])('an unknown field in %j: the hint is %j', (expression, hint) => {
    let error: UsageError | undefined;
    try {
      compileChecks([expression], valueCheckModel(['USD', 'EUR']), { flag: '--check', keys: KEYS });
    } catch (caught) {
      error = caught as UsageError;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect(error?.message).toMatch(/unknown field/);
    expect(error?.hint).toBe(hint);
  });

  it('GBP and GBp together have no per-currency field: total_gbp would be ambiguous', () => {
    const names = valueCheckModel(['GBP', 'GBp', 'EUR']).documentFields!.map((field) => field.name);
    expect(names).toEqual(['total_base', 'total_pnl_base', 'total_eur']);
  });
});

describe('--until on a valuation, and what --exec is told', () => {
  it('a position\'s trigger: its figures as exact text, the fields named among them', () => {
    const set = compileChecks(['AAPL.pnl_base > 266'], valueCheckModel(), { flag: '--until', keys: KEYS });
    const outcome = evaluateUntil(set, { rows: VALUATION.positions, document: VALUATION, keys: KEYS }, NOW);
    expect(outcome.holds).toBe(true);
    expect(outcome.trigger?.environment).toEqual({
      MKT_SYMBOL: 'AAPL', MKT_QUANTITY: '10', MKT_CURRENCY: 'USD', MKT_STATUS: 'ok', MKT_PRICE: '227.11', MKT_VALUE: '2271.10', MKT_RATE: '1',
      MKT_VALUE_BASE: '2271.10', MKT_COST: '200.5', MKT_PNL: '266.10', MKT_PNL_BASE: '266.10',
    });
  });

  it('a total\'s trigger has no row: the total named, as exact text', () => {
    const set = compileChecks(['total_base >= 3355.58'], valueCheckModel(), { flag: '--until' });
    const outcome = evaluateUntil(set, { rows: VALUATION.positions, document: VALUATION }, NOW);
    expect(outcome.trigger).toEqual({ key: undefined, row: undefined, environment: { MKT_TOTAL_BASE: '3355.580' } });
  });

  it('every name a position can give is cleared from what mkt inherited', () => {
    expect(triggerEnvironmentNames(valueCheckModel())).toEqual(expect.arrayContaining(['MKT_SYMBOL', 'MKT_VALUE_BASE', 'MKT_PNL_BASE', 'MKT_STATUS']));
  });
});
