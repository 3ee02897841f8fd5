// Checks decided exactly against quotes (QUOTE_CHECK_MODEL) and against a made-up resource with lots
// and a total, as a valuation will declare them: the literals are ones a float decides wrongly, and
// each test shows that it would, so that the case cannot pass by luck.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Quote } from '../../../src/api/types.js';
import type { CheckModel } from '../../../src/render/checks/check-model.js';
import { compileChecks } from '../../../src/render/checks/compile-checks.js';
import { evaluateChecks } from '../../../src/render/checks/evaluate-checks.js';
import { QUOTE_CHECK_MODEL } from '../../../src/render/checks/quote-check-model.js';
import { UsageError } from '../../../src/shared/errors.js';

const NOW = Date.parse('2026-01-05T14:30:15.250Z');

function quote(symbol: string, bid: string, ask: string, mid = bid, timestamp = '2026-01-05T14:30:15.250Z'): Quote {
  return { symbol, bid, ask, mid, timestamp };
}

/** The failures' lines (without the report's prefix), or [] when every check held. */
function verdictOf(expressions: string[], rows: Quote[], keys = rows.map((row) => row.symbol), now = NOW) {
  const set = compileChecks(expressions, QUOTE_CHECK_MODEL, { flag: '--check', keys });
  return evaluateChecks(set, { rows, keys }, now);
}

function holds(expression: string, rows: Quote[], now = NOW): boolean {
  return verdictOf([expression], rows, undefined, now).failures.length === 0;
}

describe('exact, where a float decides wrongly', () => {
  it('EURUSD.bid > 1.0841500000000000009 holds for a bid of 1.084150000000000001', () => {
    expect(Number('1.084150000000000001') > Number('1.0841500000000000009')).toBe(false);
    expect(holds('EURUSD.bid > 1.0841500000000000009', [quote('EURUSD', '1.084150000000000001', '1.08417')])).toBe(true);
    expect(holds('EURUSD.bid <= 1.0841500000000000009', [quote('EURUSD', '1.084150000000000001', '1.08417')])).toBe(false);
  });

  it('spread <= 0.000020000000000002 holds for ask 1.084170000000000003 and bid 1.084150000000000001', () => {
    expect(Number('1.084170000000000003') - Number('1.084150000000000001') <= Number('0.000020000000000002')).toBe(false);
    const rows = [quote('EURUSD', '1.084150000000000001', '1.084170000000000003')];
    expect(holds('spread <= 0.000020000000000002', rows)).toBe(true);
    expect(holds('spread == 0.000020000000000002', rows)).toBe(true);
    expect(holds('spread < 0.000020000000000002', rows)).toBe(false);
  });

  it.each([
    // [expression, bid, ask, holds exactly, what a float says]
    ['spread == 0.2', '0.1', '0.3', true, 0.3 - 0.1 === 0.2],
    ['spread != 0.2', '0.1', '0.3', false, 0.3 - 0.1 !== 0.2],
    ['bid == 0.30000000000000001', '0.3', '0.4', false, Number('0.3') === Number('0.30000000000000001')],
    ['bid < 123456789.1234567891', '123456789.1234567890', '123456790', true, Number('123456789.1234567890') < Number('123456789.1234567891')],
    ['ask > 9007199254740992', '1', '9007199254740993', true, Number('9007199254740993') > Number('9007199254740992')],
    ['bid > 1e-7', '1.00000000000000000001E-7', '1', true, Number('1.00000000000000000001E-7') > 1e-7],
    ['bid != 0.0000001', '1.00000000000000000001e-7', '1', true, Number('1.00000000000000000001e-7') !== 0.0000001],
    ['spread > 0', '1.000000000000000000001', '1.000000000000000000002', true, Number('1.000000000000000000002') - Number('1.000000000000000000001') > 0],
  ])('%s with bid %s, ask %s: %s (a float says %s)', (expression, bid, ask, exact, float) => {
    expect(float).not.toBe(exact);
    expect(holds(expression, [quote('EURUSD', bid, ask)])).toBe(exact);
  });

  it.each([
    ['bid == 1.10', '1.1', true],
    ['bid == 227.1', '227.10', true],
    ['bid == 0.0000001', '1E-7', true],
    ['bid == 1e-7', '0.00000010', true],
    ['bid >= +1.5', '1.5', true],
    ['bid < .5', '0.49999999999999999999', true],
    ['bid > -0', '0', false],
    ['bid >= -0', '0', true],
  ])('%s for a bid of %s: %s (trailing zeros, exponents and signs compare as numbers)', (expression, bid, expected) => {
    expect(holds(expression, [quote('EURUSD', bid, '2')])).toBe(expected);
  });

  it('a crossed quote has a negative spread, compared as one', () => {
    const verdict = verdictOf(['spread >= 0'], [quote('EURUSD', '1.0842', '1.0841')]);
    expect(verdict.failures).toMatchObject([{ key: 'EURUSD', actual: '-0.0001', reason: 'not_met' }]);
  });

  it('agrees with integer arithmetic on any decimals (fast-check)', () => {
    // The oracle: both sides scaled to integers of 30 fraction digits, compared as BigInt.
    const scaled = (text: string) => {
      const [int, frac = ''] = text.split('.');
      const negative = int!.startsWith('-');
      const digits = BigInt(int!.replace('-', '') + frac.padEnd(30, '0'));
      return negative ? -digits : digits;
    };
    const decimal = fc.tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.bigInt({ min: 0n, max: 10n ** 25n - 1n }), fc.integer({ min: 0, max: 25 }))
      .map(([negative, int, frac, places]) => `${negative ? '-' : ''}${int}${places === 0 ? '' : `.${frac.toString().padStart(25, '0').slice(0, places)}`}`);
    const ops = ['<', '<=', '>', '>=', '==', '!='] as const;
    fc.assert(fc.property(decimal, decimal, fc.constantFrom(...ops), (bid, bound, op) => {
      const [a, b] = [scaled(bid), scaled(bound)];
      const expected = { '<': a < b, '<=': a <= b, '>': a > b, '>=': a >= b, '==': a === b, '!=': a !== b }[op];
      return holds(`EURUSD.bid ${op} ${bound}`, [quote('EURUSD', bid, '1')]) === expected;
    }), { numRuns: 500 });
  });
});

describe('durations, in whole milliseconds', () => {
  const at = '2026-01-05T14:30:15.250Z';
  const rows = [quote('EURUSD', '1', '2', '1.5', at)];

  it.each([
    ['age < 1.5s', 1500, false],
    ['age <= 1500ms', 1500, true],
    ['age == 1500ms', 1500, true],
    ['age < 2s', 1500, true],
    ['age > 1s', 1500, true],
    ['age < 1m', 59_999, true],
    ['age < 1m', 60_000, false],
    ['age >= 1h', 3_600_000, true],
    ['age < 1ms', 0, true],
  ])('%s for a quote %i ms old: %s', (expression, ageMs, expected) => {
    expect(holds(expression, rows, Date.parse(at) + ageMs)).toBe(expected);
  });

  it('a timestamp a little ahead of the clock (within the 10 s allowance) is 0 old', () => {
    expect(holds('age == 0ms', rows, Date.parse(at) - 5000)).toBe(true);
  });

  it('a timestamp further ahead, or not a date, has no age, and every check of it fails saying why', () => {
    const ahead = verdictOf(['age < 30s'], rows, undefined, Date.parse(at) - 23 * 3_600_000);
    expect(ahead.failures).toMatchObject([{ key: 'EURUSD', actual: undefined, reason: 'no_value', detail: "its timestamp is 23h ahead of this machine's clock" }]);
    const notADate = verdictOf(['age > 0ms'], [quote('EURUSD', '1', '2', '1.5', 'yesterday')]);
    expect(notADate.failures).toMatchObject([{ reason: 'no_value', detail: 'its timestamp is not a date' }]);
  });
});

describe('rows: with a symbol, without one, and missing', () => {
  const rows = [quote('EURUSD', '1.08415', '1.08417'), quote('GBPUSD', '1.2661', '1.2665'), quote('AAPL', '227.10', '227.12')];

  it('a check without a symbol applies to every row, and each failing row is a failure', () => {
    const verdict = verdictOf(['spread <= 0.0002'], rows);
    expect(verdict).toMatchObject({ failed: 1, total: 1 });
    expect(verdict.failures.map((failure) => [failure.key, failure.actual])).toEqual([['GBPUSD', '0.0004'], ['AAPL', '0.02']]);
  });

  it('a check on a symbol with no row fails, saying so; so do the checks without a symbol, for it', () => {
    const asked = ['EURUSD', 'USDJPY'];
    const verdict = verdictOf(['USDJPY.bid > 100', 'EURUSD.bid > 1', 'bid > 0'], [rows[0]!], asked);
    expect(verdict).toMatchObject({ failed: 2, total: 3 });
    expect(verdict.failures.map((failure) => [failure.check.expression, failure.key, failure.reason])).toEqual([
      ['USDJPY.bid > 100', 'USDJPY', 'no_row'],
      ['bid > 0', 'USDJPY', 'no_row'],
    ]);
  });

  it('rows are matched to symbols whatever the case the service sends them in', () => {
    expect(verdictOf(['EURUSD.bid > 1'], [quote('eurusd', '1.08', '1.09')], ['EURUSD']).failures).toEqual([]);
  });

  it('all checks must hold: one that fails fails the verdict, the others are still decided', () => {
    const verdict = verdictOf(['EURUSD.bid > 1', 'EURUSD.bid > 2', 'AAPL.ask < 200', 'GBPUSD.mid != 1.2661'], rows);
    expect(verdict).toMatchObject({ failed: 3, total: 4 });
    expect(verdict.failures.map((failure) => failure.check.expression)).toEqual(['EURUSD.bid > 2', 'AAPL.ask < 200', 'GBPUSD.mid != 1.2661']);
  });

  it('a quote for a symbol not asked for is a row like the others for checks without a symbol', () => {
    const verdict = verdictOf(['bid < 100'], rows, ['EURUSD', 'GBPUSD']);
    expect(verdict.failures.map((failure) => failure.key)).toEqual(['AAPL']);
  });
});

describe('refused before any request, as usage errors naming the expression', () => {
  it.each([
    ['EURUSD.bidd > 1', /^--check "EURUSD.bidd > 1": unknown field "bidd"; the fields: bid, ask, mid, spread, spread_bps, age$/],
    ['EURUSD > 1', /unknown field "eurusd"; the fields: bid, ask/],
    ['GBPUSD.bid > 1', /^--check "GBPUSD.bid > 1": GBPUSD is not among the symbols asked for$/],
    ['EURUSD.age < 30', /age is a duration: give its unit, as in 30s, 500ms, 2m or 1h, not 30$/],
    ['age < 1.5', /age is a duration: give its unit/],
    ['EURUSD.bid > 5s', /bid is a decimal, not a duration$/],
    ['spread < 500ms', /spread is a decimal, not a duration$/],
    ['EURUSD.bid > abc', /"abc" is not a decimal$/],
    ['EURUSD.bid > 1.2.3', /"1.2.3" is not a decimal$/],
    ['EURUSD.bid > 1e1000', /"1e1000" is not a decimal$/],
    ['EURUSD.bid > 0x10', /"0x10" is not a decimal$/],
    ['EURUSD.bid > NaN', /"NaN" is not a decimal$/],
    ['EURUSD.bid > Infinity', /"Infinity" is not a decimal$/],
    ['age < 5x', /"5x" is not a duration$/],
    ['age < -5s', /"-5s" is not a duration$/],
    ['age < 25h', /^--check "age < 25h" is too long: at most 24h$/],
    ['EURUSD.bid =! 1', /unknown operator "=!"/],
  ])('%j', (expression, message) => {
    expect(() => compileChecks([expression], QUOTE_CHECK_MODEL, { flag: '--check', keys: ['EURUSD', 'AAPL'] })).toThrow(UsageError);
    expect(() => compileChecks([expression], QUOTE_CHECK_MODEL, { flag: '--check', keys: ['EURUSD', 'AAPL'] })).toThrow(message);
  });

  it('the symbols asked for are the hint when a check names another', () => {
    let error: UsageError | undefined;
    try {
      compileChecks(['EURUSD.bid > 1', 'MSFT.bid > 1'], QUOTE_CHECK_MODEL, { flag: '--check', keys: ['EURUSD', 'AAPL'] });
    } catch (caught) {
      error = caught as UsageError;
    }
    expect(error?.hint).toBe('the symbols asked for: EURUSD, AAPL; add it, or leave the symbol out to check every row');
  });

  // The symbol hint only where the name was a symbol where a field goes; an example of quotes' own
  // fields (bid) otherwise, with the expression's symbol, operator and value.
  it.each([
    ['EURUSD > 1.08', 'a check on one symbol names a field after the symbol: EURUSD.bid > 1.08'],
    ['aapl <= 300', 'a check on one symbol names a field after the symbol: AAPL.bid <= 300'],
    ['GBPUSD != 2', 'a check on one symbol names a field after the symbol: GBPUSD.bid != 2'],
    ['EURUSD > 5s', 'a check on one symbol names a field after the symbol: EURUSD.bid > 1'],
    ['EURUSD.bidd > 1', 'for example EURUSD.bid > 1'],
    ['"A<B".bidd < 2', 'for example "A<B".bid < 2'],
    ['bidd > 1', 'for example bid > 1'],
    ['price < 7', 'for example bid < 7'],
  ])('an unknown field in %j: the hint is %j', (expression, hint) => {
    let error: UsageError | undefined;
    try {
      compileChecks([expression], QUOTE_CHECK_MODEL, { flag: '--check', keys: ['EURUSD', 'AAPL'] });
    } catch (caught) {
      error = caught as UsageError;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect(error?.message).toMatch(/unknown field/);
    expect(error?.hint).toBe(hint);
  });

  it('without the symbols asked for, any symbol is taken', () => {
    expect(compileChecks(['ANY.bid > 1'], QUOTE_CHECK_MODEL, { flag: '--check' }).checks[0]).toMatchObject({ symbol: 'ANY', scope: 'row' });
  });
});

// A resource with lots (several rows for one symbol) and a total of the whole result, made up here
// as a valuation would declare it.
interface Lot { symbol: string; value: string | undefined }
interface Valuation { total_base: string | undefined; lots: Lot[] }
const VALUATION_MODEL: CheckModel<Lot, Valuation> = {
  rowNoun: 'position',
  rowKey: (lot) => lot.symbol,
  fields: [{ name: 'value', kind: 'decimal', description: 'price × quantity', value: (lot) => lot.value, unavailable: () => 'no quote to value it' }],
  documentFields: [{ name: 'total_base', kind: 'decimal', description: 'the total', value: (valuation) => valuation.total_base, unavailable: () => 'the total is incomplete' }],
};

describe('any resource: rows in lots, and fields of the whole result', () => {
  const lots: Lot[] = [{ symbol: 'AAPL', value: '2271.0' }, { symbol: 'AAPL', value: '-100.5' }, { symbol: 'VOD.L', value: undefined }];
  const valuation: Valuation = { total_base: '0.1', lots };

  function evaluate(expressions: string[], document: Valuation = valuation) {
    const set = compileChecks(expressions, VALUATION_MODEL, { flag: '--check', keys: ['AAPL', 'VOD.L'] });
    return evaluateChecks(set, { rows: document.lots, document, keys: ['AAPL', 'VOD.L'] }, NOW);
  }

  it('a check on a symbol applies to each of its rows', () => {
    expect(evaluate(['AAPL.value > 0']).failures.map((failure) => failure.actual)).toEqual(['-100.5']);
  });

  it('a check without a symbol reports its failures in the result\'s order, lots of one symbol apart included', () => {
    const apart: Lot[] = [{ symbol: 'AAPL', value: '-1' }, { symbol: 'VOD.L', value: '-2' }, { symbol: 'AAPL', value: '-3' }];
    const set = compileChecks(['value > 0'], VALUATION_MODEL, { flag: '--check' });
    const verdict = evaluateChecks(set, { rows: apart, document: { total_base: '0', lots: apart } }, NOW);
    expect(verdict.failures.map((failure) => [failure.key, failure.actual])).toEqual([['AAPL', '-1'], ['VOD.L', '-2'], ['AAPL', '-3']]);
  });

  it('a field of the whole result is checked once, without a symbol', () => {
    expect(0.1 + 0.2 === 0.3).toBe(false);
    expect(evaluate(['total_base == 0.1']).failures).toEqual([]);
    expect(evaluate(['total_base > 0.1']).failures).toMatchObject([{ key: undefined, actual: '0.1', reason: 'not_met' }]);
  });

  it('a row without a value, and a total without one, fail saying why', () => {
    expect(evaluate(['VOD.L.value > 0']).failures).toMatchObject([{ key: 'VOD.L', reason: 'no_value', detail: 'no quote to value it' }]);
    expect(evaluate(['total_base > 0'], { ...valuation, total_base: undefined }).failures).toMatchObject([{ key: undefined, reason: 'no_value', detail: 'the total is incomplete' }]);
  });

  it('a field of the whole result takes no symbol, and the fields listed say which is which', () => {
    expect(() => compileChecks(['AAPL.total_base > 0'], VALUATION_MODEL, { flag: '--check' })).toThrow(/^--check "AAPL.total_base > 0": total_base belongs to the whole result, not to a symbol$/);
    expect(() => compileChecks(['price > 0'], VALUATION_MODEL, { flag: '--check' })).toThrow(/unknown field "price"; the fields of each row: value; of the whole result: total_base$/);
  });
});
