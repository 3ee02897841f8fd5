// The one-shot table as the engine lays it out: fitted to a terminal's width (never wrapped, no
// field dropped: a block per quote when the columns do not fit side by side), drawn whole in a pipe,
// in plain ASCII when asked, with price cells of bounded width, ages that read right against
// --max-age, and quotes that cannot be right marked in the Note column.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { compactDecimal } from '../../src/render/decimal.js';
import { renderersFor } from '../../src/render/formats.js';
import { formatQuoteAge } from '../../src/render/quote-fields.js';
import { QUOTE_MODEL } from '../../src/render/quote-model.js';
import { quoteRows, renderQuoteTable as renderTable } from '../../src/render/quote-table.js';
import { MAX_PRICE_WIDTH } from '../../src/render/table.js';
import { createTestDeps } from '../helpers/cli.js';
import type { Quote } from '../../src/api/types.js';
import { quote, QUOTE_TIME } from '../helpers/quotes.js';
import { cliLogin, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

// Two seconds after the factory's quotes were set.
const now = Date.parse(QUOTE_TIME) + 2000;
const EURUSD = quote('EURUSD', '1.08505', '1.08508', '1.085065');
const AAPL = quote('AAPL', '227.10', '227.12', '227.11', '2025-01-06T14:29:58.000Z');
const SGR = /\u001b\[[0-9;]*m/g;
const lines = (text: string) => text.split('\n').filter((line) => line !== '');
const titles = (text: string) => lines(text)[1]!.replace(SGR, '').split(/[│|]/).map((cell) => cell.trim()).filter((cell) => cell !== '');
/** The titles of a table, or of the blocks' field lines (`  Bid     1.08505`), in order, once each. */
const shownTitles = (text: string) => {
  const plain = text.replace(SGR, '');
  if (/^[┌+]/.test(plain)) return titles(plain);
  return [...new Set(['Symbol', ...[...plain.matchAll(/^ {2}(\w+) +\S/gm)].map((match) => match[1]!)])];
};
const RENDERERS = renderersFor(QUOTE_MODEL);
const renderTsv = (data: Quote[]) => RENDERERS.tsv.render({ data, missing: [] }, { color: false, now: 0, columns: undefined, ascii: false }) as string;
const renderCsv = (data: Quote[]) => RENDERERS.csv.render({ data, missing: [] }, { color: false, now: 0, columns: undefined, ascii: false }) as string;
/** What Python's str.splitlines() takes for a line break. */
const SPLITLINES = /\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/;

describe('the table fits the terminal', () => {
  it('is drawn whole without a width (a pipe)', () => {
    expect(titles(renderTable([EURUSD, AAPL], { color: false, now }))).toEqual(['Symbol', 'Bid', 'Ask', 'Mid', 'Spread', 'Age']);
  });

  // The table with a Note is 74 columns wide: narrower, a block per quote, with every field.
  it.each([
    [120, 'a table'],
    [74, 'a table'],
    [73, 'blocks'],
    [70, 'blocks'],
    [60, 'blocks'],
    [50, 'blocks'],
    [40, 'blocks'],
    [30, 'blocks'],
  ])('at %s columns: %s with every field and the Note, and no line is wider', (columns, shape) => {
    const crossed = quote('X', '1.3', '1.2', '1.25');
    const text = renderTable([EURUSD, AAPL, crossed], { color: true, now, columns });
    expect(shownTitles(text)).toEqual(['Symbol', 'Bid', 'Ask', 'Mid', 'Spread', 'Age', 'Note']);
    expect(/^[┌]/.test(text) ? 'a table' : 'blocks').toBe(shape);
    for (const line of lines(text)) expect([...line.replace(SGR, '')].length).toBeLessThanOrEqual(columns);
    expect(text).toContain('EURUSD');
    expect(text).toContain('227.10');
    expect(text.replace(SGR, '')).toContain('crossed');
  });

  it('a narrower terminal never shows fewer fields: every width from 1 to 120 shows all seven columns', () => {
    const crossed = quote('X', '1.3', '1.2', '1.25');
    for (let columns = 1; columns <= 120; columns++) {
      const text = renderTable([EURUSD, AAPL, crossed], { color: false, now, columns });
      // In blocks, `  Title  value`, or the title on a line of its own where that does not fit.
      for (const title of ['Symbol', 'Bid', 'Ask', 'Mid', 'Spread', 'Age', 'Note']) {
        const shown = title === 'Symbol' ? text.startsWith('┌') || text.startsWith('EURUSD\n') : new RegExp(`(^|│ | {2})${title}( |$)`, 'm').test(text);
        expect(shown, `${title} at ${columns} columns:\n${text}`).toBe(true);
      }
      for (const price of ['1.08505', '1.08508', '1.085065', '227.10', '227.12', '227.11', '0.00003', '0.02']) expect(text).toContain(price);
    }
  });

  it('--fields picks fewer columns, for a table that fits where the whole one would not', () => {
    const text = renderTable([EURUSD, AAPL], { color: false, now, columns: 40, fields: ['symbol', 'bid', 'ask'] });
    expect(titles(text)).toEqual(['Symbol', 'Bid', 'Ask']);
    for (const line of lines(text)) expect([...line].length).toBeLessThanOrEqual(40);
  });

  it('cuts a long note with a marker to fit rather than leave a field out', () => {
    const text = renderTable([quote('X', '1.3', '1.2', '1.25', '2026-02-30T12:00:00Z')], { color: false, now, columns: 44, fields: ['symbol', 'bid', 'ask'] });
    expect(titles(text)).toEqual(['Symbol', 'Bid', 'Ask', 'Note']);
    expect(text).toContain('│ crossed, timestamp… │\n');
  });

  it('never cuts a value: where Symbol, Bid and Ask do not fit side by side, a block per quote, a field per line', () => {
    const text = renderTable([quote('A-VERY-LONG-SYMBOL-NAME', '1.08505', '1.08508', '1.085065'), AAPL], { color: true, now, columns: 30 });
    expect(text.replace(SGR, '')).toBe([
      'A-VERY-LONG-SYMBOL-NAME',
      '  Bid     1.08505',
      '  Ask     1.08508',
      '  Mid     1.085065',
      '  Spread  0.00003',
      '  Age     2s',
      '',
      'AAPL',
      '  Bid     227.10',
      '  Ask     227.12',
      '  Mid     227.11',
      '  Spread  0.02',
      '  Age     4s',
      '',
    ].join('\n'));
  });

  it('below the width of a line, each title above its value, the value whole for the terminal to wrap', () => {
    const text = renderTable([EURUSD], { color: false, now, columns: 5 });
    expect(text).toBe('EURUSD\nBid\n1.08505\nAsk\n1.08508\nMid\n1.085065\nSpread\n0.00003\nAge\n2s\n');
  });

  it('cuts only the Note, free text, with a marker: in a block too', () => {
    const text = renderTable([quote('EURUSD', '1.08508', '1.08505', '1.085065', '2026-02-30T12:00:00Z')], { color: false, now, columns: 24 });
    expect(lines(text)).toContain('  Bid     1.08508');
    expect(lines(text)).toContain('  Note    crossed, time…');
    for (const line of lines(text)) expect([...line].length).toBeLessThanOrEqual(24);
  });

  it.each([0, undefined])('a width of %s (unknown) draws the table whole, as in a pipe', (columns) => {
    expect(titles(renderTable([EURUSD, AAPL], { color: false, now, columns }))).toEqual(['Symbol', 'Bid', 'Ask', 'Mid', 'Spread', 'Age']);
  });
});

describe('plain ASCII', () => {
  it('draws the box with + - | and cuts notes with ...', () => {
    const text = renderTable([EURUSD, quote('X', '1.3', '1.2', '1.25', '2026-02-30T12:00:00Z')], { color: false, now, ascii: true, columns: 46, fields: ['symbol', 'bid', 'ask'] });
    expect(text).toMatch(/^[\x20-\x7e\n]*$/);
    expect(lines(text)[0]).toBe('+--------+---------+---------+---------------+');
    expect(text).toContain('| EURUSD | 1.08505 | 1.08508 |               |');
    expect(text).toContain('| X      | 1.3     | 1.2     | crossed, t... |');
  });
});

describe('ages', () => {
  it.each([
    [0, '0s'],
    [-5000, '0s'], // a clock a little ahead
    [-10_000, '0s'], // within the 10 s clock-skew allowance
    [-10_001, 'future'],
    [-23 * 3_600_000, 'future'],
    [1, '0.1s'],
    [800, '0.8s'],
    [501, '0.6s'], // rounded up: never younger than it is
    [2000, '2s'],
    [9_950, '10s'],
    [12_300, '13s'],
    [59_500, '60s'],
    [90_000, '1m'],
    [3 * 3_600_000 + 5 * 60_000, '3h 5m'],
    [Number.NaN, '?'],
  ])('%s ms reads %s', (ms, text) => {
    expect(formatQuoteAge(ms)).toBe(text);
  });

  it('reads older than --max-age on a row marked stale', () => {
    const rows = quoteRows([quote('A', '1', '2', '1.5', '2025-01-06T14:30:01.200Z')], { now, maxAgeMs: 500 });
    expect(rows[0]).toMatchObject({ age: '0.8s', notes: ['stale'] });
  });
});

describe('price cells of bounded width (a price of 1e999 must not pad every row)', () => {
  it.each([
    ['1.08505', '1.08505'],
    ['1.084150000000000001', '1.084150000000000001'],
    ['1E-8', '0.00000001'],
    ['1e999', '1e+999'],
    ['1e-999', '1e-999'],
    ['-1.5e40', '-1.5e+40'],
    // More significant digits than the width: whole, never cut (the shorter exact form).
    ['1.0849999999999999999999999999999999', '1.0849999999999999999999999999999999'],
    ['1234567890123456789012345.123456789', '1234567890123456789012345.123456789'],
    ['1.23456789012345678901234567e-30', '1.23456789012345678901234567e-30'],
  ])('%s is shown as %s', (price, shown) => {
    expect(compactDecimal(price, MAX_PRICE_WIDTH)).toBe(shown);
  });

  it('shows 1e999 and 1e-999 in exponent form, leaves the other rows as they were, and marks both', () => {
    const text = renderTable([EURUSD, quote('BIG', '1e999', '3e999', '2e999'), quote('TINY', '1e-999', '2e-999', '1.5e-999')], { color: false, now });
    const [eur, big, tiny] = lines(text).slice(3, 6);
    expect(eur).toMatch(/│ EURUSD │ +1\.08505 │ +1\.08508 │ +1\.085065 │ +0\.00003 │ +2s │ +│$/);
    expect(big).toMatch(/│ BIG +│ 1e\+999 +│ 3e\+999 +│ 2e\+999 +│ 2e\+999 +│ +2s │ bid is out of range, ask is out of range, mid is out of range │$/);
    expect(tiny).toMatch(/│ TINY +│ 1e-999 +│ 2e-999 +│ +1\.5e-999 │ 1e-999 +│ +2s │ bid is out of range, ask is out of range, mid is out of range │$/);
    for (const line of lines(text)) expect(line.length).toBeLessThan(250);
  });

  it('keeps the table within a small multiple of the body for 20,000 quotes', () => {
    const data = Array.from({ length: 20_000 }, (_, i) => quote(`SYN${i}`, '1.08505', '1.08508', '1.085065'));
    data[0] = quote('BIG', '1e999', '1e999', '1e999');
    data[1] = quote('TINY', '1e-999', '1e-999', '1e-999');
    const body = JSON.stringify({ data });
    const text = renderTable(data, { color: false, now });
    expect(lines(text)).toHaveLength(20_000 + 4);
    // Before the bound: about 6,000 characters a row, a 121 MB table.
    expect(text.length).toBeLessThan(2 * body.length);
  });
});

describe('quotes that cannot be right are marked', () => {
  it.each([
    ['a negative price', quote('NEG', '-1.5', '1.6', '0.05'), 'bid is negative'],
    ['a price out of range', quote('HUGE', '1e20', '1e20', '1e20'), 'bid is out of range'],
    ['a mid outside bid..ask', quote('MID', '1.10', '1.20', '1.30'), 'mid is outside bid..ask'],
    ['a day that does not exist', quote('DAY', '1.10', '1.20', '1.15', '2026-02-30T12:00:00Z'), 'timestamp names a day that does not exist'],
    ['an impossible offset', quote('OFF', '1.10', '1.20', '1.15', '9999-12-31T23:59:59.999999999999+23:59'), 'timestamp is not an RFC 3339 date-time'],
  ])('%s', (_name, bad, note) => {
    const text = renderTable([EURUSD, bad], { color: true, now });
    const row = lines(text).find((line) => line.includes(bad.symbol))!;
    expect(row.replace(SGR, '')).toContain(note);
    expect(row).toContain('\u001b[31m'); // in red, as crossed and locked are
    expect(lines(text).find((line) => line.includes('EURUSD'))).not.toContain('\u001b[31m');
  });
});

describe('a row stays one line in every format', () => {
  const sneaky = quote('EUR\u2028USD\u2029X\u000bY\u000cZ\u001c\u001d\u001e\u0085W', '1.1', '1.2', '1.15', '2025-01-06T14:30:00Z\u2028');
  it.each([
    ['tsv', () => renderTsv([sneaky, EURUSD])],
    ['csv', () => renderCsv([sneaky, EURUSD]).replaceAll('\r\n', '\n')],
    ['table', () => renderTable([sneaky, EURUSD], { color: false, now })],
  ])('%s', (_format, render) => {
    const text = render();
    const expected = text.split('\n').length;
    expect(text.split(SPLITLINES)).toHaveLength(expected);
    expect(text).toContain('EURUSDXYZW');
  });
});

describe('mkt quotes draws the table to fit, against the sandbox', () => {
  let sandbox: TestSandbox;
  let token: string;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
    token = await cliLogin(sandbox.url);
  });
  afterAll(() => sandbox.close());

  async function table(options: { tty: boolean; columns?: number; env?: Record<string, string> }) {
    const test = createTestDeps({
      stdoutIsTTY: options.tty, now: sandbox.clock.now,
      env: { MKT_BASE_URL: sandbox.url, MKT_TOKEN: token, MKT_ORG: 'org_demo', NO_COLOR: '1', ...options.env },
    });
    test.deps.io.columns = options.columns;
    const code = await main(['quotes', 'EURUSD', 'AAPL', '--format', 'table', '--max-age', '1ms'], test.deps);
    expect(code).toBe(0);
    return test.stdout();
  }

  it('in a 40-column terminal: a block per quote with every field, no line wider', async () => {
    const text = await table({ tty: true, columns: 40 });
    expect(lines(text)[0]).toBe('EURUSD');
    expect(shownTitles(text)).toEqual(['Symbol', 'Bid', 'Ask', 'Mid', 'Spread', 'Age', 'Note']);
    for (const line of lines(text)) expect([...line].length).toBeLessThanOrEqual(40);
    // Two quotes of Bid, Ask, Mid, Spread, Age and Note (stale under --max-age 1ms), under their symbols.
    expect(lines(text)).toHaveLength(2 * 7);
  });

  it('in a pipe: drawn whole, whatever the width', async () => {
    expect(titles(await table({ tty: false, columns: 40 }))).toEqual(['Symbol', 'Bid', 'Ask', 'Mid', 'Spread', 'Age', 'Note']);
  });

  it.each([
    [{ LC_ALL: 'C', LANG: 'en_US.UTF-8' }],
    [{ LANG: 'en_US.ISO-8859-1' }],
  ])('in plain ASCII under %j', async (env) => {
    const text = await table({ tty: true, columns: 100, env });
    expect(text).toMatch(/^[\x20-\x7e\n]*$/);
    expect(text).toContain('| EURUSD |');
  });
});
