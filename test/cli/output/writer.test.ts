// The one writer (src/cli/output/writer.ts): any declared resource in every format with --fields, for the
// run's terminal; a document whose items sit under another member, with members before and after
// them (a valuation: base, positions, a total with every digit, what is missing); a library result
// handed over as it is; a watch's stream; reports, JSON and lines made safe for a terminal.
import { describe, expect, it } from 'vitest';
import type { Quote, QuotesResult } from '../../../src/api/index.js';
import { createTerminal, type Terminal } from '../../../src/cli/output/terminal.js';
import { streamResource, writeJson, writeLines, writeReport, writeResource } from '../../../src/cli/output/writer.js';
import type { FieldSet } from '../../../src/render/fields.js';
import { QUOTE_MODEL } from '../../../src/render/quote-model.js';
import { createTestDeps } from '../../helpers/cli.js';
import { quote, QUOTE_TIME } from '../../helpers/quotes.js';

function terminalFor(options: { tty?: boolean; columns?: number; env?: Record<string, string> } = {}): { terminal: Terminal; stdout: () => string } {
  const test = createTestDeps({ stdoutIsTTY: options.tty ?? false, env: options.env, now: () => Date.parse(QUOTE_TIME) + 2000 });
  test.deps.io.columns = options.columns;
  return { terminal: createTerminal(test.deps), stdout: test.stdout };
}

interface Position {
  symbol: string;
  quantity: string;
  value: string;
}

/** A valuation: not `{data}`, but positions between a base currency and a total. */
interface Valuation {
  base: string;
  positions: readonly Position[];
  total_base: string;
  missing: readonly string[];
  /** Not declared: never written. */
  computedInMs?: number;
}

const VALUATION: FieldSet<Position, 'symbol' | 'quantity' | 'value', Valuation> = {
  fields: {
    symbol: { name: 'symbol', title: 'Symbol', kind: 'text', derived: false, align: 'left', read: (p) => p.symbol },
    quantity: { name: 'quantity', title: 'Quantity', kind: 'price', derived: false, align: 'left', read: (p) => p.quantity },
    value: { name: 'value', title: 'Value', kind: 'price', derived: false, align: 'left', read: (p) => p.value },
  },
  names: ['symbol', 'quantity', 'value'],
  sent: ['symbol', 'quantity', 'value'],
  table: ['symbol', 'quantity', 'value'],
  document: { before: ['base'], items: 'positions', after: [{ name: 'total_base', kind: 'decimal' }, 'missing'] },
};

// A document that holds its items elsewhere than `data` cannot leave out where: a compile error.
// @ts-expect-error Property 'document' is missing
const _undeclared: FieldSet<Position, 'symbol', Valuation> = { fields: { symbol: VALUATION.fields.symbol }, names: ['symbol'], sent: ['symbol'], table: ['symbol'] };

const valuation: Valuation = {
  base: 'USD',
  positions: [{ symbol: 'AAPL', quantity: '10', value: '2271.00' }, { symbol: 'EURUSD', quantity: '1000.5', value: '1085.592525' }],
  // 2271.00 + 1085.592525, worked by hand: every digit kept, as a JSON number.
  total_base: '3356.592525',
  missing: ['XAUUSD'],
  computedInMs: 3,
};

describe('writeResource', () => {
  it('a document with members before and after its items: JSON in the declared order, the total a number with every digit', async () => {
    const { terminal, stdout } = terminalFor();
    await writeResource(terminal, VALUATION, valuation, { format: 'json' });
    expect(stdout()).toBe(`{
  "base": "USD",
  "positions": [
    {
      "symbol": "AAPL",
      "quantity": 10,
      "value": 2271.00
    },
    {
      "symbol": "EURUSD",
      "quantity": 1000.5,
      "value": 1085.592525
    }
  ],
  "total_base": 3356.592525,
  "missing": [
    "XAUUSD"
  ]
}
`);
  });

  it('its items in every other format, with --fields', async () => {
    const run = async (format: 'tsv' | 'csv' | 'ndjson' | 'table', fields?: Array<'symbol' | 'quantity' | 'value'>) => {
      const { terminal, stdout } = terminalFor();
      await writeResource(terminal, VALUATION, valuation, { format, fields });
      return stdout();
    };
    expect(await run('tsv')).toBe('symbol\tquantity\tvalue\nAAPL\t10\t2271.00\nEURUSD\t1000.5\t1085.592525\n');
    expect(await run('csv', ['value', 'symbol'])).toBe('value,symbol\r\n2271.00,AAPL\r\n1085.592525,EURUSD\r\n');
    expect(await run('ndjson', ['symbol', 'value'])).toBe('{"symbol":"AAPL","value":2271.00}\n{"symbol":"EURUSD","value":1085.592525}\n');
    expect((await run('table')).split('\n')[3]).toBe('│ AAPL   │   10     │ 2271.00     │');
  });

  it('a decimal member that is not a number is written as a string, never as broken JSON', async () => {
    const { terminal, stdout } = terminalFor();
    await writeResource(terminal, VALUATION, { ...valuation, total_base: '12\u001b]0;x' }, { format: 'json' });
    expect(JSON.parse(stdout()).total_base).toBe('12\u001b]0;x');
    expect(stdout()).not.toContain('\u001b');
  });

  it('takes a library result as it is: QuotesResult is a quotes document, and only data and missing are written', async () => {
    const result: QuotesResult = { data: [quote('EURUSD')], missing: ['XXX'], unasked: ['YYY'], unusable: [], requests: 1, attempts: 1, rateLimit: undefined };
    const { terminal, stdout } = terminalFor();
    await writeResource(terminal, QUOTE_MODEL, result, { format: 'json' });
    expect(Object.keys(JSON.parse(stdout()))).toEqual(['data', 'missing']);
  });

  it('draws the table for the terminal: its width, its colour, its clock', async () => {
    const data: Quote[] = [quote('EURUSD', '1.08505', '1.08508', '1.085065'), quote('AAPL', '227.10', '227.12', '227.11')];
    const wide = terminalFor({ tty: true, columns: 100, env: { NO_COLOR: '1' } });
    await writeResource(wide.terminal, QUOTE_MODEL, { data, missing: [] }, { format: 'table' });
    expect(wide.stdout()).toContain('│ EURUSD │   1.08505 │   1.08508 │   1.085065 │ 0.00003 │  2s │');
    const narrow = terminalFor({ tty: true, columns: 30, env: { FORCE_COLOR: '1' } });
    await writeResource(narrow.terminal, QUOTE_MODEL, { data, missing: [] }, { format: 'table' });
    expect(narrow.stdout()).toMatch(/^\u001b\[1m?|^EURUSD/);
    expect(narrow.stdout().replace(/\u001b\[[0-9;]*m/g, '').split('\n').slice(0, 6)).toEqual(['EURUSD', '  Bid     1.08505', '  Ask     1.08508', '  Mid     1.085065', '  Spread  0.00003', '  Age     2s']);
  });
});

describe('streamResource', () => {
  it('writes the header once, with the first batch, then only lines', () => {
    const { terminal, stdout } = terminalFor();
    const stream = streamResource(terminal, QUOTE_MODEL, { format: 'csv', fields: ['symbol', 'bid'] })!;
    stream.write([quote('EURUSD', '1.1')], 0);
    stream.write([quote('AAPL', '227.10')], 0);
    expect(stdout()).toBe('symbol,bid\r\nEURUSD,1.1\r\nAAPL,227.10\r\n');
  });

  it('has none for a format that cannot grow a batch at a time', () => {
    const { terminal } = terminalFor();
    expect(streamResource(terminal, QUOTE_MODEL, { format: 'json' })).toBeUndefined();
    expect(streamResource(terminal, QUOTE_MODEL, { format: 'table' })).toBeUndefined();
  });
});

describe('reports, JSON and lines', () => {
  it('writeReport: the JSON when asked for, else the text, given the terminal', () => {
    const json = terminalFor();
    writeReport(json.terminal, { ok: true }, { json: true, text: () => 'never' });
    expect(json.stdout()).toBe('{\n  "ok": true\n}\n');
    const text = terminalFor({ tty: true, columns: 77 });
    writeReport(text.terminal, { ok: true }, { json: false, text: (report, terminal) => `ok=${report.ok} at ${terminal.columns}\n` });
    expect(text.stdout()).toBe('ok=true at 77\n');
  });

  it('writeJson escapes what a terminal would act on; writeLines drops it', () => {
    const { terminal, stdout } = terminalFor();
    writeJson(terminal, { url: 'http://x\u001b]0;PWNED\u0007\u202e' });
    writeLines(terminal, ['http://x\u001b]0;PWNED\u0007\u202e', 'two\nlines\u2028here']);
    expect(stdout()).toBe('{\n  "url": "http://x\\u001b]0;PWNED\\u0007\\u202e"\n}\nhttp://x]0;PWNED\ntwolineshere\n');
  });
});
