// A field of kind boolean (fields.ts): a JSON boolean in json and ndjson (null when the item has no
// value), the words true and false in tsv, csv and the table. The resource is made up for the test.
import { describe, expect, it } from 'vitest';
import type { Field, FieldSet } from '../../src/render/fields.js';
import { renderersFor } from '../../src/render/formats.js';

interface Switch {
  id: string;
  on: boolean | undefined;
}

const ON: Field<Switch, 'on'> = { name: 'on', title: 'On', kind: 'boolean', derived: false, align: 'left', read: (item) => (item.on === undefined ? '' : String(item.on)) };

const SWITCHES: FieldSet<Switch, 'id' | 'on'> = {
  fields: {
    id: { name: 'id', title: 'Id', kind: 'text', derived: false, align: 'left', read: (item) => item.id },
    on: ON,
  },
  names: ['id', 'on'],
  sent: ['id', 'on'],
  table: ['id', 'on'],
};

const formats = renderersFor(SWITCHES);
const options = { color: false, now: 0, columns: undefined, ascii: true };
const document = { data: [{ id: 'a', on: true }, { id: 'b', on: false }, { id: 'c', on: undefined }] };

describe('a boolean field', () => {
  it('is a JSON boolean in json, null where the item has none', async () => {
    const text = await formats.json.render(document, options);
    expect(text).toContain('"on": true\n');
    expect(text).toContain('"on": false\n');
    expect(JSON.parse(text)).toEqual({ data: [{ id: 'a', on: true }, { id: 'b', on: false }, { id: 'c', on: null }] });
  });

  it('is a JSON boolean in ndjson', async () => {
    expect(await formats.ndjson.render(document, options)).toBe('{"id":"a","on":true}\n{"id":"b","on":false}\n{"id":"c","on":null}\n');
  });

  it('is the word true or false in tsv and csv, an empty cell where the item has none', async () => {
    expect(await formats.tsv.render(document, options)).toBe('id\ton\na\ttrue\nb\tfalse\nc\t\n');
    expect(await formats.csv.render(document, options)).toBe('id,on\r\na,true\r\nb,false\r\nc,\r\n');
  });

  it('is the word true or false in the table', async () => {
    const table = await formats.table.render(document, options);
    expect(table).toMatch(/\| a +\| true +\|/);
    expect(table).toMatch(/\| b +\| false +\|/);
  });

  it('is a string in JSON when a declaration reads something else for it', async () => {
    const odd: FieldSet<Switch, 'on'> = { ...SWITCHES, fields: { on: { ...ON, read: () => 'yes' } }, names: ['on'], sent: ['on'], table: ['on'] };
    expect(await renderersFor(odd).ndjson.render({ data: [{ id: 'a', on: true }] }, options)).toBe('{"on":"yes"}\n');
  });
});
