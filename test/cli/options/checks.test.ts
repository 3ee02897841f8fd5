// --check for any resource that declares checks: a made-up resource here (balances, with a total
// for the whole result), registered as a command with nothing of checks in it but the two calls
// every command makes (compile before the request, write and decide after it); the flag comes from
// its declaration (addFormatOptions). And exit 8 in the exit-code contract.
import fs from 'node:fs';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import type { Quote } from '../../../src/api/index.js';
import { EXIT_CODE_TABLE, ExitCode, exitCodeFor } from '../../../src/cli/errors/exit-codes.js';
import { CheckFailedError } from '../../../src/cli/errors/errors.js';
import { main } from '../../../src/cli/main.js';
import { addCheckOption, addUntilOptions, checksFailedError, compileCheckFlags, untilNeverHeldError, type CheckFlags } from '../../../src/cli/options/checks.js';
import { commandOptions } from '../../../src/cli/options/command-options.js';
import { addFormatOptions, chooseFormat, type FormatFlags } from '../../../src/cli/options/format.js';
import { COMMANDS, type RegisterCommand } from '../../../src/cli/program.js';
import { runTerminal } from '../../../src/cli/output/terminal.js';
import { writeChecked } from '../../../src/cli/output/write-checked.js';
import type { CheckModel } from '../../../src/render/checks/check-model.js';
import { compileChecks } from '../../../src/render/checks/compile-checks.js';
import { evaluateChecks } from '../../../src/render/checks/evaluate-checks.js';
import { evaluateUntil } from '../../../src/render/checks/evaluate-until.js';
import { QUOTE_CHECK_MODEL } from '../../../src/render/checks/quote-check-model.js';
import type { FieldSet } from '../../../src/render/fields.js';
import { createTestDeps } from '../../helpers/cli.js';

const AT = '2026-01-05T14:30:15.250Z';
const NOW = Date.parse(AT) + 2000;
const QUOTES: Quote[] = [
  { symbol: 'EURUSD', bid: '1.084150000000000001', ask: '1.084170000000000003', mid: '1.084160000000000002', timestamp: AT },
  { symbol: 'AAPL', bid: '227.10', ask: '227.14', mid: '227.12', timestamp: AT },
];

interface Balance {
  account: string;
  amount: string;
  updated: string;
}

interface Balances {
  balances: readonly Balance[];
  /** The sum of the amounts, exact. */
  total: string;
}

type BalanceField = 'account' | 'amount' | 'updated';

const BALANCE_CHECKS: CheckModel<Balance, Balances> = {
  rowNoun: 'balance',
  rowKey: (balance) => balance.account.toUpperCase(),
  fields: [
    { name: 'amount', kind: 'decimal', description: 'as held', value: (balance) => balance.amount },
    { name: 'age', kind: 'duration', description: 'since it was updated', value: (balance, now) => now - Date.parse(balance.updated) },
  ],
  documentFields: [{ name: 'total', kind: 'decimal', description: 'the sum', value: (document) => document.total }],
};

const FIELDS: FieldSet<Balance, BalanceField, Balances>['fields'] = {
  account: { name: 'account', title: 'Account', kind: 'text', derived: false, align: 'left', read: (item) => item.account },
  amount: { name: 'amount', title: 'Amount', kind: 'price', derived: false, align: 'right', read: (item) => item.amount },
  updated: { name: 'updated', title: 'Updated', kind: 'time', derived: false, align: 'left', read: (item) => item.updated },
};

/** Declared with checks: the command gets --check from addFormatOptions. */
const BALANCE_MODEL: FieldSet<Balance, BalanceField, Balances> = {
  fields: FIELDS,
  names: ['account', 'amount', 'updated'],
  sent: ['account', 'amount', 'updated'],
  table: ['account', 'amount', 'updated'],
  document: { items: 'balances', after: [{ name: 'total', kind: 'decimal' }] },
  checks: BALANCE_CHECKS,
};

/** The same resource declared without checks: no --check. */
const UNCHECKED_MODEL: FieldSet<Balance, BalanceField, Balances> = { ...BALANCE_MODEL, checks: undefined };

// 0.1 + 0.20000000000000000001, added by hand: a double would make it 0.30000000000000004.
const BALANCES: Balance[] = [
  { account: 'ACC1', amount: '0.1', updated: AT },
  { account: 'ACC2', amount: '0.20000000000000000001', updated: AT },
];
const TOTAL = '0.30000000000000000001';

let requests = 0;
/** `mkt balances ACCOUNT...`: the balances above for the accounts asked for, in the chosen format. */
function registerBalances(model: FieldSet<Balance, BalanceField, Balances>, name = 'balances'): RegisterCommand {
  return (program, deps, state) => {
    const command = program.command(name).argument('[account...]');
    addFormatOptions(command, model).action(async (args: string[], _options: unknown, self) => {
      const options = commandOptions<CheckFlags & FormatFlags>(self);
      const keys = args.map((account) => account.toUpperCase());
      const checks = compileCheckFlags(model, options, keys);
      requests++;
      const balances = BALANCES.filter((balance) => keys.includes(balance.account));
      await writeChecked(runTerminal(deps, state), model, { balances, total: balances.length === 2 ? TOTAL : balances[0]?.amount ?? '0' }, {
        format: chooseFormat(deps, options).format, checks, keys,
      });
      state.exitCode = 0;
    });
  };
}

async function run(argv: string[]) {
  requests = 0;
  const test = createTestDeps({ now: () => NOW });
  const code = await main(argv, test.deps, [...COMMANDS, registerBalances(BALANCE_MODEL), registerBalances(UNCHECKED_MODEL, 'unchecked')]);
  return { code, stdout: test.stdout(), stderr: test.stderr(), requests };
}

describe('--check on any resource that declares checks', () => {
  it('the flag comes from the declaration: a resource declared without checks has none', async () => {
    expect((await run(['balances', '--help'])).stdout).toMatch(/--check <expr> +exit 8 unless \[SYMBOL\.\]FIELD OP VALUE holds/);
    expect((await run(['unchecked', '--help'])).stdout).not.toContain('--check');
    const refused = await run(['unchecked', 'ACC1', '--check', 'amount > 0']);
    expect(refused).toMatchObject({ code: 2, stdout: '', requests: 0 });
    expect(refused.stderr).toMatch(/^error: unknown option '--check'/);
  });

  it('all hold, exactly, a field of the whole result among them: exit 0, the data, nothing on stderr', async () => {
    // A double reads the total as 0.3, which is not more than 0.3.
    expect(Number(TOTAL) > 0.3).toBe(false);
    const result = await run(['balances', 'ACC1', 'ACC2', '--format', 'tsv', '--check', 'total > 0.3', '--check', `total == ${TOTAL}`, '--check', 'ACC2.amount > 0.2', '--check', 'age <= 2s']);
    expect(result).toEqual({ code: 0, stdout: `account\tamount\tupdated\nACC1\t0.1\t${AT}\nACC2\t0.20000000000000000001\t${AT}\n`, stderr: '', requests: 1 });
  });

  it('failed checks: the data first, then each failure and the error, exit 8; an account with no row fails what applies to it', async () => {
    const result = await run(['balances', 'ACC1', 'ACC2', 'ACC3', '--format', 'tsv', '--check', 'total < 0.3', '--check', 'amount >= 0.2', '--check', 'age < 1s']);
    expect(result.code).toBe(8);
    expect(result.stdout).toBe(`account\tamount\tupdated\nACC1\t0.1\t${AT}\nACC2\t0.20000000000000000001\t${AT}\n`);
    expect(result.stderr).toBe([
      `check failed: total is ${TOTAL}, not < 0.3`,
      'check failed: ACC1.amount is 0.1, not >= 0.2',
      'check failed: ACC3 has no balance, so ACC3.amount >= 0.2 fails',
      'check failed: ACC1.age is 2s, not < 1s',
      'check failed: ACC2.age is 2s, not < 1s',
      'check failed: ACC3 has no balance, so ACC3.age < 1s fails',
      'error: 3 of 3 checks failed (6 failures)',
      'hint: the data written is as the service sent it; each check is decided on its exact digits',
      '',
    ].join('\n'));
  });

  it('under JSON, the data is the declared document and the report is the JSON error object with every failed check', async () => {
    const result = await run(['balances', 'ACC1', 'ACC2', '--json', '--check', 'total != ' + TOTAL, '--check', 'ACC1.amount > 0.1']);
    expect(result.code).toBe(8);
    expect(result.stdout).toContain(`"total": ${TOTAL}\n}`);
    expect(JSON.parse(result.stderr)).toEqual({
      error: {
        code: 'CHECK_FAILED', message: '2 of 2 checks failed', status: null, exit_code: 8,
        hint: 'the data written is as the service sent it; each check is decided on its exact digits', request_id: null,
        checks: [
          { expression: `total != ${TOTAL}`, symbol: null, field: 'total', kind: 'decimal', op: '!=', expected: TOTAL, actual: TOTAL, reason: 'not_met', message: `total is ${TOTAL}, not != ${TOTAL}` },
          { expression: 'ACC1.amount > 0.1', symbol: 'ACC1', field: 'amount', kind: 'decimal', op: '>', expected: '0.1', actual: '0.1', reason: 'not_met', message: 'ACC1.amount is 0.1, not > 0.1' },
        ],
      },
    });
  });

  it.each([
    [['--check', 'ACC1.amountt > 1'], 'error: --check "ACC1.amountt > 1": unknown field "amountt"; the fields of each row: amount, age; of the whole result: total\n'],
    [['--check', 'ACC9.amount > 1'], 'error: --check "ACC9.amount > 1": ACC9 is not among the symbols asked for\n'],
    // A model that names no example field: its first decimal field is the example.
    [['--check', 'ACC1 > 1'], 'error: --check "ACC1 > 1": unknown field "acc1"; the fields of each row: amount, age; of the whole result: total\nhint: a check on one symbol names a field after the symbol: ACC1.amount > 1\n'],
    [['--check', 'ACC1.total > 1'], 'error: --check "ACC1.total > 1": total belongs to the whole result, not to a symbol\n'],
    [['--check', 'age < 30'], 'error: --check "age < 30": age is a duration: give its unit, as in 30s, 500ms, 2m or 1h, not 30\n'],
    [['--check', 'total > 30s'], 'error: --check "total > 30s": total is a decimal, not a duration\n'],
    [['--check', 'amount = 1'], 'error: --check "amount = 1": unknown operator "="; did you mean ==?\n'],
    [['--check', 'ACC1.amount'], 'error: --check "ACC1.amount": it has no operator\n'],
  ])('refused before any request, exit 2: %j', async (flags, first) => {
    const result = await run(['balances', 'ACC1', ...flags]);
    expect(result).toMatchObject({ code: 2, stdout: '', requests: 0 });
    expect(result.stderr.startsWith(first)).toBe(true);
    expect(result.stderr).toMatch(/\nhint: /);
  });
});

describe('repeated flags are read in linear time (issue 36 item 6: 20,000 --check flags took 6.5 s)', () => {
  it.each(['--check', '--until'])('20,000 %s flags: every one kept, in order, in one list grown in place rather than copied at each flag', (flag) => {
    const command = addUntilOptions(addCheckOption(new Command(), {}), {}).exitOverride();
    const name = flag.slice(2);
    // Counting the work: each list the option held as it was read. A copy per flag is 20,000 lists
    // and 200 million elements copied; one list grown in place is one.
    let lists = 0;
    let last: unknown;
    command.on(`option:${name}`, () => {
      const list: unknown = command.getOptionValue(name);
      if (list !== last) lists++;
      last = list;
    });
    const words = Array.from({ length: 20_000 }, (_, index) => [flag, `amount > ${index}`]).flat();
    command.parse(words, { from: 'user' });
    const values = command.getOptionValue(name) as string[];
    expect(values).toHaveLength(20_000);
    expect(values[0]).toBe('amount > 0');
    expect(values[19_999]).toBe('amount > 19999');
    expect(lists).toBe(1);
  });

  it('each run starts a list of its own: two runs do not share their checks', async () => {
    const first = await run(['balances', 'ACC1', '--format', 'tsv', '--check', 'amount > 1']);
    expect(first.code).toBe(8);
    const second = await run(['balances', 'ACC1', '--format', 'tsv', '--check', 'amount > 0']);
    expect(second).toMatchObject({ code: 0, stderr: '' });
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
    const readme = fs.readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
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
