// Exit 8 through main, as a command that checks its result reports it: a made-up command here, wired
// as mkt quotes and mkt value will be (compile before any request, write the data, evaluate, throw).
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Quote } from '../../src/api/index.js';
import { EXIT_CODE_TABLE, ExitCode, exitCodeFor } from '../../src/cli/exit-codes.js';
import { CheckFailedError } from '../../src/cli/errors.js';
import { main } from '../../src/cli/main.js';
import { addCheckOptions, checksFailedError, untilNeverHeldError, type CheckFlags } from '../../src/cli/options/checks.js';
import { COMMANDS, type RegisterCommand } from '../../src/cli/program.js';
import { compileChecks } from '../../src/render/checks/compile-checks.js';
import { evaluateChecks } from '../../src/render/checks/evaluate-checks.js';
import { evaluateUntil } from '../../src/render/checks/evaluate-until.js';
import { QUOTE_CHECK_MODEL } from '../../src/render/checks/quote-check-model.js';
import { createTestDeps } from '../helpers/cli.js';

const AT = '2026-01-05T14:30:15.250Z';
const NOW = Date.parse(AT) + 2000;
const QUOTES: Quote[] = [
  { symbol: 'EURUSD', bid: '1.084150000000000001', ask: '1.084170000000000003', mid: '1.084160000000000002', timestamp: AT },
  { symbol: 'AAPL', bid: '227.10', ask: '227.14', mid: '227.12', timestamp: AT },
];

/** `mkt checked SYMBOL... --check EXPR`: the quotes above for the symbols asked for, as TSV or JSON. */
let requests = 0;
const registerChecked: RegisterCommand = (program, deps, state) => {
  const command = program.command('checked').argument('[symbol...]').option('--json');
  addCheckOptions(command, { watch: false }).action(async (args: string[], options: CheckFlags & { json?: boolean }) => {
    const keys = args.map((symbol) => symbol.toUpperCase());
    const set = compileChecks(options.check ?? [], QUOTE_CHECK_MODEL, { flag: '--check', keys });
    requests++;
    const rows = QUOTES.filter((quote) => keys.includes(quote.symbol));
    deps.io.stdout.write(options.json ? `${JSON.stringify({ data: rows })}\n` : rows.map((quote) => `${quote.symbol}\t${quote.bid}\n`).join(''));
    const verdict = evaluateChecks(set, { rows, keys }, deps.now());
    if (verdict.failures.length > 0) throw checksFailedError(verdict, QUOTE_CHECK_MODEL.rowNoun);
    state.exitCode = 0;
  });
};

async function run(argv: string[]) {
  requests = 0;
  const test = createTestDeps({ now: () => NOW });
  const code = await main(argv, test.deps, [...COMMANDS, registerChecked]);
  return { code, stdout: test.stdout(), stderr: test.stderr(), requests };
}

describe('--check through main', () => {
  it('all hold, exactly: exit 0, the data, nothing on stderr', async () => {
    const result = await run(['checked', 'EURUSD', 'AAPL', '--check', 'EURUSD.bid > 1.0841500000000000009', '--check', 'EURUSD.spread <= 0.000020000000000002', '--check', 'age < 5s']);
    expect(result).toEqual({ code: 0, stdout: 'EURUSD\t1.084150000000000001\nAAPL\t227.10\n', stderr: '', requests: 1 });
  });

  it('a failed check: the data first, then each failure and the error, exit 8', async () => {
    const result = await run(['checked', 'EURUSD', 'AAPL', 'GBPUSD', '--check', 'EURUSD.bid < 1', '--check', 'spread < 0.01', '--check', 'age < 5s']);
    expect(result.code).toBe(8);
    expect(result.stdout).toBe('EURUSD\t1.084150000000000001\nAAPL\t227.10\n');
    expect(result.stderr).toBe([
      'check failed: EURUSD.bid is 1.084150000000000001, not < 1',
      'check failed: AAPL.spread is 0.04, not < 0.01',
      'check failed: GBPUSD has no quote, so GBPUSD.spread < 0.01 fails',
      'check failed: GBPUSD has no quote, so GBPUSD.age < 5s fails',
      'error: 3 of 3 checks failed (4 failures)',
      'hint: the data written is as the service sent it; each check is decided on its exact digits',
      '',
    ].join('\n'));
  });

  it('under JSON, the report is the JSON error object with every failed check in it', async () => {
    const result = await run(['checked', 'EURUSD', '--json', '--check', 'EURUSD.bid < 1', '--check', 'EURUSD.age < 1500ms']);
    expect(result.code).toBe(8);
    expect(JSON.parse(result.stdout).data[0].bid).toBe('1.084150000000000001');
    expect(result.stderr.endsWith('\n')).toBe(true);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(result.stderr)).toEqual({
      error: {
        code: 'CHECK_FAILED',
        message: '2 of 2 checks failed',
        status: null,
        exit_code: 8,
        hint: 'the data written is as the service sent it; each check is decided on its exact digits',
        request_id: null,
        checks: [
          {
            expression: 'EURUSD.bid < 1', symbol: 'EURUSD', field: 'bid', kind: 'decimal', op: '<', expected: '1',
            actual: '1.084150000000000001', reason: 'not_met', message: 'EURUSD.bid is 1.084150000000000001, not < 1',
          },
          {
            expression: 'EURUSD.age < 1500ms', symbol: 'EURUSD', field: 'age', kind: 'duration', op: '<', expected: '1500',
            actual: '2000', reason: 'not_met', message: 'EURUSD.age is 2s, not < 1500ms',
          },
        ],
      },
    });
  });

  it.each([
    [['--check', 'EURUSD.bidd > 1'], 'error: --check "EURUSD.bidd > 1": unknown field "bidd"; the fields: bid, ask, mid, spread, spread_bps, age\n'],
    [['--check', 'GBPUSD.bid > 1'], 'error: --check "GBPUSD.bid > 1": GBPUSD is not among the symbols asked for\n'],
    [['--check', 'age < 30'], 'error: --check "age < 30": age is a duration: give its unit, as in 30s, 500ms, 2m or 1h, not 30\n'],
    [['--check', 'bid > 30s'], 'error: --check "bid > 30s": bid is a decimal, not a duration\n'],
    [['--check', 'bid = 1'], 'error: --check "bid = 1": unknown operator "="; did you mean ==?\n'],
    [['--check', 'EURUSD.bid'], 'error: --check "EURUSD.bid": it has no operator\n'],
  ])('refused before any request, exit 2: %j', async (flags, first) => {
    const result = await run(['checked', 'EURUSD', ...flags]);
    expect(result).toMatchObject({ code: 2, stdout: '', requests: 0 });
    expect(result.stderr.startsWith(first)).toBe(true);
    expect(result.stderr).toMatch(/\nhint: /);
  });
});

describe('exit 8 in the contract', () => {
  it('CheckFailedError is exit 8', () => {
    const set = compileChecks(['bid > 2'], QUOTE_CHECK_MODEL, { flag: '--check' });
    const error = checksFailedError(evaluateChecks(set, { rows: QUOTES }, NOW), 'quote');
    expect(error).toBeInstanceOf(CheckFailedError);
    expect(exitCodeFor(error)).toBe(8);
    expect(ExitCode.CHECK_FAILED).toBe(8);
  });

  it('`mkt help exit-codes` lists 8', async () => {
    const test = createTestDeps();
    expect(await main(['help', 'exit-codes'], test.deps)).toBe(0);
    expect(test.stdout()).toMatch(/^ +8 {2}a check failed: a --check did not hold, or --until never held before --count ran out$/m);
    expect(test.stdout().indexOf('  7  ')).toBeLessThan(test.stdout().indexOf('  8  '));
  });

  it('the README\'s exit-code table lists every code of the table, 8 included', () => {
    const readme = fs.readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('\n## Exit codes\n'), readme.indexOf('\n## ', readme.indexOf('\n## Exit codes\n') + 1));
    const codes = [...section.matchAll(/^\| (\d+) \|/gm)].map((match) => Number(match[1]));
    expect(codes).toEqual(EXIT_CODE_TABLE.map(([code]) => code));
  });
});

describe('--until never held before --count ran out', () => {
  it('is exit 8 with what did not hold at the last poll', async () => {
    const set = compileChecks(['EURUSD.bid > 1.09'], QUOTE_CHECK_MODEL, { flag: '--until', keys: ['EURUSD'] });
    const outcome = evaluateUntil(set, { rows: QUOTES, keys: ['EURUSD'] }, NOW);
    expect(outcome.holds).toBe(false);
    const error = untilNeverHeldError(outcome.verdict, 10, 'quote');
    expect(exitCodeFor(error)).toBe(8);
    expect(error.message).toBe('--until did not hold at any of 10 polls');
    expect(error.lines).toEqual(['not met at the last poll: EURUSD.bid is 1.084150000000000001, not > 1.09']);
  });
});
