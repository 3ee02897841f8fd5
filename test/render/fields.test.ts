// One output model: every format reads the fields declared in src/render/fields.ts, in their order.
import { describe, expect, it } from 'vitest';
import type { Quote } from '../../src/api/types.js';
import { FORMATS, renderersFor } from '../../src/render/formats.js';
import { QUOTE_FIELDS, QUOTE_SENT_FIELDS as SENT_FIELDS, QUOTE_TABLE_FIELDS as TABLE_FIELDS } from '../../src/render/quote-fields.js';
import { QUOTE_MODEL } from '../../src/render/quote-model.js';

const quote: Quote = { symbol: 'EURUSD', bid: '1.08505', ask: '1.08508', mid: '1.085065', timestamp: '2026-11-22T12:00:00.000Z' };
const now = Date.parse('2026-11-22T12:00:02.000Z');
const options = { color: false, now, columns: undefined, ascii: true };
const RENDERERS = renderersFor(QUOTE_MODEL);

describe('the declared fields', () => {
  it('every format has one renderer, which writes its declared fields in order', async () => {
    expect(Object.keys(RENDERERS).sort()).toEqual([...FORMATS].sort());
    const text = async (format: keyof typeof RENDERERS) => RENDERERS[format].render({ data: [quote], missing: [] }, options);
    expect((await text('csv')).split('\r\n')[0]).toBe(SENT_FIELDS.join(','));
    expect((await text('tsv')).split('\n')[0]).toBe(SENT_FIELDS.join('\t'));
    expect(Object.keys(JSON.parse(await text('ndjson')))).toEqual(SENT_FIELDS);
    expect(Object.keys(JSON.parse(await text('json')).data[0])).toEqual(SENT_FIELDS);
    const titles = (await text('table')).split('\n')[1]!.split('|').map((cell) => cell.trim()).filter((cell) => cell !== '');
    expect(titles).toEqual(TABLE_FIELDS.map((name) => QUOTE_FIELDS[name].title));
  });

  it('a price is written as sent in every format; the derived ones are computed exactly', () => {
    expect(QUOTE_FIELDS.spread.read(quote, now)).toBe('0.00003');
    expect(QUOTE_FIELDS.age.read(quote, now)).toBe('2s');
    expect(SENT_FIELDS.every((name) => !QUOTE_FIELDS[name].derived)).toBe(true);
  });

  it('the formats that stream for --watch: ndjson, csv and tsv, with their header once', () => {
    expect(FORMATS.filter((format) => RENDERERS[format].stream !== undefined).sort()).toEqual(['csv', 'ndjson', 'tsv']);
    expect(RENDERERS.csv.stream!.header(SENT_FIELDS) + RENDERERS.csv.stream!.rows([quote], SENT_FIELDS, now)).toBe(RENDERERS.csv.render({ data: [quote], missing: [] }, options));
  });
});
