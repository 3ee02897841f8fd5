// --columns FIELD=HEADER,...: which column of the positions file holds each of mkt's fields, for the
// library's `columns` option. A header holding `,` or `=` is written in double quotes (a quote in it
// doubled, as CSV writes one): `--columns 'cost="Cost, avg",symbol=Ticker'`. Field names are mkt's,
// in any case; `FIELD=` with no header leaves the field out (a column of its own name is then
// ignored). Whether each header is in the file is the library's to say, once it has the header.
import type { ColumnMapping } from '../../api/index.js';
import { POSITION_FIELDS, type PositionField } from '../../api/internal.js';
import { printable } from '../../shared/text.js';
import { UsageError } from '../errors/errors.js';

const EXAMPLE = "e.g. --columns 'symbol=Ticker,quantity=Shares,cost=Avg Cost'";

export function parseColumnsFlag(text: string): ColumnMapping {
  const mapping: ColumnMapping = {};
  let i = 0;
  const fail = (problem: string, hint = `write FIELD=HEADER,..., the fields being ${POSITION_FIELDS.join(', ')}; a header holding , or = in double quotes: cost="Cost, avg"`): never => {
    throw new UsageError(`--columns ${printable(text, { max: 80, quote: true })}: ${problem}`, hint);
  };
  if (text.trim() === '') fail('names no column', `${EXAMPLE}`);
  while (i <= text.length) {
    const equals = text.indexOf('=', i);
    const comma = text.indexOf(',', i);
    if (equals === -1 || (comma !== -1 && comma < equals)) fail(`${printable(text.slice(i, comma === -1 ? undefined : comma).trim(), { max: 40, quote: true })} is not FIELD=HEADER`);
    const name = text.slice(i, equals).trim().toLowerCase();
    if (!(POSITION_FIELDS as readonly string[]).includes(name)) {
      fail(`${printable(name, { max: 40, quote: true })} is not one of mkt's fields`, `the fields are ${POSITION_FIELDS.join(', ')}: ${EXAMPLE}`);
    }
    const field = name as PositionField;
    if (mapping[field] !== undefined) fail(`maps ${field} twice`);
    i = equals + 1;
    while (text[i] === ' ') i++;
    let header: string;
    if (text[i] === '"') {
      header = '';
      for (i++; ; i++) {
        if (i >= text.length) fail(`the quoted header of ${field} is never closed`);
        if (text[i] === '"') {
          if (text[i + 1] !== '"') break;
          i++;
        }
        header += text[i];
      }
      i++;
      while (text[i] === ' ') i++;
      if (i < text.length && text[i] !== ',') fail(`text follows the quoted header of ${field}; a quote inside it is written twice ("")`);
    } else {
      const end = text.indexOf(',', i);
      header = text.slice(i, end === -1 ? undefined : end);
      if (header.includes('=')) fail(`the header of ${field} holds =: write it in double quotes, ${field}="${printable(header.trim(), { max: 40 })}"`);
      i = end === -1 ? text.length : end;
    }
    // One column holds one field: the library would refuse it too, in its own words.
    const key = header.trim().replace(/[\s_]+/g, ' ').toLowerCase();
    const other = Object.entries(mapping).find(([, name]) => name !== '' && name.replace(/[\s_]+/g, ' ').toLowerCase() === key);
    if (key !== '' && other !== undefined) fail(`maps both ${other[0]} and ${field} to ${printable(header.trim(), { max: 40, quote: true })}; a column holds one field`);
    mapping[field] = header.trim();
    i++;
  }
  return mapping;
}
