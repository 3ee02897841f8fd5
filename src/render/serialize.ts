// Items as text for pipes and files: JSON, NDJSON, CSV and TSV, each writing the fields it is given
// (fields.ts), in their order, for any declared resource. Prices are written with exactly the digits
// the service sent, as JSON numbers, so this builds JSON text itself instead of calling
// JSON.stringify on floats.
import { FORMULA_START } from '../shared/patterns.js';
import { printable, safeJson } from '../shared/text.js';
import type { DocumentDeclaration, DocumentMember, Field } from './fields.js';

// Symbols and timestamps are nearly always plain printable ASCII; those need no escaping, and
// skipping JSON.stringify for them matters at 10,000 quotes.
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
const q = (text: string) => (PLAIN.test(text) ? `"${text}"` : safeJson(text));
/** A JSON number, as RFC 8259 spells one. */
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?$/;

/**
 * A field's value in JSON, by its kind (fields.ts): a price as the number the service sent, a
 * decimal as its number (or null), a boolean as true or false (or null), anything else a string.
 */
function jsonValue<T>(field: Field<T>, item: T, now: number): string {
  const value = field.read(item, now);
  if (field.kind === 'decimal') return value === '' ? 'null' : value;
  if (field.kind === 'boolean' && (value === 'true' || value === 'false' || value === '')) return value === '' ? 'null' : value;
  if (value === '' && field.nullable === true) return 'null';
  return field.kind === 'price' ? value : q(value);
}

/**
 * A member other than the items: a decimal as the number it spells, anything else as JSON.stringify
 * writes it; with `members`, the objects in it (or it) have those members written as numbers.
 */
function memberValue(value: unknown, decimal: boolean, members: readonly string[] | undefined): string {
  if (decimal && members !== undefined) return withDecimals(value, new Set(members), '  ');
  if (decimal && typeof value === 'string' && JSON_NUMBER.test(value)) return value;
  return safeJson(value, 2).replaceAll('\n', '\n  ');
}

/**
 * `value` laid out as JSON.stringify(value, null, 2) does, indented by `indent`, the members named
 * in `decimals` of the objects in it (or of it) written as the numbers their text spells.
 */
function withDecimals(value: unknown, decimals: ReadonlySet<string>, indent: string): string {
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((item) => `${inner}${withDecimals(item, decimals, inner)}`).join(',\n')}\n${indent}]`;
  }
  if (value === null || typeof value !== 'object') return safeJson(value);
  const entries = Object.entries(value).filter(([, member]) => member !== undefined);
  if (entries.length === 0) return '{}';
  const written = entries.map(([name, member]) => {
    const text = decimals.has(name) && typeof member === 'string' && JSON_NUMBER.test(member)
      ? member
      : safeJson(member, 2).replaceAll('\n', `\n${inner}`);
    return `${inner}${safeJson(name)}: ${text}`;
  });
  return `{\n${written.join(',\n')}\n${indent}}`;
}

/**
 * The document, two-space indent: the layout of JSON.stringify(value, null, 2), with the prices as
 * numbers. Its members in the declared order (`{"data": [...]}` when nothing is declared; quotes:
 * `data`, `missing`, and `stale` with --max-age); a member whose value is undefined is left out, as
 * JSON.stringify leaves it. Each item is one flat string, its pieces joined (one array, filled again
 * for every item), and the items joined once, with the document's start and end: a rope grown by +=
 * over every piece (300,000 of them for 10,000 positions) lives until it is written, and every
 * scavenge before then copies it (mkt value of 10,000 positions: 11 ms less garbage collection,
 * docs/benchmarks.md); a second join would copy the megabytes of items again.
 */
export function jsonText<T, D>(document: D, declaration: DocumentDeclaration<T, D> | undefined, fields: readonly Field<T>[], now: number): string {
  const source = document as Record<string, unknown>;
  const itemsKey = declaration?.items ?? 'data';
  const keys = fields.map((field, i) => `${i === 0 ? '' : ','}\n      ${q(field.name)}: `);
  let first = true;
  const members = (into: string[], list: readonly DocumentMember<D>[] | undefined) => {
    for (const member of list ?? []) {
      const name = typeof member === 'string' ? member : member.name;
      const value = source[name];
      if (value === undefined) continue;
      into.push(first ? '\n  ' : ',\n  ', q(name), ': ', memberValue(value, typeof member !== 'string' && member.kind === 'decimal', typeof member === 'string' ? undefined : member.members));
      first = false;
    }
  };
  const items = (source[itemsKey] as readonly T[] | undefined) ?? [];
  const start = ['{'];
  members(start, declaration?.before);
  start.push(first ? '\n  ' : ',\n  ', q(itemsKey), ': [');
  first = false;
  const end = [items.length === 0 ? ']' : '\n  ]'];
  members(end, declaration?.after);
  end.push('\n}\n');
  const texts = itemTexts(items, fields, keys, '\n    {', '\n    }', now);
  if (texts.length === 0) return start.join('') + end.join('');
  texts[0] = start.join('') + texts[0]!;
  texts[texts.length - 1] += end.join('');
  return texts.join(',');
}

/**
 * Each item as one flat string: `open`, each field's key (the same in every item) and value, then
 * `close`, joined from one array filled again for every item.
 */
function itemTexts<T>(items: readonly T[], fields: readonly Field<T>[], keys: readonly string[], open: string, close: string, now: number): string[] {
  const pieces = [open, ...keys.flatMap((key) => [key, '']), close];
  const texts: string[] = new Array(items.length);
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    for (let f = 0; f < fields.length; f++) pieces[2 + 2 * f] = jsonValue(fields[f]!, item, now);
    texts[i] = pieces.join('');
  }
  return texts;
}

/** One item per line, each line one flat string (as jsonText's items). */
export function ndjsonText<T>(data: readonly T[], fields: readonly Field<T>[], now: number): string {
  const keys = fields.map((field, i) => `${i === 0 ? '{' : ','}${q(field.name)}:`);
  return itemTexts(data, fields, keys, '', '}\n', now).join('');
}

const csvField = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/**
 * A CSV or TSV cell as written, never one a spreadsheet would run: a cell that starts as a formula
 * does (=, +, - or @: OWASP's "CSV injection"; tab and carriage return, which OWASP lists too,
 * printable has removed) and is not a number (a negative price, quantity or P&L starts with - and
 * is read as the number it is). What mkt writes cannot start so: no symbol does (patterns.ts: mkt
 * refuses one wherever it reads one, and leaves out a quote the service sends for one), currencies
 * are codes, and statuses, timestamps and ages are mkt's own words or digits. One that does is a
 * fault of mkt's: the whole output is refused, as an internal error, rather than written with the
 * cell rewritten (a leading apostrophe would change the data) or left for a spreadsheet to run.
 */
function cell<T>(field: Field<T>, item: T, now: number): string {
  const text = printable(field.read(item, now));
  if (FORMULA_START.test(text) && !JSON_NUMBER.test(text)) {
    throw new Error(`the ${field.name} ${safeJson(text.slice(0, 40))} would start a formula in a CSV or TSV cell, which mkt never writes`);
  }
  return text;
}

/** RFC 4180: CRLF line ends, fields with a comma, quote or line break quoted. The header line. */
export function csvHeader(names: readonly string[]): string {
  return `${names.join(',')}\r\n`;
}

/**
 * CSV rows, without the header: what a watch appends at each poll. Text cells go through printable
 * (shared/text.ts), as in TSV and the table: no control characters, and nothing any reader takes for
 * a line break, so a row stays one line (JSON and NDJSON escape these instead); and no cell starts a
 * formula (cell).
 */
export function csvRows<T>(data: readonly T[], fields: readonly Field<T>[], now: number): string {
  let text = '';
  for (const item of data) text += `${fields.map((field) => csvField(cell(field, item, now))).join(',')}\r\n`;
  return text;
}

/** Tab-separated with a header line: no colour, no box, one item per line. */
export function tsvHeader(names: readonly string[]): string {
  return `${names.join('\t')}\n`;
}

export function tsvRows<T>(data: readonly T[], fields: readonly Field<T>[], now: number): string {
  let text = '';
  for (const item of data) text += `${fields.map((field) => cell(field, item, now)).join('\t')}\n`;
  return text;
}
