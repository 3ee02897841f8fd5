import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Quote } from '../../src/api/types.js';
import { renderersFor, type Format } from '../../src/render/formats.js';
import type { QuotesDocument } from '../../src/render/quote-fields.js';
import { QUOTE_MODEL } from '../../src/render/quote-model.js';
import { quoteRows, renderQuoteTable as renderTable } from '../../src/render/quote-table.js';
import { safeJson } from '../../src/shared/text.js';

const quotes: Quote[] = [
  { symbol: 'EURUSD', bid: '1.08505', ask: '1.08508', mid: '1.085065', timestamp: '2026-11-22T12:00:00.000Z' },
  { symbol: 'AAPL', bid: '227.10', ask: '227.12', mid: '227.11', timestamp: '2026-11-22T11:59:58.000Z' },
  { symbol: 'TINY', bid: '0.00000001', ask: '1.084150000000000001', mid: '0.542075000000000005', timestamp: '2026-11-22T12:00:00Z' },
];
const now = Date.parse('2026-11-22T12:00:02.000Z');
const RENDERERS = renderersFor(QUOTE_MODEL);
/** Quotes in a format that is not the table (those render at once), with the fields the service sends unless told. */
const render = (format: Exclude<Format, 'table'>, document: QuotesDocument) => RENDERERS[format].render(document, { color: false, now: 0, columns: undefined, ascii: false }) as string;
const renderJson = (document: QuotesDocument) => render('json', document);
const renderNdjson = (data: Quote[]) => render('ndjson', { data, missing: [] });
const renderCsv = (data: Quote[]) => render('csv', { data, missing: [] });
const renderTsv = (data: Quote[]) => render('tsv', { data, missing: [] });

describe('quote formats, byte for byte', () => {
  it('json keeps every digit and the service shape, two-space indent', () => {
    const text = renderJson({ data: quotes.slice(0, 2), missing: ['XXX'] });
    expect(text).toBe(`{
  "data": [
    {
      "symbol": "EURUSD",
      "bid": 1.08505,
      "ask": 1.08508,
      "mid": 1.085065,
      "timestamp": "2026-11-22T12:00:00.000Z"
    },
    {
      "symbol": "AAPL",
      "bid": 227.10,
      "ask": 227.12,
      "mid": 227.11,
      "timestamp": "2026-11-22T11:59:58.000Z"
    }
  ],
  "missing": [
    "XXX"
  ]
}
`);
    // The same layout JSON.stringify would give, apart from the digits it would lose.
    const parsed = JSON.parse(text);
    expect(JSON.stringify(parsed, null, 2).replace('227.1,', '227.10,')).toBe(text.trimEnd());
  });

  it('json with nothing returned and --max-age', () => {
    expect(renderJson({ data: [], missing: [], stale: [] })).toBe('{\n  "data": [],\n  "missing": [],\n  "stale": []\n}\n');
  });

  it('json writes 1.084150000000000001 as is', () => {
    expect(renderJson({ data: [quotes[2]!], missing: [] })).toContain('"ask": 1.084150000000000001,');
  });

  it('ndjson, a quote per line', () => {
    expect(renderNdjson(quotes.slice(0, 2))).toBe(
      '{"symbol":"EURUSD","bid":1.08505,"ask":1.08508,"mid":1.085065,"timestamp":"2026-11-22T12:00:00.000Z"}\n'
      + '{"symbol":"AAPL","bid":227.10,"ask":227.12,"mid":227.11,"timestamp":"2026-11-22T11:59:58.000Z"}\n');
  });

  it('csv is RFC 4180', () => {
    expect(renderCsv([...quotes.slice(0, 1), { ...quotes[1]!, symbol: 'A,"B"' }])).toBe(
      'symbol,bid,ask,mid,timestamp\r\nEURUSD,1.08505,1.08508,1.085065,2026-11-22T12:00:00.000Z\r\n"A,""B""",227.10,227.12,227.11,2026-11-22T11:59:58.000Z\r\n');
  });

  it('tsv has a header and no decoration', () => {
    expect(renderTsv(quotes.slice(0, 1))).toBe('symbol\tbid\task\tmid\ttimestamp\nEURUSD\t1.08505\t1.08508\t1.085065\t2026-11-22T12:00:00.000Z\n');
  });

  it('strips control characters from service text in tsv and csv', () => {
    const evil = { ...quotes[0]!, symbol: 'EUR\u001b]0;pwned\u0007USD', timestamp: '2026-11-22T12:00:00Z\u001b[2J' };
    expect(renderTsv([evil])).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
    expect(renderCsv([evil])).not.toContain('\u001b');
    expect(renderJson({ data: [evil], missing: [] })).toContain('\\u001b');
  });
});

describe('the table', () => {
  it('pads to the instrument precision, computes the spread exactly, and shows the age', () => {
    const rows = quoteRows(quotes.slice(0, 2), { now });
    expect(rows[0]).toMatchObject({ bid: '1.08505', ask: '1.08508', mid: '1.085065', spread: '0.00003', age: '2s', notes: [] });
    expect(rows[1]).toMatchObject({ bid: '227.10', spread: '0.02', age: '4s' });
  });

  it('marks crossed, locked and stale quotes', () => {
    const crossed = { ...quotes[0]!, bid: '1.1', ask: '1.0' };
    const locked = { ...quotes[0]!, bid: '1.10', ask: '1.1', mid: '1.1' };
    const rows = quoteRows([crossed, locked, quotes[1]!], { now, maxAgeMs: 3000 });
    expect(rows.map((row) => row.notes)).toEqual([['crossed'], ['locked'], ['stale']]);
    expect(rows[0]!.spread).toBe('-0.1');
  });

  it('aligns on the decimal point without colour', () => {
    const text = renderTable(quotes.slice(0, 2), { color: false, now });
    expect(text).not.toContain('\u001b');
    const lines = text.split('\n');
    const eur = lines.find((line) => line.includes('EURUSD'))!;
    const aapl = lines.find((line) => line.includes('AAPL'))!;
    expect(eur.indexOf('1.08505') + 1).toBe(aapl.indexOf('227.10') + 3);
    expect(text).toContain('Spread');
  });

  it('colours only when told to', () => {
    expect(renderTable(quotes.slice(0, 1), { color: true, now })).toContain('\u001b[');
  });

  it('strips escape sequences from symbols', () => {
    const evil = { ...quotes[0]!, symbol: 'EVIL\u001b[2J\u001b]0;x\u0007' };
    expect(renderTable([evil], { color: false, now })).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
  });
});

describe('the table, byte for byte', () => {
  it('draws a box with aligned columns and a note column only when needed', () => {
    const crossed = { ...quotes[0]!, symbol: 'X', bid: '2', ask: '1.5', mid: '1.75', timestamp: '2026-11-22T11:50:58.000Z' };
    expect(renderTable([quotes[0]!, quotes[1]!], { color: false, now })).toBe(`┌────────┬───────────┬───────────┬────────────┬─────────┬─────┐
│ Symbol │ Bid       │ Ask       │ Mid        │ Spread  │ Age │
├────────┼───────────┼───────────┼────────────┼─────────┼─────┤
│ EURUSD │   1.08505 │   1.08508 │   1.085065 │ 0.00003 │  2s │
│ AAPL   │ 227.10    │ 227.12    │ 227.11     │ 0.02    │  4s │
└────────┴───────────┴───────────┴────────────┴─────────┴─────┘
`);
    expect(renderTable([crossed], { color: false, now, maxAgeMs: 30_000 })).toBe(`┌────────┬─────┬─────┬──────┬────────┬─────┬────────────────┐
│ Symbol │ Bid │ Ask │ Mid  │ Spread │ Age │ Note           │
├────────┼─────┼─────┼──────┼────────┼─────┼────────────────┤
│ X      │ 2.0 │ 1.5 │ 1.75 │ -0.5   │  9m │ crossed, stale │
└────────┴─────┴─────┴──────┴────────┴─────┴────────────────┘
`);
  });

  it('draws 10,000 rows', () => {
    const many = Array.from({ length: 10_000 }, (_, i) => ({ ...quotes[0]!, symbol: `SYN${i}` }));
    expect(renderTable(many, { color: false, now }).split('\n')).toHaveLength(10_000 + 5);
  });
});

describe('renderJson, for any quotes', () => {
  const decimal = fc.tuple(fc.boolean(), fc.nat(), fc.option(fc.nat(), { nil: undefined }))
    .map(([negative, int, fraction]) => `${negative ? '-' : ''}${int}${fraction === undefined ? '' : `.${fraction}`}`);
  const quote = fc.record({
    symbol: fc.string({ unit: 'binary', maxLength: 12 }),
    bid: decimal, ask: decimal, mid: decimal,
    timestamp: fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
  });

  it('is JSON.stringify(value, null, 2) with the prices as numbers, escapes and all', () => {
    fc.assert(fc.property(fc.array(quote, { maxLength: 5 }), fc.array(fc.string({ unit: 'binary', maxLength: 6 }), { maxLength: 3 }), (data, missing) => {
      const expected = `${safeJson({ data, missing }, 2).replace(/"(bid|ask|mid)": "([^"]*)"/g, '"$1": $2')}\n`;
      expect(renderJson({ data, missing })).toBe(expected);
      expect(JSON.parse(renderJson({ data, missing, stale: missing }))).toEqual({
        data: data.map((q) => ({ ...q, bid: Number(q.bid), ask: Number(q.ask), mid: Number(q.mid) })), missing, stale: missing,
      });
    }), { numRuns: 1000 });
  });
});

