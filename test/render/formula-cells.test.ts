// The CSV and TSV writers' own guard against cells a spreadsheet would run (OWASP's CSV injection):
// what mkt reads can no longer hold one (test/cli/commands/formula-cells.test.ts), so a cell that would start
// a formula at the writer is a fault of mkt's, and the text is refused whole rather than written with
// the cell rewritten or left to run. A number that starts with - is a number, and is written.
import { describe, expect, it } from 'vitest';
import type { Quote } from '../../src/api/types.js';
import { renderersFor } from '../../src/render/formats.js';
import { QUOTE_MODEL } from '../../src/render/quote-model.js';
import { quote } from '../helpers/quotes.js';

const renderers = renderersFor(QUOTE_MODEL);
const options = { color: false, now: Date.parse('2025-01-06T14:30:01.000Z'), columns: undefined, ascii: false };
const render = (format: 'csv' | 'tsv', data: Quote[]) => renderers[format].render({ data, missing: [] }, options);

describe('no CSV or TSV cell starts a formula', () => {
  it.each(['csv', 'tsv'] as const)('%s: refuses the whole text when a cell would start one, naming the field', (format) => {
    for (const symbol of ['=1+1', '+1', '-A', '@SUM(1)', '\u202e=1+1']) {
      expect(() => render(format, [quote('EURUSD'), quote(symbol)]), symbol).toThrow(/^the symbol "[^"]*" would start a formula in a CSV or TSV cell, which mkt never writes$/);
      expect(() => renderers[format].stream!.rows([quote(symbol)], ['symbol', 'bid'], options.now), symbol).toThrow(/would start a formula/);
    }
    // A field other than the symbol, as --fields orders them: a price that is not a number.
    expect(() => render(format, [quote('EURUSD', '+1.08505')])).toThrow(/^the bid "\+1\.08505" would start a formula/);
  });

  it.each(['csv', 'tsv'] as const)('%s: writes a negative number as the number it is, and =, +, - or @ after the first character', (format) => {
    const text = render(format, [quote('BRK-B', '-1.5', '-1e-3', '-0.7505'), quote('A=B+C@D', '1e+5', '2E+5', '150000')]) as string;
    const separator = format === 'csv' ? ',' : '\t';
    expect(text).toContain(['BRK-B', '-1.5', '-1e-3', '-0.7505'].join(separator));
    expect(text).toContain(['A=B+C@D', '1e+5', '2E+5', '150000'].join(separator));
  });

  it('leaves JSON and NDJSON alone: a JSON string is no cell', () => {
    expect(renderers.ndjson.render({ data: [quote('=1+1')], missing: [] }, options)).toContain('"symbol":"=1+1"');
  });
});
