// mkt value in-process against the sandbox (port 0, its clock fixed): every figure checked with the
// tests' own arithmetic on the quotes the sandbox serves (read through its quotes, apart from the
// command), in every format, with --fields, and what could not be valued said in each; the requests
// counted by the sandbox's request log.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { createClient, type Quote } from '../../../src/api/index.js';
import { INSTRUMENTS } from '../../../src/sandbox/index.js';
import { runCli, type TestDepsOptions } from '../../helpers/cli.js';
import { getToken, startTestSandbox } from '../../helpers/sandbox.js';
import { useValueSandbox } from '../../helpers/value-sandbox.js';
import { dec, fullText, mul, rat, ratDiv, ratMul, ratSum, roundPlaces, sub, sum, type Rat } from '../../helpers/decimal-oracle.js';

const fixture = useValueSandbox('mkt-value-');
const { log, file } = fixture;

const env = () => ({ MKT_BASE_URL: fixture.sb.url, MKT_TOKEN: fixture.token, MKT_ORG: 'org_demo' });
const run = (argv: string[], options: TestDepsOptions = {}) => runCli(['value', ...argv], { now: () => fixture.sb.clock.now(), ...options, env: { ...env(), ...options.env } });
const quotesRequests = () => log.filter((entry) => entry.path === '/v1/market/quotes');


const currencyOf = (symbol: string) => INSTRUMENTS.find((instrument) => instrument.symbol === symbol)!.currency;
/** Five currencies, pence among them, a short, costs, and 0.1 of AAPL at a cost of 0.30. */
const PORTFOLIO = [
  'symbol,quantity,currency,cost',
  `VOD.L,1000,${currencyOf('VOD.L')},70.25`,
  `SAP.DE,20,${currencyOf('SAP.DE')}`,
  `7203.T,100,${currencyOf('7203.T')}`,
  `RY.TO,-50,${currencyOf('RY.TO')}`,
  `AAPL,10,${currencyOf('AAPL')},150`,
  'AAPL,0.1,USD,0.30',
  'EUR,2500.75,EUR',
].join('\n');
const ROWS = PORTFOLIO.split('\n').slice(1).map((line) => {
  const [symbol, quantity, currency, cost] = line.split(',') as [string, string, string, string | undefined];
  return { symbol, quantity, currency, cost: cost === '' ? undefined : cost };
});

/** The sandbox's quotes now, read through its quotes endpoint. */
async function sandboxQuotes(symbols: string[]): Promise<Map<string, Quote>> {
  const { data } = await createClient({ baseUrl: fixture.sb.url, accessToken: fixture.token, organizationId: 'org_demo' }).getQuotes({ symbols });
  return new Map(data.map((quote) => [quote.symbol, quote]));
}

const places = (text: string) => dec(text).scale;

/** The valuation in EUR worked out here: each currency's exact rate by its route, each figure exact, by hand. */
async function expectedInEur() {
  const quotes = await sandboxQuotes(['VOD.L', 'SAP.DE', '7203.T', 'RY.TO', 'AAPL', 'EURGBP', 'EURJPY', 'USDCAD', 'EURUSD']);
  const mid = (symbol: string) => quotes.get(symbol)!.mid;
  const inverse = (text: string): Rat => ratDiv({ n: 1n, d: 1n }, rat(text));
  // GBX: pence, 1/100 of 1/EURGBP; JPY: 1/EURJPY; CAD: no pair with EUR, so 1/(USDCAD × EURUSD); USD: 1/EURUSD.
  const rates: Record<string, Rat> = {
    GBX: inverse(mul(mid('EURGBP'), '100')), EUR: { n: 1n, d: 1n }, JPY: inverse(mid('EURJPY')),
    CAD: inverse(mul(mid('USDCAD'), mid('EURUSD'))), USD: inverse(mid('EURUSD')),
  };
  return ROWS.map((row) => {
    const price = row.symbol === row.currency ? '1' : mid(row.symbol);
    const value = mul(price, row.quantity);
    const pnl = row.cost === undefined ? undefined : mul(sub(price, row.cost), row.quantity);
    const rate = rates[row.currency]!;
    return { ...row, price, value, rate, value_base: ratMul(rat(value), rate), pnl, pnl_base: pnl === undefined ? undefined : ratMul(rat(pnl), rate) };
  });
}

/** JSON with every number kept as the text mkt wrote. */
const exactJson = (text: string) => parse(text, null, (number: string) => number) as Record<string, unknown>;

describe('mkt value: a portfolio in five currencies, in EUR', () => {
  it('json: each position and the totals, by the tests\' own arithmetic, in two requests', async () => {
    const portfolio = file('portfolio.csv', PORTFOLIO);
    const result = await run([portfolio, '--base', 'EUR', '--json', '--fields', 'symbol,quantity,currency,price,value,rate,value_base,cost,pnl,pnl_base,status']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    // The instruments and direct pairs, then the legs of CAD's cross.
    expect(quotesRequests()).toHaveLength(2);
    const document = exactJson(result.stdout);
    expect(Object.keys(document)).toEqual(['base', 'price', 'precision', 'as_of', 'positions', 'total_base', 'total_pnl_base', 'incomplete', 'missing', 'no_route', 'unusable', 'totals', 'fx']);
    // JSON's default precision is full: every figure exact, or 34 significant digits.
    expect(document).toMatchObject({ base: 'EUR', price: 'mid', precision: 'full', incomplete: false, missing: [], no_route: [], unusable: [] });
    const expected = await expectedInEur();
    const positions = document.positions as Array<Record<string, string | null>>;
    expect(positions.map((p) => Object.keys(p))).toEqual(positions.map(() => ['symbol', 'quantity', 'currency', 'price', 'value', 'rate', 'value_base', 'cost', 'pnl', 'pnl_base', 'status']));
    positions.forEach((p, i) => {
      const e = expected[i]!;
      expect(p).toMatchObject({ symbol: e.symbol, quantity: e.quantity, currency: e.currency, price: e.price, value: e.value, cost: e.cost ?? null, pnl: e.pnl ?? null, status: 'ok' });
      expect(p.rate).toBe(fullText(e.rate, 0));
      expect(p.value_base).toBe(fullText(e.value_base, places(e.value)));
      if (e.pnl_base !== undefined) expect(p.pnl_base).toBe(fullText(e.pnl_base, places(e.pnl!)));
    });
    // 0.1 at a cost of 0.30: (price - 0.30) × 0.1, every place kept.
    expect(positions[5]!.pnl).toBe(mul(sub(expected[5]!.price, '0.30'), '0.1'));
    // The total is the exact total of the tests' own fractions, rounded once.
    const most = Math.max(...expected.map((e) => places(e.value)));
    expect(document.total_base).toBe(fullText(ratSum(expected.map((e) => e.value_base)), most));
    const withPnl = expected.filter((e) => e.pnl_base !== undefined);
    expect(document.total_pnl_base).toBe(fullText(ratSum(withPnl.map((e) => e.pnl_base!)), Math.max(...withPnl.map((e) => places(e.pnl!)))));
    const totals = document.totals as Array<Record<string, string>>;
    expect(totals.map((t) => t.currency)).toEqual(['GBX', 'EUR', 'JPY', 'CAD', 'USD']);
    expect(totals[4]).toMatchObject({ value: sum([positions[4]!.value!, positions[5]!.value!]), positions: '2', incomplete: false });
    expect((document.fx as Array<Record<string, string>>).map((rate) => `${rate.from} ${rate.formula}`)).toEqual(['GBP 1/EURGBP', 'JPY 1/EURJPY', 'CAD 1/(USDCAD*EURUSD)', 'USD 1/EURUSD']);
  });

  it.each(['csv', 'tsv'] as const)('%s: a line per position, then one per currency (row=total), then the whole (row=total_base)', async (format) => {
    const portfolio = file('portfolio.csv', PORTFOLIO);
    const [json, lines] = await Promise.all([run([portfolio, '--base', 'EUR', '--json']), run([portfolio, '--base', 'EUR', '--format', format])]);
    expect(lines.code).toBe(0);
    const separator = format === 'csv' ? ',' : '\t';
    const rows = lines.stdout.split(format === 'csv' ? '\r\n' : '\n').filter((line) => line !== '').map((line) => line.split(separator));
    const header = rows[0]!;
    // rate is each currency's: on request (--fields), not by default.
    expect(header).toEqual(['row', 'symbol', 'quantity', 'currency', 'price', 'value', 'value_base', 'cost', 'cost_total', 'pnl', 'pnl_base', 'status', 'timestamp', 'reason']);
    const column = (row: string[], name: string) => row[header.indexOf(name)]!;
    expect(rows.slice(1).map((row) => `${column(row, 'row')} ${column(row, 'currency')}`)).toEqual([
      ...ROWS.map((row) => `position ${row.currency}`), 'total GBX', 'total EUR', 'total JPY', 'total CAD', 'total USD', 'total_base EUR',
    ]);
    const document = exactJson(json.stdout);
    const last = rows.at(-1)!;
    // What a script reads from the last line: the same total as the JSON's, digit for digit.
    expect(column(last, 'value_base')).toBe(document.total_base);
    expect(column(last, 'pnl_base')).toBe(document.total_pnl_base);
    expect(column(last, 'status')).toBe('ok');
    const eur = rows.find((row) => column(row, 'row') === 'total' && column(row, 'currency') === 'EUR')!;
    expect(column(eur, 'value')).toBe(sum([column(rows[2]!, 'value'), '2500.75']));
  });

  it('ndjson: the same lines as objects, numbers exact, null where there is no figure', async () => {
    const result = await run([file('portfolio.csv', PORTFOLIO), '--base', 'EUR', '--format', 'ndjson']);
    const lines = result.stdout.trimEnd().split('\n').map((line) => exactJson(line));
    expect(lines).toHaveLength(ROWS.length + 6);
    expect(lines[0]).toMatchObject({ row: 'position', symbol: 'VOD.L', quantity: '1000', cost: '70.25', status: 'ok' });
    expect(lines[1]).toMatchObject({ row: 'position', symbol: 'SAP.DE', cost: null, pnl: null });
    expect(lines.at(-1)).toMatchObject({ row: 'total_base', currency: 'EUR', quantity: null, value: null, status: 'ok' });
  });

  it('table: the positions, then a total per currency and in EUR, figures aligned on the point and whole', async () => {
    const result = await run([file('portfolio.csv', PORTFOLIO), '--base', 'EUR', '--format', 'table']);
    expect(result.code).toBe(0);
    const document = exactJson((await run([file('portfolio.csv', PORTFOLIO), '--base', 'EUR', '--json'])).stdout);
    const [positions, totals] = result.stdout.split('\n\n') as [string, string];
    expect(positions).toMatch(/│ Symbol │ Quantity │ Currency │ +Price │ +Value │ +Value EUR │ +Cost │ +P&L │ +P&L EUR │/);
    for (const row of ROWS) expect(positions).toContain(`│ ${row.symbol.padEnd(6)} │`);
    // Every value in EUR in euro cents, the exact value rounded once, grouped, and its point in one column.
    const body = positions.split('\n').filter((line) => /^│ \S/.test(line) && !line.includes('Symbol'));
    const valueBase = body.map((line) => line.split('│')[6]!);
    const expected = await expectedInEur();
    const grouped = (text: string) => text.replace(/\B(?=(\d{3})+(?!\d))(?=[\d]*(\.|$))/g, ',');
    for (const [i, cell] of valueBase.entries()) expect(cell.trim()).toBe(grouped(roundPlaces(expected[i]!.value_base, 2)));
    expect(new Set(valueBase.map((cell) => cell.indexOf('.'))).size).toBe(1);
    expect(totals).toMatch(/│ Total +│ +Rate to EUR │ +Value │ +Value EUR │/);
    expect(totals).toContain(`│ all, in EUR │`);
    expect(totals).toContain(` ${grouped(roundPlaces(ratSum(expected.map((e) => e.value_base)), 2))} `);
    expect(roundPlaces(rat(document.total_base as string), 2)).toBe(roundPlaces(ratSum(expected.map((e) => e.value_base)), 2));
    expect(totals).not.toContain('incomplete');
  });

  it('--fields picks the position fields, in every format', async () => {
    const portfolio = file('portfolio.csv', PORTFOLIO);
    const fields = ['--fields', 'symbol,value_base'];
    const csv = await run([portfolio, '--base', 'EUR', '--format', 'csv', ...fields]);
    expect(csv.stdout.split('\r\n')[0]).toBe('symbol,value_base');
    expect(csv.stdout.split('\r\n')[1]).toMatch(/^VOD\.L,\d+\.\d+$/);
    const json = exactJson((await run([portfolio, '--base', 'EUR', '--json', ...fields])).stdout);
    expect((json.positions as object[]).map((p) => Object.keys(p))).toEqual(ROWS.map(() => ['symbol', 'value_base']));
    expect(json.total_base).toBeDefined();
    const ndjson = await run([portfolio, '--base', 'EUR', '--format', 'ndjson', '--fields', 'row,currency,value']);
    expect(exactJson(ndjson.stdout.split('\n')[0]!)).toEqual({ row: 'position', currency: 'GBX', value: expect.any(String) });
    const table = await run([portfolio, '--base', 'EUR', '--format', 'table', ...fields]);
    expect(table.stdout.split('\n')[1]).toMatch(/^│ Symbol │ +Value EUR │$/);
    const bad = await run([portfolio, '--base', 'EUR', '--fields', 'symbol,bid']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--fields: unknown field "bid"');
    expect(bad.stderr).toContain('valid fields: row, symbol, quantity, currency, price, value, rate, value_base, cost, cost_total, pnl, pnl_base, status, timestamp, reason');
  });
});

describe('mkt value: exact where a float is not, prices, inputs', () => {
  it('0.1 and 0.2 of cash are 0.3, where doubles give 0.30000000000000004', async () => {
    expect(0.1 + 0.2).toBe(0.30000000000000004);
    const result = await run([file('cash.csv', 'symbol,quantity,currency\nUSD,0.1,USD\nUSD,0.2,USD\n'), '--base', 'USD', '--json']);
    expect(exactJson(result.stdout).total_base).toBe('0.3');
    // Cash in the base currency needs no quote: nothing is asked.
    expect(quotesRequests()).toHaveLength(0);
  });

  it('--price side: a long at the bid, a short at the ask; one round in USD', async () => {
    const result = await run([file('portfolio.csv', PORTFOLIO), '--base', 'USD', '--price', 'side', '--json']);
    const quotes = await sandboxQuotes(['VOD.L', 'RY.TO']);
    const positions = exactJson(result.stdout).positions as Array<Record<string, string>>;
    expect(positions[0]).toMatchObject({ price: quotes.get('VOD.L')!.bid, value: mul(quotes.get('VOD.L')!.bid, '1000') });
    expect(positions[3]).toMatchObject({ price: quotes.get('RY.TO')!.ask, value: mul(quotes.get('RY.TO')!.ask, '-50') });
    expect(quotesRequests()).toHaveLength(1 + 1);
  });

  it('reads JSON, TSV and standard input; --input-format overrides the name; --currency fills a missing currency', async () => {
    const json = await run([file('holdings.txt', '[{"symbol": "AAPL", "quantity": 0.1, "cost": "0.30"}]'), '--base', 'USD', '--currency', 'USD', '--input-format', 'json', '--json']);
    expect(json.code).toBe(0);
    const aapl = (exactJson(json.stdout).positions as Array<Record<string, string>>)[0]!;
    expect(aapl).toMatchObject({ quantity: '0.1', currency: 'USD', cost: '0.30', value: mul(aapl.price!, '0.1'), pnl: mul(sub(aapl.price!, '0.30'), '0.1') });
    const stdin = await run(['-', '--base', 'USD', '--format', 'csv', '--fields', 'symbol,currency'], { stdin: 'symbol\tquantity\tcurrency\nAAPL\t2\tUSD\n' });
    expect(stdin.stdout).toBe('symbol,currency\r\nAAPL,USD\r\n,USD\r\n,USD\r\n');
  });
});

describe('mkt value: what it could not value, said in every format; --strict', () => {
  // NOSUCH has no quote; XAU has no pair in the sandbox, so no rate to EUR. The XAU cash is no symbol asked for: 2 of 3.
  const PROBLEMS = 'symbol,quantity,currency\nAAPL,2,USD\nNOSUCH,5,USD\nGOLD,1,XAU\nXAU,3,XAU\n';

  it('warns on stderr, naming the symbol and the pairs tried, and values the rest (exit 0)', async () => {
    const result = await run([file('problems.csv', PROBLEMS), '--base', 'EUR', '--format', 'csv']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe([
      'warning: no quote for 2 of 3 symbols: NOSUCH, GOLD',
      'warning: no rate from XAU to EUR: tried XAUEUR, EURXAU, XAUUSD, USDXAU, EURUSD, USDEUR; no quote for XAUEUR, EURXAU, XAUUSD, USDXAU, USDEUR',
      'warning: the totals in EUR are incomplete: they leave out 3 of 4 positions',
      '',
    ].join('\n'));
    const lines = result.stdout.split('\r\n').filter((line) => line !== '');
    const status = lines[0]!.split(',').indexOf('status');
    expect(lines.map((line) => `${line.split(',')[0]} ${line.split(',')[status]}`).slice(1)).toEqual([
      'position ok', 'position missing', 'position missing', 'position no_route', 'total incomplete', 'total incomplete', 'total_base incomplete',
    ]);
  });

  it('json says incomplete, lists the missing symbols and the routes tried', async () => {
    const result = await run([file('problems.csv', PROBLEMS), '--base', 'EUR', '--json']);
    const document = exactJson(result.stdout);
    expect(Object.keys((document.positions as object[])[0]!)).toEqual(['symbol', 'quantity', 'currency', 'price', 'value', 'value_base', 'cost', 'cost_total', 'pnl', 'pnl_base', 'status', 'timestamp', 'reason']);
    expect(document).toMatchObject({ incomplete: true, missing: ['NOSUCH', 'GOLD'], no_route: [{ currency: 'XAU', to: 'EUR' }] });
    const positions = document.positions as Array<Record<string, unknown>>;
    expect(positions[1]).toMatchObject({ price: null, value: null, value_base: null, status: 'missing' });
    expect(positions[3]).toMatchObject({ price: '1', value: '3', value_base: null, status: 'no_route' });
    expect(document.total_base).toBe(positions[0]!.value_base);
  });

  it('the table notes each and says the totals are incomplete', async () => {
    const result = await run([file('problems.csv', PROBLEMS), '--base', 'EUR', '--format', 'table']);
    expect(result.stdout).toMatch(/│ NOSUCH .* │ no quote +│/);
    expect(result.stdout).toMatch(/│ XAU .* │ no rate from XAU to EUR │/);
    expect(result.stdout).toMatch(/│ all, in EUR │ .* │ incomplete: leaves out 3 positions +│/);
    expect(result.stdout).toMatch(/│ XAU +│ +│ +3\.0000 +│ +│ incomplete: 1 without a quote, no rate to EUR │/);
  });

  it('--strict: the data first, then exit 3 naming what is missing', async () => {
    const result = await run([file('problems.csv', PROBLEMS), '--base', 'EUR', '--json', '--strict']);
    expect(result.code).toBe(3);
    expect(exactJson(result.stdout).incomplete).toBe(true);
    expect(JSON.parse(result.stderr)).toMatchObject({ error: { code: 'INCOMPLETE', exit_code: 3, message: expect.stringContaining('no quote for 2 of 3 symbols: NOSUCH, GOLD') } });
    const whole = await run([file('portfolio.csv', PORTFOLIO), '--base', 'EUR', '--json', '--strict']);
    expect(whole.code).toBe(0);
  });
});

describe('mkt value refuses a bad file or flag with exit 2, before any request', () => {
  const cases: Array<[string, string, string[], RegExp]> = [
    ['no header line', 'AAPL,1,USD\n', [], /bad\.csv: has no header: no line names a symbol and a quantity column \(the first line is "AAPL,1,USD"\)/],
    ['a missing column', 'symbol,currency\nAAPL,USD\n', [], /bad\.csv, line 1: the header has no quantity column/],
    ['a quantity such as abc', 'symbol,quantity,currency\nAAPL,1,USD\nMSFT,abc,USD\n', [], /bad\.csv, line 3: quantity "abc" is not a decimal number/],
    ['an empty file', '', [], /bad\.csv: is empty/],
    ['a header and no rows', 'symbol,quantity\n', [], /bad\.csv: holds no positions/],
    ['a position with no currency, and no --currency', 'symbol,quantity,currency\nAAPL,1,USD\nMSFT,2,\n', [], /bad\.csv, line 3: MSFT has no currency[\s\S]*--currency CCY/],
    ['a currency nobody issues', 'symbol,quantity,currency\nAAPL,1,usd\n', [], /bad\.csv, line 2: currency "usd" is not a currency code[\s\S]*did you mean USD/],
    ['JSON that is not an array', '{"symbol": "AAPL"}', ['--input-format', 'json'], /bad\.csv: is JSON, but not an array/],
    ['an unclosed quote', 'symbol,quantity\n"AAPL,1\n', [], /bad\.csv, line 2: a quoted field opened on line 2 is never closed/],
    ['no --base', 'symbol,quantity,currency\nAAPL,1,USD\n', ['--base', ''], /mkt value needs --base/],
    ['a --base that is no currency', 'symbol,quantity,currency\nAAPL,1,USD\n', ['--base', 'usd'], /base "usd" is not a currency code[\s\S]*--base takes an ISO 4217 code/],
    ['a --currency that is no currency', 'symbol,quantity\nAAPL,1\n', ['--currency', 'dollars'], /the default currency "dollars" is not an ISO 4217/],
    ['a --price it does not know', 'symbol,quantity,currency\nAAPL,1,USD\n', ['--price', 'last'], /--price: unknown rule "last"\nhint: the rules are mid, bid, ask, side/],
  ];

  it.each(cases)('%s', async (_name, text, args, message) => {
    const result = await run([file('bad.csv', text), '--base', 'USD', ...args]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe('');
    expect(log).toEqual([]);
  });

  it('a missing file, named', async () => {
    const result = await run([path.join(fixture.dir, 'nope.csv'), '--base', 'USD']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`cannot read ${path.join(fixture.dir, 'nope.csv')}: no such file`);
    expect(log).toEqual([]);
  });

  it('a directory', async () => {
    const result = await run([fixture.dir, '--base', 'USD']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`cannot read ${fixture.dir}: it is a directory`);
  });

  it('a file over the 16 MiB cap, refused before it is read', async () => {
    const big = path.join(fixture.dir, 'big.csv');
    fs.writeFileSync(big, 'symbol,quantity\n');
    fs.truncateSync(big, 16 * 1024 * 1024 + 1);
    const result = await run([big, '--base', 'USD']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${big} is larger than 16 MiB`);
    expect(log).toEqual([]);
  });

  it('a FIFO: waits for its writer, as cat does; Ctrl-C ends the wait; what a writer writes, or left, is read', async () => {
    const fifo = path.join(fixture.dir, 'fifo');
    const { execFileSync } = await import('node:child_process');
    execFileSync('mkfifo', [fifo]);
    const controller = new AbortController();
    const interrupted = run([fifo, '--base', 'USD'], { signal: controller.signal });
    let writer = await openWhenRead(fifo);
    controller.abort();
    const result = await interrupted;
    fs.closeSync(writer);
    expect(result.code).toBe(130);
    expect(result.stdout).toBe('');
    expect(log).toEqual([]);
    // A writer that comes once mkt waits.
    const later = run([fifo, '--base', 'USD', '--json']);
    writer = await openWhenRead(fifo);
    fs.writeSync(writer, 'symbol,quantity,currency\nUSD,2.5,USD\n');
    fs.closeSync(writer);
    const read = await later;
    expect(read.stderr).toBe('');
    expect(exactJson(read.stdout).total_base).toBe('2.5');
    // What a writer wrote is read, though the writer has gone (the test holds the FIFO open meanwhile).
    const holder = fs.openSync(fifo, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    try {
      execFileSync('sh', ['-c', `printf 'symbol,quantity,currency\\nUSD,7.5,USD\\n' > '${fifo}'`]);
      const written = await run([fifo, '--base', 'USD', '--json']);
      expect(written.stderr).toBe('');
      expect(exactJson(written.stdout).total_base).toBe('7.5');
    } finally {
      fs.closeSync(holder);
    }
  });

  it('- with nothing on standard input, or with a terminal there', async () => {
    const empty = await run(['-', '--base', 'USD'], { stdin: '' });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('standard input: is empty');
    const tty = await run(['-', '--base', 'USD'], { stdinIsTTY: true });
    expect(tty.code).toBe(2);
    expect(tty.stderr).toContain('reads the positions from standard input, which is a terminal');
    expect(log).toEqual([]);
  });

  it('no credentials: exit 4 only once the file is read and good', async () => {
    const bad = await run([file('bad.csv', 'symbol,quantity\nAAPL,x\n'), '--base', 'USD'], { env: { MKT_TOKEN: undefined, MKT_BASE_URL: fixture.sb.url } });
    expect(bad.code).toBe(2);
    const good = await run([file('good.csv', 'symbol,quantity,currency\nAAPL,1,USD\n'), '--base', 'USD'], { env: { MKT_TOKEN: undefined, MKT_BASE_URL: fixture.sb.url } });
    expect(good.code).toBe(4);
    expect(log).toEqual([]);
  });
});

describe('mkt value: the service refusing, in the words of the command', () => {
  it('a fixture.token the service refuses: exit 4, naming MKT_TOKEN', async () => {
    const result = await run([file('good.csv', 'symbol,quantity,currency\nAAPL,1,USD\n'), '--base', 'USD'], { env: { MKT_TOKEN: 'not-a-token-the-sandbox-issued' } });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('MKT_TOKEN is set, and overrides any stored token');
  });

  it('more waiting for the rate limit than --max-wait: exit 6, counting the symbols of the valuation', async () => {
    const slow = await startTestSandbox({ limits: { perMinute: 1 } });
    try {
      const lots = file('three.csv', 'symbol,quantity,currency\nAAPL,1,USD\nMSFT,1,USD\nIBM,1,EUR\n');
      const result = await runCli(['value', lots, '--base', 'USD', '--batch-size', '2', '--max-wait', '1s'], {
        now: () => slow.clock.now(), env: { MKT_BASE_URL: slow.url, MKT_TOKEN: await getToken(slow.url), MKT_ORG: 'org_demo' },
      });
      expect(result.code).toBe(6);
      // AAPL, MSFT and IBM, and EUR's two pairs with USD: 5 symbols, 3 requests of 2.
      expect(result.stderr).toMatch(/^error: 5 symbols need 3 requests; at 1 a minute that is about .*, longer than --max-wait 1s\n/);
    } finally {
      await slow.close();
    }
  });
});

/** The write end of `fifo`, opened without blocking once a reader has it open (ENXIO until then). */
async function openWhenRead(fifo: string): Promise<number> {
  for (let tries = 0; ; tries++) {
    try {
      return fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENXIO' || tries >= 1500) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}
