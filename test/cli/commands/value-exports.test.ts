// mkt value on positions files as brokers and banks export them (issue 35 items 1 to 5), in-process
// against the sandbox at its fixed instant: each valued with the figures worked out here from the
// sandbox's quotes, the warnings on stderr (what was ignored and skipped), the flags that read what
// the file's own conventions hide (--columns, --decimal-comma, --encoding), and a file that cannot
// be used refused once, listing every problem with its line, in words and in the JSON error object,
// before any request.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/bin.js';
import { TEST_EPOCH } from '../../helpers/sandbox.js';
import { createClient } from '../../../src/api/index.js';
import { runCli, type TestDepsOptions } from '../../helpers/cli.js';
import { mul, sub, sum } from '../../helpers/decimal-oracle.js';
import { useValueSandbox } from '../../helpers/value-sandbox.js';
import {
  EURO_BANK, EURO_BANK_POSITIONS, EXCEL_UTF16LE, EXTRA_COLUMNS, FIDELITY, FIDELITY_POSITIONS, GERMAN_COLUMNS, GERMAN_EXCEL_CP1252, IBKR_FLEX, SCHWAB, SCHWAB_POSITIONS, SCHWAB_WARNINGS, UK_EXCEL_CP1252,
} from '../../helpers/broker-exports.js';

const fixture = useValueSandbox('mkt-value-exports-');
const { log, file } = fixture;

const env = () => ({ MKT_BASE_URL: fixture.sb.url, MKT_TOKEN: fixture.token, MKT_ORG: 'org_demo' });
const run = (argv: string[], options: TestDepsOptions = {}) => runCli(['value', ...argv], { now: () => fixture.sb.clock.now(), ...options, env: { ...env(), ...options.env } });
/** A file of bytes in the scratch directory. */
const bytes = (name: string, content: Buffer) => file(name, content as unknown as string);

/** The sandbox's mids now, read through its quotes endpoint, apart from the command. */
async function mids(symbols: string[]): Promise<(symbol: string) => string> {
  const { data } = await createClient({ baseUrl: fixture.sb.url, accessToken: fixture.token, organizationId: 'org_demo' }).getQuotes({ symbols });
  return (symbol) => data.find((quote) => quote.symbol === symbol)!.mid;
}

const exactJson = (text: string) => parse(text, null, (number: string) => number) as Record<string, unknown>;
/** CSV lines as arrays of cells. */
const csvRows = (text: string) => text.split('\r\n').filter((line) => line !== '').map((line) => line.split(','));

/**
 * stderr under --json, each warning line (a JSON object) said as the text form says it
 * (`warning: MESSAGE; HINT`): every line must be JSON.
 */
function said(stderr: string): string {
  return stderr.split('\n').filter((line) => line !== '').map((line) => {
    const { warning } = JSON.parse(line) as { warning: { message: string; hint: string | null } };
    return `warning: ${warning.message}${warning.hint === null ? '' : `; ${warning.hint}`}\n`;
  }).join('');
}

describe('mkt value: exports as they come', () => {
  it('Schwab: valued, each figure the test\'s own; what was skipped and ignored said on stderr, with how to map its Cost Basis', async () => {
    const result = await run([file('positions.csv', SCHWAB), '--base', 'USD', '--currency', 'USD', '--format', 'csv', '--fields', 'row,symbol,quantity,value_base']);
    expect(result.code).toBe(0);
    const mid = await mids(SCHWAB_POSITIONS.map(([symbol]) => symbol));
    const values = SCHWAB_POSITIONS.map(([symbol, quantity]) => mul(mid(symbol), quantity));
    expect(csvRows(result.stdout)).toEqual([
      ['row', 'symbol', 'quantity', 'value_base'],
      ...SCHWAB_POSITIONS.map(([symbol, quantity], i) => ['position', symbol, quantity, values[i]]),
      ['total', '', '', sum(values)],
      ['total_base', '', '', sum(values)],
    ]);
    expect(result.stderr).toBe(SCHWAB_WARNINGS);
  });

  it('Fidelity: its $ totals refused, every one, with the flag that leaves the column out; with it, valued', async () => {
    const positions = file('Portfolio_Positions.csv', FIDELITY);
    const refused = await run([positions, '--base', 'USD', '--currency', 'USD']);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain([
      `error: ${positions} has 2 problems, so nothing was valued:`,
      '  line 2: cost_total "$1502.50" has a currency sign ($): a number is read alone, and its currency from the currency column',
      '  line 3: cost_total "$3750.00" has a currency sign ($): a number is read alone, and its currency from the currency column',
      'hint: write the number without its sign (the currency comes from the currency column, or --currency); or leave the column out: --columns cost_total=',
      '',
    ].join('\n'));
    expect(log).toEqual([]);
    const valued = await run([positions, '--base', 'USD', '--currency', 'USD', '--columns', 'cost_total=', '--json']);
    expect(valued.code).toBe(0);
    const mid = await mids(FIDELITY_POSITIONS.map(([symbol]) => symbol));
    expect(exactJson(valued.stdout).total_base).toBe(sum(FIDELITY_POSITIONS.map(([symbol, quantity]) => mul(mid(symbol), quantity))));
    expect(said(valued.stderr)).toContain('warning: skipped 3 rows with no quantity that are totals or notes: line 4 (Pending Activity), line 6 (The data and information in this spreads…), line 7 (Date downloaded Jan-06-2025 9:30 a.m ET)\n');
    expect(said(valued.stderr)).toContain('; "Average Cost Basis" may be a cost per unit');
  });

  it('Interactive Brokers: its currency and per-unit cost by --columns, P&L the test\'s own; without, one problem at the header', async () => {
    const flex = file('flex.csv', IBKR_FLEX);
    const result = await run([flex, '--base', 'USD', '--columns', 'currency=CurrencyPrimary,cost=costbasisprice', '--json', '--fields', 'symbol,quantity,currency,price,cost,pnl']);
    expect(result.code).toBe(0);
    const positions = exactJson(result.stdout).positions as Array<Record<string, string>>;
    const mid = await mids(['AAPL', 'SAP.DE', 'RY.TO']);
    expect(positions).toEqual([
      { symbol: 'AAPL', quantity: '100', currency: 'USD', price: mid('AAPL'), cost: '150.25', pnl: mul(sub(mid('AAPL'), '150.25'), '100') },
      { symbol: 'SAP.DE', quantity: '20', currency: 'EUR', price: mid('SAP.DE'), cost: '180.5', pnl: mul(sub(mid('SAP.DE'), '180.5'), '20') },
      { symbol: 'RY.TO', quantity: '-50', currency: 'CAD', price: mid('RY.TO'), cost: '160', pnl: mul(sub(mid('RY.TO'), '160'), '-50') },
    ]);
    expect(said(result.stderr)).toBe('warning: ignored columns: ClientAccountID, AssetClass, Description, MarkPrice, PositionValue, CostBasisMoney\n');
    const unmapped = await run([flex, '--base', 'USD']);
    expect(unmapped.code).toBe(2);
    expect(unmapped.stderr).toContain(`error: ${flex}, line 1: the header has no currency column, and no default currency was given\nhint: add a currency column (--columns currency=HEADER maps one), or give --currency CCY`);
  });

  it('a European bank\'s ; file: --decimal-comma reads 1.250 as 1250 and 180,50 as 180.50; without it, every such number refused, naming the flag', async () => {
    const depot = file('depot.csv', EURO_BANK);
    const result = await run([depot, '--base', 'EUR', '--decimal-comma', '--json', '--fields', 'symbol,quantity,cost,value,pnl']);
    expect(result.code).toBe(0);
    const mid = await mids(['SAP.DE']);
    const expected = EURO_BANK_POSITIONS.map((position) => {
      const price = position.symbol === 'EUR' ? '1' : mid(position.symbol);
      const cost = 'cost' in position ? position.cost : undefined;
      return { symbol: position.symbol, quantity: position.quantity, cost: cost ?? null, value: mul(price, position.quantity), pnl: cost === undefined ? null : mul(sub(price, cost), position.quantity) };
    });
    const document = exactJson(result.stdout);
    expect(document.positions).toEqual(expected);
    expect(document.total_base).toBe(sum(expected.map((position) => position.value)));
    expect(said(result.stderr)).toBe([
      'warning: skipped 3 lines before the header on line 4',
      'warning: ignored columns: Name, Market Value',
      'warning: skipped 1 row with no quantity that is a total or a note: line 8 (Summe)',
      '',
    ].join('\n'));
    log.length = 0;
    const refused = await run([depot, '--base', 'EUR']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`error: ${depot} has 4 problems, so nothing was valued:\n  line 5: quantity "1.250" may be a number with a decimal point or thousands grouped with points`);
    expect(refused.stderr).toContain('\nhint: --decimal-comma reads 1.000,50 as 1000.50; --no-decimal-comma reads 1,000.50 as 1000.50\n');
    expect(log).toEqual([]);
  });

  it('Excel on Windows: refused naming the byte and --encoding; read with --encoding cp1252, € and £ in its headers as they are', async () => {
    const german = bytes('depot-excel.csv', GERMAN_EXCEL_CP1252);
    const refused = await run([german, '--base', 'EUR', '--decimal-comma', '--columns', GERMAN_COLUMNS]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(`error: ${german}, line 1: is not UTF-8 text: byte 2 of the file is 0xFC, which UTF-8 does not allow there\nhint: an export from Excel on Windows is usually cp1252: read it with --encoding cp1252, or --encoding and the encoding it is in (latin1, iso-8859-15, utf-16le...)\n`);
    const result = await run([german, '--base', 'EUR', '--decimal-comma', '--encoding', 'cp1252', '--columns', GERMAN_COLUMNS, '--json', '--fields', 'symbol,quantity,currency,cost,value']);
    expect(result.code).toBe(0);
    const mid = await mids(['SAP.DE', '7203.T']);
    expect(exactJson(result.stdout).positions).toEqual([
      { symbol: 'SAP.DE', quantity: '20', currency: 'EUR', cost: '180.50', value: mul(mid('SAP.DE'), '20') },
      { symbol: '7203.T', quantity: '100', currency: 'JPY', cost: '2800', value: mul(mid('7203.T'), '100') },
    ]);
    expect(said(result.stderr)).toBe('warning: ignored columns: Bezeichnung, Kurswert (€)\n');
    const uk = await run([bytes('uk.csv', UK_EXCEL_CP1252), '--base', 'USD', '--encoding', 'CP1252', '--format', 'csv', '--fields', 'symbol,cost']);
    expect(uk.code).toBe(0);
    expect(uk.stderr).toBe('warning: ignored columns: Value (£)\n');
    expect(csvRows(uk.stdout).slice(1, 3)).toEqual([['VOD.L', '70.25'], ['AAPL', '150']]);
  });

  it('UTF-16 from Excel\'s "Unicode text", by its byte-order mark; extra columns read past', async () => {
    const unicode = await run([bytes('export.txt', EXCEL_UTF16LE), '--base', 'EUR', '--json', '--fields', 'symbol,quantity,cost']);
    expect(unicode.code).toBe(0);
    expect(unicode.stderr).toBe('');
    expect(exactJson(unicode.stdout).positions).toEqual([{ symbol: 'SAP.DE', quantity: '20', cost: '200' }, { symbol: '7203.T', quantity: '100', cost: '2800' }]);
    const extra = await run([file('extra.csv', EXTRA_COLUMNS), '--base', 'USD', '--json', '--fields', 'symbol,value']);
    expect(extra.code).toBe(0);
    expect(said(extra.stderr)).toBe('warning: ignored columns: account, notes\n');
    const mid = await mids(['AAPL', 'KO']);
    expect(exactJson(extra.stdout).total_base).toBe(sum([mul(mid('AAPL'), '10'), mul(mid('KO'), '5')]));
  });
});

describe('mkt value: every problem at once, before any request', () => {
  const THREE = 'symbol,quantity,currency\nAAPL,abc,USD\nMSFT,1,usd\nKO,1.2.3,USD\nJPM,5,USD\n';

  it('words: the count, then each problem with its line, then the hints', async () => {
    const holdings = file('holdings.csv', THREE);
    const result = await run([holdings, '--base', 'USD']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe([
      `error: ${holdings} has 3 problems, so nothing was valued:`,
      '  line 2: quantity "abc" is not a decimal number',
      '  line 3: currency "usd" is not a currency code: codes are case-sensitive (GBP is pounds, GBp pence); did you mean USD?',
      '  line 4: quantity "1.2.3" is not a decimal number',
      'hint: write it as 1500, -20, 0.25, 1,500.25 (thousands in threes) or (20)',
      '',
    ].join('\n'));
    expect(log).toEqual([]);
  });

  it('JSON: the problems in the error object, each with its line, field, value, words and hint', async () => {
    const result = await run([file('holdings.csv', THREE), '--base', 'USD', '--json']);
    expect(result.code).toBe(2);
    const { error } = JSON.parse(result.stderr) as { error: Record<string, unknown> };
    expect(error).toMatchObject({ code: 'INVALID_OPTIONS', exit_code: 2, problem_count: 3 });
    expect(error.problems).toEqual([
      { line: 2, position: null, field: 'quantity', value: 'abc', message: 'quantity "abc" is not a decimal number', hint: 'write it as 1500, -20, 0.25, 1,500.25 (thousands in threes) or (20)' },
      { line: 3, position: null, field: 'currency', value: 'usd', message: 'currency "usd" is not a currency code: codes are case-sensitive (GBP is pounds, GBp pence); did you mean USD?', hint: null },
      { line: 4, position: null, field: 'quantity', value: '1.2.3', message: 'quantity "1.2.3" is not a decimal number', hint: 'write it as 1500, -20, 0.25, 1,500.25 (thousands in threes) or (20)' },
    ]);
    // One problem is a list of one, under the message that names it.
    const one = await run([file('one.json', '[\n {"symbol": "AAPL", "quantity": 1e9999, "currency": "USD"}\n]'), '--base', 'USD', '--json']);
    const single = JSON.parse(one.stderr) as { error: Record<string, unknown> };
    expect(single.error).toMatchObject({
      message: `${fixture.dir}/one.json, position 1 (line 2): quantity "1e9999" is too large: 10000 digits before the point; at most 100 are read`,
      problems: [{ line: 2, position: 1, field: 'quantity', value: '1e9999', message: 'quantity "1e9999" is too large: 10000 digits before the point; at most 100 are read', hint: null }],
      problem_count: 1,
    });
  });

  it('20 listed, the rest counted', async () => {
    const rows = Array.from({ length: 25 }, (_, i) => `S${i},x,USD`).join('\n');
    const result = await run([file('many.csv', `symbol,quantity,currency\n${rows}\n`), '--base', 'USD']);
    const lines = result.stderr.split('\n');
    expect(lines[0]).toMatch(/has 25 problems, so nothing was valued:$/);
    expect(lines.slice(1, 22)).toEqual([...Array.from({ length: 20 }, (_, i) => `  line ${i + 2}: quantity "x" is not a decimal number`), '  and 5 more problems']);
    const json = JSON.parse((await run([file('many.csv', `symbol,quantity,currency\n${rows}\n`), '--base', 'USD', '--json'])).stderr) as { error: { problems: unknown[]; problem_count: number } };
    expect(json.error.problems).toHaveLength(20);
    expect(json.error.problem_count).toBe(25);
  });

  it.each([
    ['deep.json', `[${'['.repeat(3000)}${']'.repeat(3000)}]`, [], 'deep.json, line 1: is JSON nested more than 64 levels deep, deeper than positions are read (an array of positions is 2 levels)'],
    ['huge.csv', 'symbol,quantity,currency\nAAPL,1e9999,USD\n', [], 'huge.csv, line 2: quantity "1e9999" is too large: 10000 digits before the point; at most 100 are read'],
    ['signs.csv', 'symbol,quantity,currency,cost\nAAPL,10,USD,$150\n', [], 'signs.csv, line 2: cost "$150" has a currency sign ($): a number is read alone, and its currency from the currency column\nhint: write the number without its sign (the currency comes from the currency column, or --currency); or leave the column out: --columns cost='],
    ['grouped.csv', 'symbol,quantity,currency\nAAPL,"1,00",USD\n', [], 'grouped.csv, line 2: quantity "1,00" is not a decimal number: its thousands are not grouped in threes'],
    ['utf16.csv', 'S\0y\0m\0', [], 'utf16.csv, line 1: holds a NUL character: it may be UTF-16 without a byte-order mark\nhint: --encoding utf-16le (or utf-16be) reads UTF-16 without a byte-order mark'],
  ])('%s: exit 2, naming it', async (name, text, args, message) => {
    const result = await run([file(name, text), '--base', 'USD', ...args]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`error: ${fixture.dir}/${message}`);
    expect(log).toEqual([]);
  });
});

describe('--columns, --decimal-comma, --encoding', () => {
  it('a header holding , or = in double quotes, a quote in it doubled; fields in any case', async () => {
    const text = 'Ticker,"Cost, avg","a=""b""",Qty,Currency\nAAPL,150,x,10,USD\n';
    const result = await run([file('quoted.csv', text), '--base', 'USD', '--columns', 'COST="Cost, avg",symbol=ticker', '--json', '--fields', 'symbol,cost']);
    expect(result.code).toBe(0);
    expect(exactJson(result.stdout).positions).toEqual([{ symbol: 'AAPL', cost: '150' }]);
    expect(said(result.stderr)).toBe('warning: ignored columns: a="b"\n');
    const mapped = await run([file('quoted.csv', text), '--base', 'USD', '--columns', 'cost="a=""b""",symbol=Ticker']);
    expect(mapped.code).toBe(2);
    expect(mapped.stderr).toContain('quoted.csv, line 2: cost "x" is not a decimal number\n');
  });

  it.each([
    ['price=Price', '--columns "price=Price": "price" is not one of mkt\'s fields\nhint: the fields are symbol, quantity, currency, cost, cost_total: e.g. --columns \'symbol=Ticker,quantity=Shares,cost=Avg Cost\''],
    ['symbol', '--columns "symbol": "symbol" is not FIELD=HEADER'],
    ['symbol=Ticker,', '--columns "symbol=Ticker,": "" is not FIELD=HEADER'],
    ['cost="Avg', '--columns "cost=\\"Avg": the quoted header of cost is never closed'],
    ['cost="Avg"x', '--columns "cost=\\"Avg\\"x": text follows the quoted header of cost; a quote inside it is written twice ("")'],
    ['cost=a=b', '--columns "cost=a=b": the header of cost holds =: write it in double quotes, cost="a=b"'],
    ['cost=A,Cost=B', '--columns "cost=A,Cost=B": maps cost twice'],
    ['cost=Cost Basis,cost_total=cost  basis', '--columns "cost=Cost Basis,cost_total=cost  basis": maps both cost and cost_total to "cost  basis"; a column holds one field'],
    ['', '--columns "": names no column'],
  ])('--columns %j: exit 2 before the file is read', async (columns, message) => {
    const result = await run(['/nonexistent/positions.csv', '--base', 'USD', '--columns', columns]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`^error: ${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  });

  it('a --columns header the file does not have: exit 2, naming it and the header there is', async () => {
    const positions = file('p.csv', 'symbol,quantity,currency\nAAPL,1,USD\n');
    const result = await run([positions, '--base', 'USD', '--columns', 'cost=Avg Cost']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`error: ${positions}, line 1: the header has no column "avg cost", which columns maps to cost; it has "symbol", "quantity", "currency"\nhint: --columns cost=HEADER says which column holds the cost, HEADER as the file's header line writes it, in any case\n`);
  });

  it('--no-decimal-comma: a ; file that writes decimal points', async () => {
    const result = await run([file('points.csv', 'symbol;quantity;currency\nAAPL;1.250;USD\nKO;"2,000";USD\n'), '--base', 'USD', '--no-decimal-comma', '--json', '--fields', 'symbol,quantity']);
    expect(result.code).toBe(0);
    expect(exactJson(result.stdout).positions).toEqual([{ symbol: 'AAPL', quantity: '1.250' }, { symbol: 'KO', quantity: '2000' }]);
  });

  it('an --encoding the platform does not know: exit 2 naming it', async () => {
    const result = await run([file('p.csv', 'symbol,quantity,currency\nAAPL,1,USD\n'), '--base', 'USD', '--encoding', 'klingon']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('error: --encoding "klingon" is not an encoding mkt can read\nhint: --encoding takes a label of the WHATWG Encoding standard: utf-8, utf-16le, cp1252 (Excel on Windows), latin1, iso-8859-15, shift_jis...\n');
  });

  it('a watch says what it ignored and skipped once, before its first poll', async () => {
    let sleeps = 0;
    const result = await run([file('positions.csv', SCHWAB), '--base', 'USD', '--currency', 'USD', '--watch', '--count', '3', '--interval', '1s', '--format', 'csv', '--fields', 'row,value_base'], {
      // Each wait moves the sandbox's clock instead of waiting.
      sleep: async (ms) => {
        if (++sleeps > 10) throw new Error('the watch did not stop');
        fixture.sb.clock.advance(ms);
      },
    });
    expect(result.code).toBe(0);
    expect(result.stdout.split('\r\n').filter((line) => line.startsWith('total_base,'))).toHaveLength(3);
    expect(result.stderr.match(/warning: skipped 2 lines before the header/g)).toHaveLength(1);
    expect(result.stderr.match(/warning: ignored columns/g)).toHaveLength(1);
  });
});

describe("the README's export example", () => {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('### `mkt value`\n');
  const section = readme.slice(start, readme.indexOf('\n### ', start + 1));
  const example = /```sh\n\$ cat positions\.csv\n([\s\S]*?)\$ mkt (value [^\n]*)\n([\s\S]*?)```/.exec(section);

  it('prints what the README shows, warnings first, at the sandbox epoch; each figure the test\'s own', async () => {
    expect(example).not.toBeNull();
    fixture.sb.clock.set(TEST_EPOCH);
    const positions = file('positions.csv', example![1]!);
    const argv = example![2]!.split(' ').slice(1).map((word) => (word === 'positions.csv' ? positions : word));
    const result = await run(argv);
    expect(result.code).toBe(0);
    const shown = `${result.stderr}${result.stdout.replaceAll('\r\n', '\n')}`;
    if (process.env.MKT_PRINT_README_VALUE) process.stderr.write(shown);
    expect(shown).toBe(example![3]);
    const mid = await mids(['AAPL', 'MSFT', 'SPY']);
    const values = [mul(mid('AAPL'), '100'), mul(mid('MSFT'), '1250'), mul(mid('SPY'), '-20')];
    expect(result.stdout.split('\r\n').slice(1, 6)).toEqual([`position,AAPL,100,${values[0]}`, `position,MSFT,1250,${values[1]}`, `position,SPY,-20,${values[2]}`, `total,,,${sum(values)}`, `total_base,,,${sum(values)}`]);
  });
});
