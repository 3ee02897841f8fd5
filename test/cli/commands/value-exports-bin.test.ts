// The exports of value-exports.test.ts through the built bin, as a user runs them (issue 35 items 1
// to 5): each file's exit code, standard output and standard error, whole. The figures are worked out
// here from the sandbox's quotes at its fixed instant.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../../src/api/index.js';
import { runBin } from '../../helpers/bin.js';
import { tempDir } from '../../helpers/cli.js';
import { mul, sub, sum } from '../../helpers/decimal-oracle.js';
import { getToken, startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';
import {
  EURO_BANK, EURO_BANK_POSITIONS, EXCEL_UTF16LE, EXTRA_COLUMNS, FIDELITY, FIDELITY_POSITIONS, GERMAN_COLUMNS, GERMAN_EXCEL_CP1252, IBKR_FLEX, SCHWAB, SCHWAB_POSITIONS, SCHWAB_WARNINGS, UK_EXCEL_CP1252,
} from '../../helpers/broker-exports.js';

let sb: TestSandbox;
let env: Record<string, string>;
let dir: string;
let mid: (symbol: string) => string;
beforeAll(async () => {
  sb = await startTestSandbox({ limits: { perMinute: 1000 } });
  const token = await getToken(sb.url);
  env = { MKT_BASE_URL: sb.url, MKT_TOKEN: token, MKT_ORG: 'org_demo', MKT_CONFIG_DIR: path.join(tempDir(), 'config') };
  dir = tempDir('mkt-value-exports-bin-');
  const { data } = await createClient({ baseUrl: sb.url, accessToken: token, organizationId: 'org_demo' }).getQuotes({ symbols: ['AAPL', 'MSFT', 'SPY', 'KO', 'SAP.DE', '7203.T'] });
  mid = (symbol) => data.find((quote) => quote.symbol === symbol)!.mid;
});
afterAll(async () => {
  await sb.close();
  fs.rmSync(path.dirname(env.MKT_CONFIG_DIR!), { recursive: true, force: true });
  fs.rmSync(dir, { recursive: true, force: true });
});

/** `mkt value FILE ...args` on `content` written to `name` in the scratch directory, from that directory. */
function value(name: string, content: string | Buffer, args: string[]) {
  fs.writeFileSync(path.join(dir, name), content);
  return runBin(['value', path.join(dir, name), ...args], { env });
}
const at = (name: string) => path.join(dir, name);
const crlf = (lines: string[]) => `${lines.join('\r\n')}\r\n`;

describe('mkt value, the process, on exports as they come', () => {
  it('Schwab: exit 0, the positions and totals, the title, cash and total rows skipped and the $ columns ignored, said', async () => {
    const result = await value('schwab.csv', SCHWAB, ['--base', 'USD', '--currency', 'USD', '--format', 'csv', '--fields', 'row,symbol,quantity,value_base']);
    const values = SCHWAB_POSITIONS.map(([symbol, quantity]) => mul(mid(symbol), quantity));
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(crlf([
      'row,symbol,quantity,value_base', ...SCHWAB_POSITIONS.map(([symbol, quantity], i) => `position,${symbol},${quantity},${values[i]}`), `total,,,${sum(values)}`, `total_base,,,${sum(values)}`,
    ]));
    expect(result.stderr).toBe(SCHWAB_WARNINGS);
  });

  it('Fidelity: exit 2 listing its $ totals; with --columns cost_total=, exit 0', async () => {
    const refused = await value('fidelity.csv', FIDELITY, ['--base', 'USD', '--currency', 'USD']);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr.split('\n').slice(-5)).toEqual([
      `error: ${at('fidelity.csv')} has 2 problems, so nothing was valued:`,
      '  line 2: cost_total "$1502.50" has a currency sign ($): a number is read alone, and its currency from the currency column',
      '  line 3: cost_total "$3750.00" has a currency sign ($): a number is read alone, and its currency from the currency column',
      'hint: write the number without its sign (the currency comes from the currency column, or --currency); or leave the column out: --columns cost_total=',
      '',
    ]);
    const valued = await value('fidelity.csv', FIDELITY, ['--base', 'USD', '--currency', 'USD', '--columns', 'cost_total=', '--format', 'tsv', '--fields', 'row,value_base']);
    expect(valued.code).toBe(0);
    const values = FIDELITY_POSITIONS.map(([symbol, quantity]) => mul(mid(symbol), quantity));
    expect(valued.stdout).toBe(`row\tvalue_base\n${values.map((v) => `position\t${v}`).join('\n')}\ntotal\t${sum(values)}\ntotal_base\t${sum(values)}\n`);
    expect(valued.stderr).toBe([
      'warning: ignored columns: Account Number, Account Name, Description, Last Price, Current Value, Total Gain/Loss Dollar, Cost Basis Total, Average Cost Basis, Type; "Average Cost Basis" may be a cost per unit or the lot\'s total, which mkt never guesses: --columns \'cost=Average Cost Basis\' reads it as the cost per unit, --columns \'cost_total=Average Cost Basis\' as the lot\'s total cost',
      'warning: skipped 3 rows with no quantity that are totals or notes: line 4 (Pending Activity), line 6 (The data and information in this spreads…), line 7 (Date downloaded Jan-06-2025 9:30 a.m ET)',
      '',
    ].join('\n'));
  });

  it('Interactive Brokers with --columns: exit 0, costs per unit read', async () => {
    const result = await value('flex.csv', IBKR_FLEX, ['--base', 'USD', '--columns', 'currency=CurrencyPrimary,cost=CostBasisPrice', '--format', 'csv', '--fields', 'symbol,currency,cost,pnl']);
    expect(result.code).toBe(0);
    expect(result.stdout.split('\r\n').slice(0, 4)).toEqual([
      'symbol,currency,cost,pnl', `AAPL,USD,150.25,${mul(sub(mid('AAPL'), '150.25'), '100')}`, `SAP.DE,EUR,180.5,${mul(sub(mid('SAP.DE'), '180.5'), '20')}`, expect.stringMatching(/^RY\.TO,CAD,160,-?\d+\.\d+$/),
    ]);
    expect(result.stderr).toBe('warning: ignored columns: ClientAccountID, AssetClass, Description, MarkPrice, PositionValue, CostBasisMoney\n');
  });

  it('a European bank: exit 2 without --decimal-comma, naming it; exit 0 with it', async () => {
    const refused = await value('depot.csv', EURO_BANK, ['--base', 'EUR']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`error: ${at('depot.csv')} has 4 problems, so nothing was valued:\n`);
    expect(refused.stderr).toMatch(/\nhint: --decimal-comma reads 1\.000,50 as 1000\.50; --no-decimal-comma reads 1,000\.50 as 1000\.50\n$/);
    const result = await value('depot.csv', EURO_BANK, ['--base', 'EUR', '--decimal-comma', '--format', 'csv', '--fields', 'row,quantity,value']);
    expect(result.code).toBe(0);
    const values = EURO_BANK_POSITIONS.map((position) => mul(position.symbol === 'EUR' ? '1' : mid(position.symbol), position.quantity));
    expect(result.stdout).toBe(crlf(['row,quantity,value', ...EURO_BANK_POSITIONS.map((position, i) => `position,${position.quantity},${values[i]}`), `total,,${sum(values)}`, 'total_base,,']));
    expect(result.stderr).toBe('warning: skipped 3 lines before the header on line 4\nwarning: ignored columns: Name, Market Value\nwarning: skipped 1 row with no quantity that is a total or a note: line 8 (Summe)\n');
  });

  it('Excel\'s CP1252: exit 2 naming the byte and --encoding; exit 0 with --encoding cp1252, its € and £ shown as they are', async () => {
    const refused = await value('excel.csv', GERMAN_EXCEL_CP1252, ['--base', 'EUR', '--decimal-comma', '--columns', GERMAN_COLUMNS]);
    expect(refused).toMatchObject({ code: 2, stdout: '' });
    expect(refused.stderr).toBe(`error: ${at('excel.csv')}, line 1: is not UTF-8 text: byte 2 of the file is 0xFC, which UTF-8 does not allow there\nhint: an export from Excel on Windows is usually cp1252: read it with --encoding cp1252, or --encoding and the encoding it is in (latin1, iso-8859-15, utf-16le...)\n`);
    const result = await value('excel.csv', GERMAN_EXCEL_CP1252, ['--base', 'EUR', '--decimal-comma', '--encoding', 'cp1252', '--columns', GERMAN_COLUMNS, '--format', 'csv', '--fields', 'symbol,cost,value']);
    expect(result.code).toBe(0);
    expect(result.stdout.split('\r\n').slice(0, 3)).toEqual(['symbol,cost,value', `SAP.DE,180.50,${mul(mid('SAP.DE'), '20')}`, `7203.T,2800,${mul(mid('7203.T'), '100')}`]);
    expect(result.stderr).toBe('warning: ignored columns: Bezeichnung, Kurswert (€)\n');
    const uk = await value('uk.csv', UK_EXCEL_CP1252, ['--base', 'USD', '--encoding', 'cp1252', '--format', 'csv', '--fields', 'symbol,quantity,cost']);
    expect(uk.code).toBe(0);
    expect(uk.stdout.split('\r\n').slice(0, 3)).toEqual(['symbol,quantity,cost', 'VOD.L,1000,70.25', 'AAPL,10,150']);
    expect(uk.stderr).toBe('warning: ignored columns: Value (£)\n');
  });

  it('UTF-16 with its byte-order mark, and extra columns: exit 0', async () => {
    const unicode = await value('unicode.txt', EXCEL_UTF16LE, ['--base', 'EUR', '--format', 'csv', '--fields', 'symbol,quantity,cost,value']);
    expect(unicode).toMatchObject({ code: 0, stderr: '' });
    expect(unicode.stdout.split('\r\n').slice(0, 3)).toEqual(['symbol,quantity,cost,value', `SAP.DE,20,200,${mul(mid('SAP.DE'), '20')}`, `7203.T,100,2800,${mul(mid('7203.T'), '100')}`]);
    const extra = await value('extra.csv', EXTRA_COLUMNS, ['--base', 'USD', '--format', 'csv', '--fields', 'row,value']);
    expect(extra).toMatchObject({ code: 0, stderr: 'warning: ignored columns: account, notes\n' });
    expect(extra.stdout.split('\r\n').at(-3)).toBe(`total,${sum([mul(mid('AAPL'), '10'), mul(mid('KO'), '5')])}`);
  });
});

describe('mkt value, the process, refusing a file once for all its problems', () => {
  const THREE = 'symbol,quantity,currency\nAAPL,abc,USD\nMSFT,1,usd\nKO,1.2.3,USD\nJPM,5,USD\n';

  it('in words and in the JSON error object', async () => {
    const words = await value('three.csv', THREE, ['--base', 'USD']);
    expect(words).toMatchObject({ code: 2, stdout: '' });
    expect(words.stderr).toBe([
      `error: ${at('three.csv')} has 3 problems, so nothing was valued:`,
      '  line 2: quantity "abc" is not a decimal number',
      '  line 3: currency "usd" is not a currency code: codes are case-sensitive (GBP is pounds, GBp pence); did you mean USD?',
      '  line 4: quantity "1.2.3" is not a decimal number',
      'hint: write it as 1500, -20, 0.25, 1,500.25 (thousands in threes) or (20)',
      '',
    ].join('\n'));
    const json = await value('three.csv', THREE, ['--base', 'USD', '--json']);
    expect(json).toMatchObject({ code: 2, stdout: '' });
    expect(json.stderr.endsWith('\n')).toBe(true);
    const { error } = JSON.parse(json.stderr) as { error: { problems: Array<{ line: number; field: string }>; problem_count: number; exit_code: number } };
    expect(error.problems.map((problem) => `${problem.line} ${problem.field}`)).toEqual(['2 quantity', '3 currency', '4 quantity']);
    expect(error).toMatchObject({ problem_count: 3, exit_code: 2 });
  });

  it.each([
    ['deep.json', `[${'['.repeat(5000)}${']'.repeat(5000)}]`, 'line 1: is JSON nested more than 64 levels deep, deeper than positions are read (an array of positions is 2 levels)'],
    ['huge.json', '[{"symbol": "AAPL", "quantity": 1e9999, "currency": "USD"}]', 'position 1 (line 1): quantity "1e9999" is too large: 10000 digits before the point; at most 100 are read'],
    ['huge.csv', 'symbol,quantity,currency\nAAPL,1e9999,USD\n', 'line 2: quantity "1e9999" is too large: 10000 digits before the point; at most 100 are read'],
  ])('%s: exit 2, saying what it is', async (name, text, message) => {
    const result = await value(name, text, ['--base', 'USD']);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toBe(`error: ${at(name)}, ${message}\n`);
  });

  it('a --columns or --encoding mkt cannot use: exit 2, before the file is read', async () => {
    const columns = await runBin(['value', at('missing.csv'), '--base', 'USD', '--columns', 'price=Last Price'], { env });
    expect(columns).toMatchObject({ code: 2, stdout: '' });
    expect(columns.stderr).toBe('error: --columns "price=Last Price": "price" is not one of mkt\'s fields\nhint: the fields are symbol, quantity, currency, cost, cost_total: e.g. --columns \'symbol=Ticker,quantity=Shares,cost=Avg Cost\'\n');
    const encoding = await value('p.csv', EXTRA_COLUMNS, ['--base', 'USD', '--encoding', 'ebcdic']);
    expect(encoding).toMatchObject({ code: 2, stdout: '' });
    expect(encoding.stderr).toMatch(/^error: --encoding "ebcdic" is not an encoding mkt can read\nhint: --encoding takes a label of the WHATWG Encoding standard/);
  });

  it('25 problems: 20 listed and the rest counted; UTF-16 without its mark: a NUL named with --encoding', async () => {
    const rows = Array.from({ length: 25 }, (_, i) => `S${i},x,USD`).join('\n');
    const many = await value('many.csv', `symbol,quantity,currency\n${rows}\n`, ['--base', 'USD']);
    expect(many).toMatchObject({ code: 2, stdout: '' });
    expect(many.stderr.split('\n').slice(0, 2)).toEqual([`error: ${at('many.csv')} has 25 problems, so nothing was valued:`, '  line 2: quantity "x" is not a decimal number']);
    expect(many.stderr.split('\n').slice(20, 23)).toEqual(['  line 21: quantity "x" is not a decimal number', '  and 5 more problems', 'hint: write it as 1500, -20, 0.25, 1,500.25 (thousands in threes) or (20)']);
    const bare = await value('bare.txt', EXCEL_UTF16LE.subarray(2), ['--base', 'EUR']);
    expect(bare).toMatchObject({ code: 2, stdout: '' });
    expect(bare.stderr).toBe(`error: ${at('bare.txt')}, line 1: holds a NUL character: it may be UTF-16 without a byte-order mark\nhint: --encoding utf-16le (or utf-16be) reads UTF-16 without a byte-order mark\n`);
    const read = await value('bare.txt', EXCEL_UTF16LE.subarray(2), ['--base', 'EUR', '--encoding', 'utf-16le', '--format', 'csv', '--fields', 'symbol']);
    expect(read).toMatchObject({ code: 0, stderr: '', stdout: 'symbol\r\nSAP.DE\r\n7203.T\r\n\r\n\r\n\r\n' });
  });
});

describe('mkt value, the process, on the other shapes', () => {
  it('--no-decimal-comma, account blocks, a JSON position\'s extra members, a quoted --columns header', async () => {
    const points = await value('points.csv', 'symbol;quantity;currency\nAAPL;1.250;USD\nKO;"2,000";USD\n', ['--base', 'USD', '--no-decimal-comma', '--format', 'csv', '--fields', 'symbol,quantity,value']);
    expect(points).toMatchObject({ code: 0, stderr: '' });
    expect(points.stdout.split('\r\n').slice(0, 3)).toEqual(['symbol,quantity,value', `AAPL,1.250,${mul(mid('AAPL'), '1.250')}`, `KO,2000,${mul(mid('KO'), '2000')}`]);
    const blocks = await value('blocks.csv', 'Account,Symbol,Quantity,Currency\nIRA,AAPL,10,USD\nIRA Subtotal,,,\nAccount: Taxable\nAccount,Symbol,Quantity,Currency\nTaxable,KO,5,USD\nTotal,,,\n', ['--base', 'USD', '--format', 'csv', '--fields', 'symbol,quantity']);
    expect(blocks).toMatchObject({ code: 0, stdout: 'symbol,quantity\r\nAAPL,10\r\nKO,5\r\n,\r\n,\r\n' });
    expect(blocks.stderr).toBe('warning: ignored columns: Account\nwarning: skipped 4 rows with no quantity that are totals or notes: line 3 (IRA Subtotal), line 4 (Account: Taxable), line 5 (the header again), line 7 (Total)\n');
    const members = await value('extra.json', '[{"symbol": "AAPL", "quantity": 10, "currency": "USD", "account": "IRA", "avg_cost": 150}]', ['--base', 'USD', '--format', 'csv', '--fields', 'symbol,cost']);
    expect(members).toMatchObject({ code: 0, stdout: 'symbol,cost\r\nAAPL,\r\n,\r\n,\r\n' });
    expect(members.stderr).toBe('warning: ignored members: account, avg_cost; "avg_cost" may be a cost per unit or the lot\'s total, which mkt never guesses: --columns \'cost=avg_cost\' reads it as the cost per unit, --columns \'cost_total=avg_cost\' as the lot\'s total cost\n');
    const quoted = await value('quoted.csv', 'Ticker,"Cost, avg",Qty,Currency\nAAPL,150,10,USD\n', ['--base', 'USD', '--columns', 'cost="Cost, avg"', '--format', 'csv', '--fields', 'symbol,cost,pnl']);
    expect(quoted).toMatchObject({ code: 0, stderr: '' });
    expect(quoted.stdout.split('\r\n')[1]).toBe(`AAPL,150,${mul(sub(mid('AAPL'), '150'), '10')}`);
  });
});
