// --until: whether all conditions hold at a poll, which row triggered, and what an --exec program is told.
import { describe, expect, it } from 'vitest';
import type { Quote } from '../../../src/api/types.js';
import type { CheckModel } from '../../../src/render/checks/check-model.js';
import { compileChecks } from '../../../src/render/checks/compile-checks.js';
import { evaluateUntil, triggerEnvironmentNames } from '../../../src/render/checks/evaluate-until.js';
import { QUOTE_CHECK_MODEL } from '../../../src/render/checks/quote-check-model.js';

const AT = '2026-01-05T14:30:15.250Z';
const NOW = Date.parse(AT) + 1200;
const EURUSD: Quote = { symbol: 'EURUSD', bid: '1.084150000000000001', ask: '1.08417', mid: '1.08416', timestamp: AT };
const GBPUSD: Quote = { symbol: 'GBPUSD', bid: '1.2661', ask: '1.2665', mid: '1.2663', timestamp: AT };
const KEYS = ['EURUSD', 'GBPUSD'];

function until(expressions: string[], rows: Quote[] = [EURUSD, GBPUSD]) {
  return evaluateUntil(compileChecks(expressions, QUOTE_CHECK_MODEL, { flag: '--until', keys: KEYS }), { rows, keys: KEYS }, NOW);
}

describe('evaluateUntil', () => {
  it('holds when every condition holds, exactly', () => {
    expect(until(['EURUSD.bid > 1.0841500000000000009']).holds).toBe(true);
    expect(until(['EURUSD.bid > 1.08415000000000000100']).holds).toBe(false);
  });

  it('does not hold while any condition fails, and says which, as a check would', () => {
    const outcome = until(['EURUSD.bid > 1', 'GBPUSD.bid > 2']);
    expect(outcome.holds).toBe(false);
    expect(outcome.trigger).toBeUndefined();
    expect(outcome.verdict.failures.map((failure) => [failure.check.expression, failure.actual])).toEqual([['GBPUSD.bid > 2', '1.2661']]);
  });

  it('a symbol that has no quote at this poll does not hold', () => {
    expect(until(['GBPUSD.bid > 1'], [EURUSD]).holds).toBe(false);
  });

  it('the trigger is the row of the first condition that names a symbol, with its values as the service sent them', () => {
    const outcome = until(['bid > 1', 'GBPUSD.spread < 0.001', 'EURUSD.bid > 1']);
    expect(outcome.holds).toBe(true);
    expect(outcome.trigger?.key).toBe('GBPUSD');
    expect(outcome.trigger?.row).toBe(GBPUSD);
    expect(outcome.trigger?.environment).toEqual({
      MKT_SYMBOL: 'GBPUSD', MKT_BID: '1.2661', MKT_ASK: '1.2665', MKT_MID: '1.2663', MKT_TIMESTAMP: AT, MKT_SPREAD: '0.0004',
    });
  });

  it('with no symbol named, the trigger is the first row; every row field named is read from it, durations in milliseconds', () => {
    const outcome = until(['age < 5s', 'spread_bps < 10']);
    expect(outcome.trigger?.key).toBe('EURUSD');
    expect(outcome.trigger?.environment).toEqual({
      MKT_SYMBOL: 'EURUSD', MKT_BID: '1.084150000000000001', MKT_ASK: '1.08417', MKT_MID: '1.08416', MKT_TIMESTAMP: AT,
      // (1.08417 - 1.084150000000000001) × 10,000 / 1.08416, 20 significant digits (Python's decimal, half to even).
      MKT_AGE_MS: '1200', MKT_SPREAD_BPS: '0.18447461629278888725',
    });
  });

  it('every name a trigger can set is known beforehand, so that none is inherited stale', () => {
    expect(triggerEnvironmentNames(QUOTE_CHECK_MODEL).sort()).toEqual([
      'MKT_AGE_MS', 'MKT_ASK', 'MKT_BID', 'MKT_MID', 'MKT_SPREAD', 'MKT_SPREAD_BPS', 'MKT_SYMBOL', 'MKT_TIMESTAMP',
    ]);
  });
});

interface Lot { symbol: string; value: string }
interface Valuation { total_base: string; lots: Lot[] }
const VALUATION_MODEL: CheckModel<Lot, Valuation> = {
  rowNoun: 'position',
  rowKey: (lot) => lot.symbol,
  fields: [{ name: 'value', kind: 'decimal', description: 'price × quantity', value: (lot) => lot.value }],
  documentFields: [{ name: 'total_base', kind: 'decimal', description: 'the total', value: (valuation) => valuation.total_base }],
};

describe('evaluateUntil on a resource with a total', () => {
  const valuation: Valuation = { total_base: '100000.000000000000000001', lots: [{ symbol: 'AAPL', value: '5' }] };
  const set = compileChecks(['total_base > 100000'], VALUATION_MODEL, { flag: '--until', keys: ['AAPL'] });

  it('a condition on the whole result triggers with no row, and the program gets the total', () => {
    const outcome = evaluateUntil(set, { rows: valuation.lots, document: valuation, keys: ['AAPL'] }, 0);
    expect(outcome.holds).toBe(true);
    expect(outcome.trigger).toEqual({ key: undefined, row: undefined, environment: { MKT_TOTAL_BASE: '100000.000000000000000001' } });
  });

  it('names the total among what a trigger may set', () => {
    expect(triggerEnvironmentNames(VALUATION_MODEL)).toEqual(['MKT_VALUE', 'MKT_TOTAL_BASE']);
  });
});
