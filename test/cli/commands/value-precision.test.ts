// mkt value on the book of issue 34, served by a purpose-built server with the mids: the
// figures exact, rounded once where they are written (--precision, MKT_PRECISION, the profile), the
// table people can read (grouped, minor units, 120 columns, as of, the rows that do not add up), the
// JSON document saying its precision; quotes that cannot be right valued as nothing; checks decided on
// the exact figures. Every expected figure is the test's own fractions (decimal-oracle.ts), rounded here.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'lossless-json';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Quote } from '../../../src/api/index.js';
import { runCli, tempDir, type TestDepsOptions } from '../../helpers/cli.js';
import { fullText, rat, ratDiv, ratMul, ratSum, roundPlaces, type Rat } from '../../helpers/decimal-oracle.js';
import { sendTheseQuotes, useServers } from '../../helpers/fault-server.js';
import { MAX_POSITIONS } from '../../../src/shared/limits.js';

const AT = '2026-11-29T14:30:15Z';
const NOW = Date.parse('2026-11-29T14:30:20Z');
const q = (symbol: string, mid: string, bid = mid, ask = mid): Quote => ({ symbol, bid, ask, mid, timestamp: AT });
const MIDS: Record<string, string> = {
  EURUSD: '1.084165', GBPUSD: '1.271515', USDJPY: '151.4215', USDCHF: '0.881215', EURJPY: '164.212',
  AAPL: '227.12', VOD: '72.36', SAP: '201.50', TOYOTA: '2877', NESN: '96.14', PENNY: '0.30',
};
const QUOTES = Object.entries(MIDS).map(([symbol, mid]) => q(symbol, mid));
const BOOK = [
  'symbol,quantity,currency,cost',
  'AAPL,150,USD,180.25', 'AAPL,-20,USD,230.00', 'VOD,10000,GBX,70.10', 'SAP,35.5,EUR,150',
  'TOYOTA,300,JPY,2500', 'NESN,12,CHF,', 'PENNY,0.1,USD,', 'EUR,2500.75,EUR,',
].join('\n');

// The test's own arithmetic: each value in its currency, each currency's exact rate to USD.
const ONE: Rat = { n: 1n, d: 1n };
const VALUES = ['34068.00', '-4542.40', '723600.00', '7153.250', '863100', '1153.68', '0.030', '2500.75'];
const CURRENCIES = ['USD', 'USD', 'GBX', 'EUR', 'JPY', 'CHF', 'USD', 'EUR'];
const TO_USD: Record<string, Rat> = {
  USD: ONE, GBX: ratMul(rat(MIDS.GBPUSD!), rat('0.01')), EUR: rat(MIDS.EURUSD!), JPY: ratDiv(ONE, rat(MIDS.USDJPY!)), CHF: ratDiv(ONE, rat(MIDS.USDCHF!)),
};
const IN_USD = VALUES.map((value, i) => ratMul(rat(value), TO_USD[CURRENCIES[i]!]!));
const TOTAL_USD = ratSum(IN_USD);

const servers = useServers();
let url = '';
let dir = '';
let book = '';
let serve: readonly Quote[] = QUOTES;
let requests = 0;
// The servers close after each test (useServers): each test starts its own.
beforeEach(async () => {
  requests = 0;
  url = (await servers.start((req, res) => {
    requests++;
    sendTheseQuotes(req, res, serve);
  })).url;
});
beforeAll(() => {
  dir = tempDir('mkt-value-precision-');
  book = path.join(dir, 'book.csv');
  fs.writeFileSync(book, BOOK);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function run(argv: string[], options: TestDepsOptions & { quotes?: readonly Quote[] } = {}) {
  serve = options.quotes ?? QUOTES;
  return runCli(['value', ...argv], { now: () => NOW, ...options, env: { MKT_BASE_URL: url, MKT_TOKEN: 'tok', MKT_ORG: 'org_demo', ...options.env } });
}

const exactJson = (text: string) => parse(text, null, (number: string) => number) as Record<string, unknown>;

describe('the book of issue 34 in USD', () => {
  it('the table: whole yen and pence, cents, grouped, fits 120 columns, says when the prices are from and that the rows add up to a cent less', async () => {
    const result = await run([book, '--base', 'USD', '--format', 'table']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    // The boxes fit 120 columns (the lines of words below them wrap on a terminal).
    expect(Math.max(...lines.filter((line) => /^[┌│├└]/.test(line)).map((line) => [...line].length))).toBeLessThanOrEqual(120);
    expect(result.stdout).toContain('┌');
    const rows = lines.filter((line) => line.startsWith('│ ') && !/│ (Symbol|Total) /.test(line));
    const cells = rows.map((line) => line.split('│').slice(1, -1).map((cell) => cell.trim()));
    // Each value in USD: the exact value, rounded once to cents, grouped.
    const grouped = (text: string) => text.replace(/^(-?\d+)/, (whole) => whole.replace(/\B(?=(\d{3})+$)/g, ','));
    expect(cells.slice(0, 8).map((row) => row[5])).toEqual(IN_USD.map((value) => grouped(roundPlaces(value, 2))));
    // TOYOTA's value in whole yen, VOD's in whole pence.
    expect(cells[4]!.slice(0, 5)).toEqual(['TOYOTA', '300', 'JPY', '2,877', '863,100']);
    expect(cells[2]![4]).toBe('723,600');
    const all = cells.find((row) => row[0] === 'all, in USD')!;
    expect(all[3]).toBe(grouped(roundPlaces(TOTAL_USD, 2)));
    expect(all[3]).toBe('56,202.02');
    // The rounded rows add up to 56,202.01: said below the tables.
    const rowSum = ratSum(IN_USD.map((value) => rat(roundPlaces(value, 2))));
    expect(roundPlaces(rowSum, 2)).toBe('56202.01');
    expect(result.stdout).toContain('The Value USD rows add up to 56,202.01; the total, 56,202.02 USD, is the exact sum rounded once (half-even), not a sum of rounded rows.');
    expect(result.stdout).toContain(`Prices as of ${AT} (the oldest quote used).`);
    // Rates at 10 significant digits: CHF's inverse, rounded from the exact rate.
    expect(cells.find((row) => row[0] === 'CHF')![1]).toBe(fullText(TO_USD.CHF!, 0, 10));
  });

  it('the table at --precision full: every value\'s exact digits, the rates still at 10 significant digits', async () => {
    const result = await run([book, '--base', 'USD', '--format', 'table', '--precision', 'full']);
    expect(result.code).toBe(0);
    const cells = result.stdout.split('\n').filter((line) => line.startsWith('│ ')).map((line) => line.split('│').slice(1, -1).map((cell) => cell.trim()));
    expect(cells.find((row) => row[0] === 'CHF')![1]).toBe(fullText(TO_USD.CHF!, 0, 10));
    expect(cells.find((row) => row[0] === 'JPY')![1]).toBe(fullText(TO_USD.JPY!, 0, 10));
  });

  it('json at full by default: every digit right, 34 of them where the exact value has more', async () => {
    const result = await run([book, '--base', 'USD', '--json']);
    expect(result.stderr).toBe('');
    const document = exactJson(result.stdout);
    expect(document).toMatchObject({ precision: 'full', as_of: AT, incomplete: false, unusable: [] });
    expect(document.total_base).toBe(fullText(TOTAL_USD, 3));
    expect(document.total_base).toBe('56202.01703141762564013775840875513');
    // The old rounding (the rate to 34 digits, then the product) printed 56202.01703141762564013775840875512993798.
    expect(roundPlaces(TOTAL_USD, 38)).toBe('56202.01703141762564013775840875512943909641'.slice(0, 44));
    const positions = document.positions as Array<Record<string, string | null>>;
    expect(positions.map((p) => p.value_base)).toEqual(IN_USD.map((value, i) => fullText(value, VALUES[i]!.split('.')[1]?.length ?? 0)));
    expect(positions.map((p) => p.timestamp)).toEqual([AT, AT, AT, AT, AT, AT, AT, null]);
  });

  it.each([
    ['--precision minor', ['--precision', 'minor'], {}, 'minor', roundPlaces(TOTAL_USD, 2)],
    ['--precision 4', ['--precision', '4'], {}, '4', roundPlaces(TOTAL_USD, 4)],
    ['--precision 0', ['--precision', '0'], {}, '0', roundPlaces(TOTAL_USD, 0)],
    ['--precision 007, leading zeros read as every number flag reads them', ['--precision', '007'], {}, '7', roundPlaces(TOTAL_USD, 7)],
    ['MKT_PRECISION=02', [], { MKT_PRECISION: '02' }, '2', roundPlaces(TOTAL_USD, 2)],
    ['MKT_PRECISION=minor', [], { MKT_PRECISION: 'minor' }, 'minor', roundPlaces(TOTAL_USD, 2)],
    ['--precision over MKT_PRECISION', ['--precision', 'full'], { MKT_PRECISION: 'minor' }, 'full', fullText(TOTAL_USD, 3)],
  ])('%s', async (_name, args, env, precision, total) => {
    const result = await run([book, '--base', 'USD', '--json', ...args], { env });
    expect(result.stderr).toBe('');
    const document = exactJson(result.stdout);
    expect(String(document.precision)).toBe(precision);
    expect(document.total_base).toBe(total);
  });

  it('the profile\'s precision, set with mkt config set precision', async () => {
    const configDir = path.join(dir, 'config');
    const set = await runCli(['config', 'set', 'precision', '3'], { configDir });
    expect(set.code).toBe(0);
    const result = await run([book, '--base', 'USD', '--format', 'csv', '--fields', 'row,value_base'], { configDir });
    expect(result.stdout.trimEnd().split('\r\n').at(-1)).toBe(`total_base,${roundPlaces(TOTAL_USD, 3)}`);
    const refused = await runCli(['config', 'set', 'precision', 'cents'], { configDir });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('precision must be minor, full or a number of decimal places from 0 to 34, not "cents"');
  });

  it.each([
    ['--precision 35', ['--precision', '35'], {}, /--precision: unknown precision "35"/],
    ['--precision 0035', ['--precision', '0035'], {}, /--precision: unknown precision "0035"/],
    ['--precision +2', ['--precision', '+2'], {}, /--precision: unknown precision "\+2"/],
    ['--precision 2.5', ['--precision', '2.5'], {}, /--precision: unknown precision "2\.5"/],
    ['--precision cents', ['--precision', 'cents'], {}, /--precision: unknown precision "cents"\nhint: the precisions are minor, full: /],
    ['MKT_PRECISION=-1', [], { MKT_PRECISION: '-1' }, /MKT_PRECISION must be minor, full or 0 to 34, not "-1"/],
  ])('refuses %s with exit 2, before any request', async (_name, args, env, message) => {
    const result = await run([book, '--base', 'USD', ...args], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe('');
  });

  it('in JPY: 8,510,639 yen in the table; the data formats at full', async () => {
    const toJpy: Record<string, Rat> = {
      USD: rat(MIDS.USDJPY!), GBX: ratMul(ratMul(rat(MIDS.GBPUSD!), rat(MIDS.USDJPY!)), rat('0.01')), EUR: rat(MIDS.EURJPY!), JPY: ONE, CHF: ratDiv(rat(MIDS.USDJPY!), rat(MIDS.USDCHF!)),
    };
    const total = ratSum(VALUES.map((value, i) => ratMul(rat(value), toJpy[CURRENCIES[i]!]!)));
    const table = await run([book, '--base', 'JPY', '--format', 'table']);
    expect(table.stdout).toMatch(/│ all, in JPY │[^\n]* 8,510,639 │/);
    expect(roundPlaces(total, 0)).toBe('8510639');
    const csv = await run([book, '--base', 'JPY', '--format', 'csv', '--fields', 'row,currency,value_base']);
    expect(csv.stdout.trimEnd().split('\r\n').at(-1)).toBe(`total_base,JPY,${fullText(total, 3)}`);
  });

  it('a check decides on the exact total, and shows it at full when it fails', async () => {
    // 56202.0170314176256401377584087551294… is above …512, below …513: only the exact value tells.
    const above = await run([book, '--base', 'USD', '--format', 'csv', '--check', 'total_base > 56202.017031417625640137758408755129']);
    expect(above.code).toBe(0);
    const below = await run([book, '--base', 'USD', '--format', 'csv', '--check', 'total_base > 56202.01703141762564013775840875513']);
    expect(below.code).toBe(8);
    expect(below.stderr).toContain('check failed: total_base is 56202.01703141762564013775840875513, not > 56202.01703141762564013775840875513');
    // At minor, a check on total_base still sees the exact value.
    const minor = await run([book, '--base', 'USD', '--format', 'table', '--check', 'total_base < 56202.02']);
    expect(minor.code).toBe(0);
  });
});

describe('quotes that cannot be right value nothing, as mkt quotes --strict calls them', () => {
  it('a negative AAPL (bid -100, ask -99): unusable, named, the totals incomplete; --strict exits 3', async () => {
    const quotes = [...QUOTES.filter((quote) => quote.symbol !== 'AAPL'), q('AAPL', '-99.5', '-100', '-99')];
    const result = await run([book, '--base', 'USD', '--json'], { quotes });
    expect(result.code).toBe(0);
    const document = exactJson(result.stdout);
    const positions = document.positions as Array<Record<string, unknown>>;
    expect(positions[0]).toMatchObject({ symbol: 'AAPL', status: 'unusable', value: null, value_base: null, reason: 'the quote of AAPL cannot be right: bid is negative, ask is negative, mid is negative' });
    expect(document).toMatchObject({ incomplete: true, unusable: [{ symbol: 'AAPL', problems: ['bid is negative', 'ask is negative', 'mid is negative'] }] });
    expect(result.stderr).toContain('"code":"unusable_quotes"');
    const strict = await run([book, '--base', 'USD', '--format', 'csv', '--strict'], { quotes });
    expect(strict.code).toBe(3);
    expect(strict.stderr).toContain('1 quote that cannot be right, so not used: AAPL (bid is negative, ask is negative, mid is negative)');
    const quotesStrict = await runCli(['quotes', 'AAPL', '--strict', '--format', 'csv'], { now: () => NOW, env: { MKT_BASE_URL: url, MKT_TOKEN: 'tok', MKT_ORG: 'org_demo' } });
    expect(quotesStrict.code).toBe(3);
  });

  it('a mid outside bid..ask; EURUSD sent twice at two prices: unusable; sent twice alike: one quote', async () => {
    const outside = [...QUOTES.filter((quote) => quote.symbol !== 'SAP'), q('SAP', '210', '201', '202')];
    const sap = exactJson((await run([book, '--base', 'USD', '--json'], { quotes: outside })).stdout);
    expect((sap.positions as Array<Record<string, unknown>>)[3]).toMatchObject({ status: 'unusable', reason: 'the quote of SAP cannot be right: mid is outside bid..ask' });
    const twice = exactJson((await run([book, '--base', 'USD', '--json'], { quotes: [...QUOTES, q('EURUSD', '1.084166')] })).stdout);
    const eur = (twice.positions as Array<Record<string, unknown>>).filter((p) => p.currency === 'EUR');
    expect(eur.map((p) => [p.status, p.reason])).toEqual([
      ['unusable', 'the quote of EURUSD, for the rate from EUR to USD, cannot be right: sent twice at different prices (mid 1.084165 and 1.084166)'],
      ['unusable', 'the quote of EURUSD, for the rate from EUR to USD, cannot be right: sent twice at different prices (mid 1.084165 and 1.084166)'],
    ]);
    const alike = exactJson((await run([book, '--base', 'USD', '--json'], { quotes: [...QUOTES, q('EURUSD', '1.0841650')] })).stdout);
    expect(alike).toMatchObject({ incomplete: false, total_base: fullText(TOTAL_USD, 3) });
  });

  it('a price longer than mkt reads, or 1e-999: unusable, named; never an internal error', async () => {
    const long = `227.${'1'.repeat(150)}`;
    for (const [price, problem] of [[long, 'has 153 significant digits; at most 100 are read'], ['1e-999', 'is out of range']] as const) {
      const result = await run([book, '--base', 'USD', '--json'], { quotes: [...QUOTES.filter((quote) => quote.symbol !== 'AAPL'), q('AAPL', price)] });
      expect(result.code).toBe(0);
      const unusable = exactJson(result.stdout).unusable as Array<{ symbol: string; problems: string[] }>;
      expect(unusable).toEqual([{ symbol: 'AAPL', problems: [`bid ${problem}`, `ask ${problem}`, `mid ${problem}`] }]);
    }
  });
});

describe(`at most ${MAX_POSITIONS.toLocaleString('en-US')} positions, the rest refused before any request`, () => {
  const write = (name: string, text: string) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    return file;
  };
  const most = MAX_POSITIONS.toLocaleString('en-US');

  it('one position more than that, read: exit 2, saying how many', async () => {
    const file = write('over.csv', `symbol,quantity,currency\n${'USD,1,USD\n'.repeat(MAX_POSITIONS + 1)}`);
    const result = await run([file, '--base', 'USD', '--format', 'csv']);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toContain(`error: ${file} holds ${(MAX_POSITIONS + 1).toLocaleString('en-US')} positions; mkt value takes at most ${most}\n`);
    expect(requests).toBe(0);
  });

  it('more lines than that and a thousand, or as JSON more objects in its arrays: refused before it is parsed, saying what was counted', async () => {
    const lines = write('lines.csv', `symbol,quantity,currency\n${'\n'.repeat(MAX_POSITIONS + 1000)}USD,1,USD\n`);
    const byLines = await run([lines, '--base', 'USD']);
    expect(byLines).toMatchObject({ code: 2, stdout: '' });
    expect(byLines.stderr).toContain(`has more than ${(MAX_POSITIONS + 1000).toLocaleString('en-US')} lines, and mkt value takes at most ${most} positions`);
    const objects = write('objects.json', `[${Array.from({ length: MAX_POSITIONS + 1 }, () => '{"symbol":"USD","quantity":"1"}').join(',')}]`);
    const byObjects = await run([objects, '--base', 'USD', '--currency', 'USD']);
    expect(byObjects).toMatchObject({ code: 2, stdout: '' });
    expect(byObjects.stderr).toContain(`has more than ${most} objects in its arrays, and mkt value takes at most ${most} positions`);
    expect(requests).toBe(0);
  });

  it('lines counted to the one: as many as that and a thousand, read; one more, refused', async () => {
    const lines = MAX_POSITIONS + 1000;
    // The header's line, blank lines, and a position's: `lines` line ends in all.
    const within = write('within.csv', `symbol,quantity,currency\n${'\n'.repeat(lines - 2)}USD,1,USD\n`);
    const read = await run([within, '--base', 'USD', '--format', 'csv', '--fields', 'row,value_base']);
    expect(read.code).toBe(0);
    expect(read.stdout.trimEnd().split('\r\n').at(-1)).toBe('total_base,1');
    const over = write('over-by-one.csv', `symbol,quantity,currency\n${'\n'.repeat(lines - 1)}USD,1,USD\n`);
    const refused = await run([over, '--base', 'USD']);
    expect(refused).toMatchObject({ code: 2, stdout: '' });
    expect(refused.stderr).toContain(`has more than ${lines.toLocaleString('en-US')} lines`);
  });

  it('an object a position holds is not counted as one: more braces than the limit, fewer positions, valued', async () => {
    const count = Math.ceil((MAX_POSITIONS + 1) / 2);
    const nested = write('nested.json', `[${Array.from({ length: count }, () => '{"symbol":"USD","quantity":"1","currency":"USD","note":{"from":"a broker"}}').join(',\n')}]`);
    const result = await run([nested, '--base', 'USD', '--format', 'csv', '--fields', 'row,value_base']);
    expect(result.code).toBe(0);
    expect(result.stdout.trimEnd().split('\r\n').at(-1)).toBe(`total_base,${count}`);
  });
});

describe('no single number makes a valuation slow or ends in an internal error', () => {
  it('a 50,000-digit quantity and cost (a 100 KB file that took 8 s): exit 2 at once, naming the line and both, before any request', async () => {
    const huge = path.join(dir, 'huge.csv');
    fs.writeFileSync(huge, `symbol,quantity,currency,cost\nAAPL,${'7'.repeat(50_000)},USD,${'3'.repeat(50_000)}\n`);
    const result = await run([huge, '--base', 'USD', '--json']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    const error = (JSON.parse(result.stderr.trim().split('\n').at(-1)!) as { error: { problems: Array<{ line: number; field: string; message: string }> } }).error;
    expect(error.problems.map((problem) => [problem.line, problem.field])).toEqual([[2, 'quantity'], [2, 'cost']]);
    expect(error.problems[0]!.message).toContain('has 50000 significant digits; at most 100 are read');
  });

  it('a quantity of 1,000,001 decimals (big.js: "Invalid decimal places"), and 1e-1000000: exit 2, naming them', async () => {
    for (const quantity of [`0.${'1'.repeat(1_000_001)}`, '1e-1000000']) {
      const file = path.join(dir, 'tiny.csv');
      fs.writeFileSync(file, `symbol,quantity,currency\nUSD,${quantity},USD\n`);
      const result = await run([file, '--base', 'USD']);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/line 2: quantity ".*" (has 1000001 significant digits|has 1000000 decimal places); at most 100 are read/);
      expect(result.stderr).not.toContain('internal error');
    }
  });

  it('the largest numbers read, 100 significant digits at the bounds, value at an inverse rate at full and minor', async () => {
    const file = path.join(dir, 'bounds.csv');
    const quantity = `${'9'.repeat(50)}.${'9'.repeat(50)}`;
    fs.writeFileSync(file, `symbol,quantity,currency,cost\nTOYOTA,${quantity},JPY,${'1'.repeat(100)}\nUSD,1e-100,USD\n`);
    const result = await run([file, '--base', 'USD', '--json']);
    expect(result.code).toBe(0);
    const value = ratMul(ratMul(rat(quantity), rat(MIDS.TOYOTA!)), TO_USD.JPY!);
    expect((exactJson(result.stdout).positions as Array<Record<string, string>>)[0]!.value_base).toBe(fullText(value, 50));
  });
});
