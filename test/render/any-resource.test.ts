// One output model for any resource: a resource declared once (its fields: name, title, kind, how each
// is read) is written by every one-shot format and streamed by the --watch formats with no renderer
// of its own. The resource here is made up for the test: instruments, with text, a price and a time.
import { describe, expect, it } from 'vitest';
import { parseFields } from '../../src/cli/options/format.js';
import type { DataDocument, FieldSet } from '../../src/render/fields.js';
import { FORMATS, renderersFor } from '../../src/render/formats.js';

interface Instrument {
  symbol: string;
  name: string;
  tick_size: string;
  listed: string;
}

type InstrumentField = 'symbol' | 'name' | 'tick_size' | 'listed';

/** The document: the items, and a member the declaration names for JSON. */
interface Instruments extends DataDocument<Instrument> {
  note?: readonly string[];
}

const INSTRUMENT_MODEL: FieldSet<Instrument, InstrumentField, Instruments> = {
  fields: {
    symbol: { name: 'symbol', title: 'Symbol', kind: 'text', derived: false, align: 'left', read: (item) => item.symbol },
    name: { name: 'name', title: 'Name', kind: 'text', derived: false, align: 'left', dropOrder: 1, read: (item) => item.name },
    tick_size: { name: 'tick_size', title: 'Tick', kind: 'price', derived: false, align: 'left', read: (item) => item.tick_size },
    listed: { name: 'listed', title: 'Listed', kind: 'time', derived: false, align: 'left', read: (item) => item.listed },
  },
  names: ['symbol', 'name', 'tick_size', 'listed'],
  sent: ['symbol', 'name', 'tick_size', 'listed'],
  table: ['symbol', 'tick_size', 'name'],
  document: { items: 'data', after: ['note'] },
};

const data: Instrument[] = [
  { symbol: 'EURUSD', name: 'Euro, "fiber"', tick_size: '0.00001', listed: '1999-01-04T00:00:00Z' },
  // Exact digits: an exponent is written as sent (JSON) or in plain digits (the table), never as a float.
  { symbol: 'BTCUSD', name: 'Bitcoin', tick_size: '1e-8', listed: '2010-07-17T00:00:00Z' },
  { symbol: 'XAUUSD', name: 'Gold', tick_size: '0.10000000000000000001', listed: '1975-01-01T00:00:00Z' },
];
const RENDERERS = renderersFor(INSTRUMENT_MODEL);
const options = { color: false, now: 0, columns: undefined, ascii: true };
// `other` is not declared: no format writes it.
const view = { data, note: ['made up'], other: 'not written' };

describe('a resource declared once, in every format', () => {
  it('tsv and csv: a header of the sent fields, a line per item', async () => {
    expect(await RENDERERS.tsv.render(view, options)).toBe(
      'symbol\tname\ttick_size\tlisted\n'
      + 'EURUSD\tEuro, "fiber"\t0.00001\t1999-01-04T00:00:00Z\n'
      + 'BTCUSD\tBitcoin\t1e-8\t2010-07-17T00:00:00Z\n'
      + 'XAUUSD\tGold\t0.10000000000000000001\t1975-01-01T00:00:00Z\n',
    );
    expect(await RENDERERS.csv.render(view, options)).toBe(
      'symbol,name,tick_size,listed\r\n'
      + 'EURUSD,"Euro, ""fiber""",0.00001,1999-01-04T00:00:00Z\r\n'
      + 'BTCUSD,Bitcoin,1e-8,2010-07-17T00:00:00Z\r\n'
      + 'XAUUSD,Gold,0.10000000000000000001,1975-01-01T00:00:00Z\r\n',
    );
  });

  it('json and ndjson: a price as the number sent, the declared members after data, nothing else', async () => {
    const json = await RENDERERS.json.render(view, options);
    expect(json).toBe(`{
  "data": [
    {
      "symbol": "EURUSD",
      "name": "Euro, \\"fiber\\"",
      "tick_size": 0.00001,
      "listed": "1999-01-04T00:00:00Z"
    },
    {
      "symbol": "BTCUSD",
      "name": "Bitcoin",
      "tick_size": 1e-8,
      "listed": "2010-07-17T00:00:00Z"
    },
    {
      "symbol": "XAUUSD",
      "name": "Gold",
      "tick_size": 0.10000000000000000001,
      "listed": "1975-01-01T00:00:00Z"
    }
  ],
  "note": [
    "made up"
  ]
}
`);
    expect(await RENDERERS.ndjson.render(view, options)).toBe(
      '{"symbol":"EURUSD","name":"Euro, \\"fiber\\"","tick_size":0.00001,"listed":"1999-01-04T00:00:00Z"}\n'
      + '{"symbol":"BTCUSD","name":"Bitcoin","tick_size":1e-8,"listed":"2010-07-17T00:00:00Z"}\n'
      + '{"symbol":"XAUUSD","name":"Gold","tick_size":0.10000000000000000001,"listed":"1975-01-01T00:00:00Z"}\n',
    );
  });

  it('the table: the declared columns and titles, prices aligned on the point with every digit', async () => {
    expect(await RENDERERS.table.render(view, options)).toBe(`+--------+------------------------+---------------+
| Symbol | Tick                   | Name          |
+--------+------------------------+---------------+
| EURUSD | 0.00001                | Euro, "fiber" |
| BTCUSD | 0.00000001             | Bitcoin       |
| XAUUSD | 0.10000000000000000001 | Gold          |
+--------+------------------------+---------------+
`);
    // A terminal too narrow for the columns side by side: a block per item, every field in it.
    expect(await RENDERERS.table.render(view, { ...options, columns: 40 })).toBe([
      'EURUSD', '  Tick  0.00001', '  Name  Euro, "fiber"', '',
      'BTCUSD', '  Tick  0.00000001', '  Name  Bitcoin', '',
      'XAUUSD', '  Tick  0.10000000000000000001', '  Name  Gold', '',
    ].join('\n'));
  });

  it('--fields picks and orders the columns in every format', async () => {
    const fields = ['tick_size', 'symbol'] as const;
    expect(await RENDERERS.tsv.render(view, { ...options, fields })).toBe('tick_size\tsymbol\n0.00001\tEURUSD\n1e-8\tBTCUSD\n0.10000000000000000001\tXAUUSD\n');
    expect((await RENDERERS.ndjson.render(view, { ...options, fields })).split('\n')[0]).toBe('{"tick_size":0.00001,"symbol":"EURUSD"}');
    expect(Object.keys(JSON.parse(await RENDERERS.json.render(view, { ...options, fields })).data[0])).toEqual(fields);
    expect((await RENDERERS.table.render(view, { ...options, fields })).split('\n')[1]).toBe('| Tick                   | Symbol |');
  });

  it('--fields is checked against the declaration', () => {
    expect(parseFields('Tick_Size, symbol', 'csv', INSTRUMENT_MODEL)).toEqual(['tick_size', 'symbol']);
    expect(() => parseFields('symbol,bid', 'tsv', INSTRUMENT_MODEL)).toThrow(expect.objectContaining({
      message: '--fields: unknown field "bid"',
      hint: 'valid fields: symbol, name, tick_size, listed, e.g. --fields symbol,name,tick_size',
    }));
  });

  it('the formats that stream for --watch stream it too: their header once, then each poll\'s lines', () => {
    const streaming = FORMATS.filter((format) => RENDERERS[format].stream !== undefined);
    expect(streaming.sort()).toEqual(['csv', 'ndjson', 'tsv']);
    const tsv = RENDERERS.tsv.stream!;
    const fields = RENDERERS.tsv.fields;
    expect(tsv.header(fields) + tsv.rows(data.slice(0, 1), fields, 0) + tsv.rows(data.slice(1, 2), fields, 0)).toBe(
      'symbol\tname\ttick_size\tlisted\nEURUSD\tEuro, "fiber"\t0.00001\t1999-01-04T00:00:00Z\nBTCUSD\tBitcoin\t1e-8\t2010-07-17T00:00:00Z\n',
    );
    expect(RENDERERS.ndjson.stream!.rows(data.slice(2), ['symbol'], 0)).toBe('{"symbol":"XAUUSD"}\n');
  });
});
