// A valuation through the output model: the JSON document laid out as JSON.stringify lays it out,
// with every decimal (nested ones too) a number with every digit and null where there is no figure;
// the totals as lines of tsv, csv and ndjson; the table's columns, titles, alignment and narrow form.
import { parse, stringify } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import type { Quote } from '../../src/api/types.js';
import { valueExactly, valuationAt, valuePositions } from '../../src/api/valuation.js';
import { renderersFor } from '../../src/render/formats.js';
import { defaultValueFields, type ValueFieldName } from '../../src/render/value-fields.js';
import { VALUE_MODEL } from '../../src/render/value-model.js';

const quote = (symbol: string, bid: string, ask: string, mid: string): Quote => ({ symbol, bid, ask, mid, timestamp: '2026-01-05T14:30:00.000Z' });
const QUOTES = [quote('AAPL', '227.10', '227.12', '227.11'), quote('VOD.L', '72.48', '72.52', '72.50'), quote('EURUSD', '1.08412', '1.08418', '1.08415'), quote('GBPUSD', '1.27148', '1.27153', '1.271505')];
const NOW = Date.parse('2026-01-05T14:31:00Z');
const EXACT = valueExactly({
  positions: [
    { symbol: 'AAPL', quantity: '10', currency: 'USD', cost: '200.5' },
    { symbol: 'VOD.L', quantity: '1000', currency: 'GBX' },
    { symbol: 'NOPE', quantity: '1e3', currency: 'USD' },
    { symbol: 'EUR', quantity: '2500.75', currency: 'EUR' },
  ],
  quotes: QUOTES,
  base: 'USD',
  now: NOW,
});
/** The data formats' default: full. */
const VALUATION = valuationAt(EXACT, 'full');
/** The table's: each currency's minor units, rates at 10 significant digits. */
const TABLE = valuationAt(EXACT, 'minor', { rateDigits: 10 });
const renderers = renderersFor(VALUE_MODEL);
const options = (format: string, extra: { fields?: readonly ValueFieldName[]; columns?: number; color?: boolean; ascii?: boolean } = {}) => ({
  fields: extra.fields ?? defaultValueFields(format), color: extra.color ?? false, now: 0, columns: extra.columns, ascii: extra.ascii ?? false,
});

describe('a valuation as JSON', () => {
  it('is laid out as JSON.stringify(value, null, 2) would, every decimal a number with its digits', async () => {
    const text = await renderers.json.render(VALUATION, options('json'));
    // lossless-json keeps each number's text: stringify(parse(text)) gives the same text back.
    expect(`${stringify(parse(text), null, 2)}\n`).toBe(text);
    expect(text).toContain('"value": 72500.00,');
    expect(text).toContain('"quantity": 1e3,');
    expect(text).toContain('"price": null,');
    expect(text).toContain('"rate": 1.271505,');
    expect(text).not.toContain('"rate": 0.01271505');
    expect(text).toMatch(/"totals": \[\n {4}\{\n {6}"currency": "USD",\n {6}"positions": 2,\n {6}"value": 2271\.10,/);
    const numbers = parse(text, null, (number: string) => number) as { positions: object[]; totals: Array<Record<string, unknown>>; fx: Array<Record<string, unknown>> };
    expect(numbers.totals[1]).toEqual({ currency: 'GBX', positions: '1', value: '72500.00', value_base: '921.841125', incomplete: false });
    expect(numbers.fx[0]).toMatchObject({ from: 'GBP', rate: '1.271505', rounded: false, pairs: ['GBPUSD'] });
  });

  it('its positions hold every field but row and rate, unless --fields says otherwise', async () => {
    const text = await renderers.json.render(VALUATION, options('json'));
    const positions = (JSON.parse(text) as { positions: object[] }).positions;
    expect(Object.keys(positions[0]!)).toEqual(['symbol', 'quantity', 'currency', 'price', 'value', 'value_base', 'cost', 'cost_total', 'pnl', 'pnl_base', 'status', 'timestamp', 'reason']);
    expect(positions[0]).toMatchObject({ timestamp: '2026-01-05T14:30:00.000Z', reason: null });
    expect(positions[3]).toMatchObject({ symbol: 'EUR', timestamp: null, reason: null });
    const picked = JSON.parse(await renderers.json.render(VALUATION, options('json', { fields: ['row', 'value'] }))) as { positions: object[] };
    expect(picked.positions[0]).toEqual({ row: 'position', value: 2271.1 });
  });
});

describe('a valuation as lines', () => {
  it('csv: the positions, a total per currency, the total in the base, each with a status', async () => {
    const text = await renderers.csv.render(VALUATION, options('csv', { fields: ['row', 'symbol', 'currency', 'value', 'value_base', 'status'] }));
    expect(text.split('\r\n')).toEqual([
      'row,symbol,currency,value,value_base,status',
      'position,AAPL,USD,2271.10,2271.10,ok',
      'position,VOD.L,GBX,72500.00,921.841125,ok',
      'position,NOPE,USD,,,missing',
      // 2500.75 × 1.08415 = 2711.1881125, by hand.
      'position,EUR,EUR,2500.75,2711.1881125,ok',
      'total,,USD,2271.10,2271.10,incomplete',
      'total,,GBX,72500.00,921.841125,ok',
      'total,,EUR,2500.75,2711.1881125,ok',
      // 2271.10 + 921.841125 + 2711.1881125 = 5904.1292375.
      'total_base,,USD,,5904.1292375,incomplete',
      '',
    ]);
  });

  it('ndjson: null where a line has no figure', async () => {
    const lines = (await renderers.ndjson.render(VALUATION, options('ndjson', { fields: ['row', 'price', 'pnl_base'] }))).trimEnd().split('\n');
    expect(lines).toEqual([
      '{"row":"position","price":227.11,"pnl_base":266.10}',
      '{"row":"position","price":72.50,"pnl_base":null}',
      '{"row":"position","price":null,"pnl_base":null}',
      '{"row":"position","price":1,"pnl_base":null}',
      '{"row":"total","price":null,"pnl_base":266.10}',
      '{"row":"total","price":null,"pnl_base":null}',
      '{"row":"total","price":null,"pnl_base":null}',
      '{"row":"total_base","price":null,"pnl_base":266.10}',
    ]);
  });
});

describe("a valuation's table", () => {
  it('titles the figures in the base, groups and aligns them on the point, and notes what it could not value and when the prices are from', async () => {
    const text = await renderers.table.render(TABLE, options('table'));
    const [positions, totals] = text.split('\n\n') as [string, string];
    const lines = positions.split('\n');
    expect(lines[1]).toBe('│ Symbol │ Quantity │ Currency │  Price │     Value │ Value USD │  Cost │    P&L │ P&L USD │ Note     │');
    expect(lines[3]).toBe('│ AAPL   │    10    │ USD      │ 227.11 │  2,271.10 │  2,271.10 │ 200.5 │ 266.10 │  266.10 │          │');
    // Pence in whole pence; 72500.00 GBX × 0.01271505 = 921.841125 USD (by hand), 921.84 in cents.
    expect(lines[4]).toBe('│ VOD.L  │ 1,000    │ GBX      │  72.50 │ 72,500    │    921.84 │       │        │         │          │');
    // 1e3 in plain notation, every digit: exact, as the quantity was written.
    expect(lines[5]).toBe('│ NOPE   │ 1,000    │ USD      │        │           │           │       │        │         │ no quote │');
    const rows = totals.split('\n');
    expect(rows[1]).toBe('│ Total       │ Rate to USD │     Value │ Value USD │    P&L │ P&L USD │ Note                              │');
    expect(rows[4]).toBe('│ GBX         │  0.01271505 │ 72,500    │    921.84 │        │         │                                   │');
    // 2271.10 + 921.841125 + 2711.1881125 = 5904.1292375 exactly, by hand: 5,904.13; the rows add to the same.
    expect(totals).toContain('│ all, in USD │             │           │  5,904.13 │        │  266.10 │ incomplete: leaves out 1 position │');
    expect(rows.at(-2)).toBe('Prices as of 2026-01-05T14:30:00.000Z (the oldest quote used).');
    expect(totals).not.toContain('add up to');
  });

  it('has no cost or P&L columns when no position has a cost; --fields picks the columns', async () => {
    const valuation = valuePositions({ positions: [{ symbol: 'AAPL', quantity: '1', currency: 'USD' }], quotes: QUOTES, base: 'USD', now: NOW, precision: 'minor' });
    const text = await renderers.table.render(valuation, options('table'));
    expect(text.split('\n')[1]).toBe('│ Symbol │ Quantity │ Currency │  Price │  Value │ Value USD │');
    const picked = await renderers.table.render(TABLE, options('table', { fields: ['value_base', 'symbol', 'status'] }));
    expect(picked.split('\n')[1]).toBe('│ Value USD │ Symbol │ Status  │ Note     │');
  });

  it('on a narrow terminal, a block per line with every figure whole; ASCII where asked', async () => {
    const text = await renderers.table.render(TABLE, options('table', { columns: 40 }));
    expect(text).not.toContain('┌');
    expect(text).toContain('VOD.L\n');
    expect(text).toMatch(/ {2}Value USD +921\.84\n/);
    // The figures whole; only the Note, free text, is cut to fit; the line of when, wrapped, never cut.
    expect(text).toMatch(/all, in USD\n {2}Value USD {4}5,904\.13\n {2}P&L USD {6}266\.10\n {2}Note {9}incomplete: leaves out 1…\n/);
    expect(text).toMatch(/Prices as of 2026-01-05T14:30:00\.000Z\n\(the oldest quote used\)\.\n$/);
    const ascii = await renderers.table.render(TABLE, options('table', { ascii: true }));
    expect(ascii).toMatch(/^\+-+\+/);
    expect(ascii).not.toMatch(/[┌│─]/);
  });

  it('in colour: a note in red, an incomplete total\'s in yellow', async () => {
    const text = await renderers.table.render(TABLE, options('table', { color: true }));
    expect(text).toContain('\u001b[31mno quote');
    expect(text).toContain('\u001b[33mincomplete: leaves out 1 position');
  });
});

describe("a valuation's table: each figure rounded once", () => {
  it('says so where the rows shown do not add up to the total shown: 0.125 + 0.125 is 0.25, shown as 0.12 and 0.12', async () => {
    const exact = valueExactly({ positions: [{ symbol: 'USD', quantity: '0.125', currency: 'USD' }, { symbol: 'USD', quantity: '0.125', currency: 'USD' }], quotes: [], base: 'USD', now: NOW });
    const text = await renderers.table.render(valuationAt(exact, 'minor'), options('table'));
    expect(text).toContain('│ all, in USD │             │       │      0.25 │');
    expect(text).toContain('The Value USD rows add up to 0.24; the total, 0.25 USD, is the exact sum rounded once (half-even), not a sum of rounded rows.');
    // No prices were used: no line of when.
    expect(text).not.toContain('as of');
  });

  it('at full, writes the rows\' sum with every digit: 34 nines and 0.5 add up to 35 digits, where the total is rounded to 34', async () => {
    const nines = '9'.repeat(34);
    const exact = valueExactly({ positions: [{ symbol: 'USD', quantity: nines, currency: 'USD' }, { symbol: 'USD', quantity: '0.5', currency: 'USD' }], quotes: [], base: 'USD', now: NOW });
    const text = await renderers.table.render(valuationAt(exact, 'full'), options('table', { columns: 400 }));
    const grouped = (digits: string) => digits.replace(/\B(?=(\d{3})+$)/g, ',');
    // 10^34 - 0.5 rounded half-even to 34 digits is 10^34.
    expect(text.replace(/\n(?!The)/g, ' ').replace(/\s+/g, ' ')).toContain(`The Value USD rows add up to ${grouped(nines)}.5; the total, ${grouped(`1${'0'.repeat(34)}`)} USD, is the exact sum rounded once`);
  });

  it('groups thousands in the table only: 1234567.5 JPY is 1,234,568 (half-even) in the table, 1234567.5 in csv', async () => {
    const exact = valueExactly({ positions: [{ symbol: 'JPY', quantity: '1234567.5', currency: 'JPY' }], quotes: [], base: 'JPY', now: NOW });
    expect(await renderers.table.render(valuationAt(exact, 'minor'), options('table'))).toContain('1,234,568');
    expect(await renderers.csv.render(valuationAt(exact, 'full'), options('csv'))).toContain('1234567.5');
    expect(await renderers.csv.render(valuationAt(exact, 'minor'), options('csv'))).toContain(',1234568,');
  });
});
