// mkt value --format ledger and --format beancount: the prices a valuation used, as price directives
// for the books people keep, proved in their own tools. hledger and beancount come from Debian (.ci/run
// installs them); where they are absent the test that runs them says why it skips.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Quote } from '../../../src/api/index.js';
import { runCli, tempDir, type TestDepsOptions } from '../../helpers/cli.js';
import { rat, ratMul, ratSum, roundPlaces, type Rat } from '../../helpers/decimal-oracle.js';
import { sendTheseQuotes, useServers } from '../../helpers/fault-server.js';

const AT = '2026-11-29T16:30:15.250+02:00';
const NOW = Date.parse('2026-11-29T14:30:20Z');
const q = (symbol: string, mid: string, bid = mid, ask = mid): Quote => ({ symbol, bid, ask, mid, timestamp: AT });
const QUOTES = [
  q('AAPL', '227.12', '227.10', '227.14'), q('VOD.L', '72.36'), q('7203.T', '2877'), q('SAP', '201.50'), q('BAD', '-1'),
  q('EURUSD', '1.084165'), q('GBPUSD', '1.271515'), q('USDJPY', '151.4215'),
];
const BOOK = 'symbol,quantity,currency\nAAPL,150,USD\nAAPL,-20,USD\nVOD.L,10000,GBp\n7203.T,300,JPY\nSAP,35.5,EUR\nEUR,2500.75,EUR\nBAD,1,USD\n';

const servers = useServers();
let url = '';
let dir = '';
let book = '';
beforeEach(async () => {
  url = (await servers.start((req, res) => sendTheseQuotes(req, res, QUOTES))).url;
});
beforeAll(() => {
  dir = tempDir('mkt-value-prices-');
  book = path.join(dir, 'book.csv');
  fs.writeFileSync(book, BOOK);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const run = (argv: string[], options: TestDepsOptions = {}) =>
  runCli(['value', ...argv], { now: () => NOW, ...options, env: { MKT_BASE_URL: url, MKT_TOKEN: 'tok', MKT_ORG: 'org_demo', ...options.env } });

describe('mkt value --format ledger', () => {
  it('writes a P directive per instrument\'s mid, per pair as the service sent it, and per minor unit; in UTC; quoted names', async () => {
    const result = await run([book, '--base', 'USD', '--format', 'ledger', '--price', 'side']);
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')).toEqual([
      // Mids, whatever --price says; 16:30:15+02:00 is 14:30:15 UTC; a name not all letters in quotes.
      'P 2026-11-29 14:30:15 AAPL 227.12 USD',
      'P 2026-11-29 14:30:15 "VOD.L" 72.36 GBp',
      'P 2026-11-29 14:30:15 "7203.T" 2877 JPY',
      'P 2026-11-29 14:30:15 SAP 201.50 EUR',
      'P 2026-11-29 14:30:15 GBP 1.271515 USD',
      'P 2026-11-29 14:30:15 USD 151.4215 JPY',
      'P 2026-11-29 14:30:15 EUR 1.084165 USD',
      'P 2026-11-29 14:30:15 GBp 0.01 GBP',
      '',
    ]);
    // BAD's quote cannot be right: no price for it, and said on stderr.
    expect(result.stdout).not.toContain('BAD');
    expect(result.stderr).toContain('1 quote that cannot be right, so not used: BAD');
  });

  it('names a symbol with a double quote apart from the one without it, which ledger would read as the same, and says so', async () => {
    url = (await servers.start((req, res) => sendTheseQuotes(req, res, [q('AB', '7'), q('A"B', '1'), q('A\'B', '3')]))).url;
    const result = await run(['-', '--base', 'USD', '--format', 'ledger'], { stdin: 'symbol,quantity,currency\nAB,1,USD\n"A""B",1,USD\nA\'B,1,USD\n' });
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')).toEqual([
      '; A"B is written "A\'B-2": ledger cannot name it',
      'P 2026-11-29 14:30:15 AB 7 USD',
      'P 2026-11-29 14:30:15 "A\'B-2" 1 USD',
      'P 2026-11-29 14:30:15 "A\'B" 3 USD',
      '',
    ]);
  });

  it.each([
    ['ledger', 'P 2026-11-29 14:30:20 GBX 0.01 GBP\n'],
    ['beancount', '2026-11-29 price GBX 0.01 GBP\n'],
  ])('dates a minor unit\'s factor at the run when no quote dates it (%s, a book of cash)', async (format, expected) => {
    const result = await run(['-', '--base', 'GBP', '--format', format], { stdin: 'symbol,quantity,currency\nGBX,100,GBX\n' });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(expected);
  });

  it('is the flag\'s alone: MKT_FORMAT and the profile never select it, for mkt value or any other command', async () => {
    const env = await run([book, '--base', 'USD'], { env: { MKT_FORMAT: 'ledger' } });
    expect(env.code).toBe(2);
    expect(env.stderr).toContain('MKT_FORMAT must be one of table, tsv, json, ndjson, csv, not "ledger"');
    const quotes = await runCli(['quotes', 'AAPL', '--format', 'ledger'], { env: { MKT_BASE_URL: url, MKT_TOKEN: 'tok', MKT_ORG: 'org_demo' } });
    expect(quotes.code).toBe(2);
    const set = await runCli(['config', 'set', 'format', 'beancount']);
    expect(set.code).toBe(2);
  });

  it.each([
    ['--watch', ['--watch']], ['--fields', ['--fields', 'symbol']], ['--json', ['--json']],
  ])('refuses %s with it: the prices of one valuation', async (_name, extra) => {
    const result = await run([book, '--base', 'USD', '--format', 'ledger', ...extra]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--format ledger writes the prices one valuation used');
  });
});

describe('mkt value --format beancount', () => {
  it('writes price entries by date, each commodity also in the base at full, and names beancount cannot take mapped by one rule', async () => {
    const result = await run([book, '--base', 'USD', '--format', 'beancount']);
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines.slice(0, 2)).toEqual(['; GBp is written XGBP: beancount cannot name it', '; 7203.T is written X7203.T: beancount cannot name it']);
    expect(lines).toContain('2026-11-29 price AAPL 227.12 USD');
    expect(lines).toContain('2026-11-29 price VOD.L 72.36 XGBP');
    expect(lines).toContain('2026-11-29 price X7203.T 2877 JPY');
    expect(lines).toContain('2026-11-29 price XGBP 0.01 GBP');
    // In the base: a penny is GBPUSD / 100; a share of 7203.T is 2877 / USDJPY, at full (34 digits).
    expect(lines).toContain(`2026-11-29 price XGBP 0.01271515 USD`);
    expect(lines).toContain('2026-11-29 price X7203.T 18.99994386530314387322804225291653 USD');
    expect(lines.filter((line) => !line.startsWith(';')).every((line) => /^\d{4}-\d\d-\d\d price [A-Z][A-Z0-9'._-]{0,22}[A-Z0-9] \S+ [A-Z][A-Z0-9'._-]{0,22}[A-Z0-9]$/.test(line))).toBe(true);
  });
});

/** Whether a Debian tool is on this machine, and if not, why its test skips. */
function tool(command: string): string | undefined {
  const found = spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' });
  return found.status === 0 ? undefined : `${command} is not installed here (Debian: apt-get install ${command === 'bean-check' ? 'beancount' : command}); .ci/run installs it`;
}

describe('the prices in the books\' own tools', () => {
  // The positions as a journal of the test's own; the prices from mkt. mkt's total at minor, and the test's own.
  const positions = [['AAPL', '150'], ['AAPL', '-20'], ['"VOD.L"', '10000'], ['"7203.T"', '300'], ['SAP', '35.5'], ['EUR', '2500.75']];
  const inUsd: Rat[] = [
    ratMul(rat('227.12'), rat('130')), ratMul(ratMul(rat('72.36'), rat('10000')), ratMul(rat('0.01'), rat('1.271515'))),
    { n: 2877n * 300n * 10_000n, d: 1_514_215n }, ratMul(ratMul(rat('201.50'), rat('35.5')), rat('1.084165')), ratMul(rat('2500.75'), rat('1.084165')),
  ];
  const total = roundPlaces(ratSum(inUsd), 2);

  it.skipIf(tool('hledger') !== undefined)(`hledger bal -X USD values the book to the cent of mkt's total ${tool('hledger') ?? ''}`, async () => {
    const prices = await run([book, '--base', 'USD', '--format', 'ledger']);
    const mine = await run([book, '--base', 'USD', '--format', 'csv', '--precision', 'minor', '--fields', 'row,value_base']);
    const mktTotal = mine.stdout.trimEnd().split('\r\n').at(-1)!.split(',')[1]!;
    expect(mktTotal).toBe(total);
    const journal = path.join(dir, 'book.journal');
    fs.writeFileSync(journal, `${prices.stdout}\n2026-11-29 book\n${positions.map(([symbol, quantity]) => `    assets  ${quantity} ${symbol}\n`).join('')}    equity\n`);
    const out = execFileSync('hledger', ['-f', journal, 'bal', 'assets', '-X', 'USD', '-e', '2026-11-30', '--no-total'], { encoding: 'utf8' });
    const [amount] = out.trim().split(/\s+/);
    expect(roundPlaces(rat(amount!), 2)).toBe(mktTotal);
  });

  it.skipIf(tool('bean-check') !== undefined)(`beancount converts the book to the cent of mkt's total ${tool('bean-check') ?? ''}`, async () => {
    const prices = await run([book, '--base', 'USD', '--format', 'beancount']);
    const ledger = path.join(dir, 'book.beancount');
    const names: Record<string, string> = { '"VOD.L"': 'VOD.L', '"7203.T"': 'X7203.T' };
    fs.writeFileSync(ledger, [
      'option "operating_currency" "USD"', prices.stdout, '2026-01-01 open Assets:Book', '2026-01-01 open Equity:Opening',
      '2026-11-29 * "book"', ...positions.map(([symbol, quantity]) => `  Assets:Book  ${quantity} ${names[symbol!] ?? symbol}`), '  Equity:Opening', '',
    ].join('\n'));
    execFileSync('bean-check', [ledger]);
    const out = execFileSync('bean-query', ['-q', ledger, "SELECT convert(sum(position), 'USD') WHERE account = 'Assets:Book'"], { encoding: 'utf8' });
    const amount = /(-?\d+\.\d+) USD/.exec(out)![1]!;
    expect(roundPlaces(rat(amount), 2)).toBe(total);
  });
});
