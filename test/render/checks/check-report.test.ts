// The verdict in words (a line per failure, for stderr) and as data (the JSON error object's checks).
import { describe, expect, it } from 'vitest';
import type { Quote } from '../../../src/api/types.js';
import { MAX_REPORTED_LINES, reportFailures, shownValue } from '../../../src/render/checks/check-report.js';
import { compileChecks } from '../../../src/render/checks/compile-checks.js';
import { evaluateChecks } from '../../../src/render/checks/evaluate-checks.js';
import { QUOTE_CHECK_MODEL } from '../../../src/render/checks/quote-check-model.js';

const AT = '2026-01-05T14:30:15.250Z';
const NOW = Date.parse(AT) + 41_250;

function report(expressions: string[], rows: Quote[], keys: string[]) {
  const set = compileChecks(expressions, QUOTE_CHECK_MODEL, { flag: '--check', keys });
  return reportFailures(evaluateChecks(set, { rows, keys }, NOW), { prefix: 'check failed', rowNoun: 'quote' });
}

describe('the report of failed checks', () => {
  const rows: Quote[] = [
    { symbol: 'EURUSD', bid: '1.084150000000000001', ask: '1.08417', mid: '1.08416', timestamp: AT },
    { symbol: 'A<B', bid: '3', ask: '4', mid: '3.5', timestamp: AT },
  ];

  it('names each failed check with the value it had, and each missing row', () => {
    const result = report(
      ['EURUSD.bid < 1', 'age < 30s', 'USDJPY.ask > 100', 'EURUSD.mid > 1', '"A<B".ask <= 3.5'],
      rows, ['EURUSD', 'A<B', 'USDJPY'],
    );
    expect(result.message).toBe('4 of 5 checks failed (6 failures)');
    expect(result.lines).toEqual([
      'check failed: EURUSD.bid is 1.084150000000000001, not < 1',
      'check failed: EURUSD.age is 41.25s, not < 30s',
      'check failed: "A<B".age is 41.25s, not < 30s',
      'check failed: USDJPY has no quote, so USDJPY.age < 30s fails',
      'check failed: USDJPY has no quote, so USDJPY.ask > 100 fails',
      'check failed: "A<B".ask is 4, not <= 3.5',
    ]);
  });

  it('gives every failure as data, values as strings, durations in milliseconds', () => {
    const result = report(['EURUSD.bid < 1', 'age < 30s', 'USDJPY.ask > 100'], rows.slice(0, 1), ['EURUSD', 'USDJPY']);
    expect(result.checks).toEqual([
      {
        expression: 'EURUSD.bid < 1', symbol: 'EURUSD', field: 'bid', kind: 'decimal', op: '<', expected: '1',
        actual: '1.084150000000000001', reason: 'not_met', message: 'EURUSD.bid is 1.084150000000000001, not < 1',
      },
      {
        expression: 'age < 30s', symbol: 'EURUSD', field: 'age', kind: 'duration', op: '<', expected: '30000',
        actual: '41250', reason: 'not_met', message: 'EURUSD.age is 41.25s, not < 30s',
      },
      {
        expression: 'age < 30s', symbol: 'USDJPY', field: 'age', kind: 'duration', op: '<', expected: '30000',
        actual: null, reason: 'no_row', message: 'USDJPY has no quote, so USDJPY.age < 30s fails',
      },
      {
        expression: 'USDJPY.ask > 100', symbol: 'USDJPY', field: 'ask', kind: 'decimal', op: '>', expected: '100',
        actual: null, reason: 'no_row', message: 'USDJPY has no quote, so USDJPY.ask > 100 fails',
      },
    ]);
    // JSON as it is written: exact digits survive, since they are strings.
    expect(JSON.parse(JSON.stringify(result.checks))[0].actual).toBe('1.084150000000000001');
  });

  it('says why a row has no value', () => {
    const ahead = { symbol: 'EURUSD', bid: '1', ask: '2', mid: '0', timestamp: '2026-01-06T14:30:15.250Z' };
    expect(report(['age < 30s', 'spread_bps < 10'], [ahead], ['EURUSD']).lines).toEqual([
      "check failed: EURUSD.age has no value (its timestamp is 23h 59m ahead of this machine's clock), so EURUSD.age < 30s fails",
      'check failed: EURUSD.spread_bps has no value (its mid is 0), so EURUSD.spread_bps < 10 fails',
    ]);
  });

  it('one check, one failure: no count of failures', () => {
    expect(report(['EURUSD.bid < 1'], rows.slice(0, 1), ['EURUSD']).message).toBe('1 of 1 check failed');
  });

  it(`lists at most ${MAX_REPORTED_LINES} lines and says how many more; the data lists every one`, () => {
    const many: Quote[] = Array.from({ length: 25 }, (_, index) => ({ symbol: `S${index}`, bid: '1', ask: '2', mid: '1.5', timestamp: AT }));
    const result = report(['spread < 1'], many, many.map((row) => row.symbol));
    expect(result.lines).toHaveLength(MAX_REPORTED_LINES + 1);
    expect(result.lines[MAX_REPORTED_LINES - 1]).toBe('check failed: S19.spread is 1, not < 1');
    expect(result.lines.at(-1)).toBe('check failed: and 5 more (the JSON error object, with --json, lists every one)');
    expect(result.checks).toHaveLength(25);
    expect(result.message).toBe('1 of 1 check failed (25 failures)');
  });

  it('control characters in a symbol the service sent never reach the line', () => {
    const hostile = { symbol: 'EVIL\u001b[2J', bid: '1', ask: '2', mid: '1.5', timestamp: AT };
    const result = report(['bid > 5'], [hostile], []);
    expect(result.lines).toEqual(['check failed: EVIL[2J.bid is 1, not > 5']);
  });
});

describe('shownValue: milliseconds exactly, in the units flags take', () => {
  it.each([
    [0, '0ms'], [750, '750ms'], [1000, '1s'], [1500, '1.5s'], [41_250, '41.25s'], [1549, '1.549s'],
    [60_000, '1m'], [90_061, '90.061s'], [90_000, '90s'], [3_600_000, '1h'], [7_200_000, '2h'], [86_400_001, '86400.001s'],
  ])('%i ms is %s', (ms, text) => {
    expect(shownValue(String(ms), 'duration')).toBe(text);
  });

  it('a decimal is shown as it came', () => {
    expect(shownValue('1E-7', 'decimal')).toBe('1E-7');
  });
});
