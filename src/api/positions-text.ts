// A positions file's text to positions: CSV or TSV with a header row (RFC 4180: quoted fields,
// doubled quotes, CRLF or LF), or JSON, an array of position objects read digit for digit. The
// kind comes from the file name's extension (.csv, .tsv, .json, any case), else from the text: a
// first non-blank character `[` or `{` is JSON, a tab in the header line is TSV, anything else CSV.
// A UTF-8 byte-order mark is ignored; blank lines are skipped.
import { parseJsonExact, withoutBom } from './json.js';
import { PositionsError, shownValue } from './positions-error.js';
import {
  fieldName, POSITION_FIELDS, positionsFromObjects, positionsFromRecords, type Position, type PositionField, type PositionRecord, type PositionsOptions,
} from './positions.js';
import { MAX_POSITIONS_FILE_BYTES } from '../shared/limits.js';

export type PositionsFormat = 'csv' | 'tsv' | 'json';

export interface ParsePositionsOptions extends PositionsOptions {
  /** The kind of text; without it, from `source`'s extension, else from the text. */
  format?: PositionsFormat;
}

/** The kind of positions text, from a file name's extension, else from the text itself. */
export function detectPositionsFormat(text: string, fileName?: string): PositionsFormat {
  const extension = /\.(csv|tsv|json)$/i.exec(fileName ?? '')?.[1];
  if (extension !== undefined) return extension.toLowerCase() as PositionsFormat;
  const body = withoutBom(text);
  const first = /\S/.exec(body)?.[0];
  if (first === '[' || first === '{') return 'json';
  const start = body.search(/[^\r\n]/);
  const end = body.slice(Math.max(0, start)).search(/[\r\n]/);
  const header = start === -1 ? '' : end === -1 ? body.slice(start) : body.slice(start, start + end);
  return header.includes('\t') ? 'tsv' : 'csv';
}

/**
 * Positions from a file's text, checked: any problem is a PositionsError naming the source and
 * the line (CSV, TSV) or the position (JSON), before anything is fetched.
 */
export function parsePositions(text: string, options: ParsePositionsOptions = {}): Position[] {
  const { source } = options;
  if (Buffer.byteLength(text, 'utf8') > MAX_POSITIONS_FILE_BYTES) {
    throw new PositionsError(`is larger than ${MAX_POSITIONS_FILE_BYTES / 1024 / 1024} MiB, the most positions text read`, { reason: 'too-large', source });
  }
  const body = withoutBom(text);
  if (body.trim() === '') throw new PositionsError('is empty: no header and no positions', { reason: 'empty', source });
  const format = options.format ?? detectPositionsFormat(body, source);
  if (format === 'json') return positionsFromObjects(parseJsonArray(body, source), options);
  return positionsFromRecords(delimitedRecords(body, format === 'tsv' ? '\t' : ',', source), options);
}

function parseJsonArray(body: string, source: string | undefined): unknown[] {
  let value: unknown;
  try {
    value = parseJsonExact(body);
  } catch (error) {
    const position = Number(/position (\d+)/.exec((error as Error).message)?.[1]);
    const line = Number.isInteger(position) ? lineAt(body, position) : undefined;
    throw new PositionsError(`is not valid JSON: ${(error as Error).message}`, { reason: 'syntax', source, line });
  }
  if (!Array.isArray(value)) {
    throw new PositionsError('is JSON, but not an array of positions such as [{"symbol": "AAPL", "quantity": 10, "currency": "USD"}]', { reason: 'syntax', source });
  }
  return value;
}

/** The 1-based line of character `index` of `text`. */
function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** The header and rows of CSV or TSV text as position records, each with its line. */
function delimitedRecords(body: string, delimiter: ',' | '\t', source: string | undefined): PositionRecord[] {
  const rows = readDelimited(body, delimiter, source);
  const header = rows[0];
  if (header === undefined) throw new PositionsError('is empty: no header and no positions', { reason: 'empty', source });
  const fields = headerFields(header, delimiter, source);
  const at = { symbol: fields.indexOf('symbol'), quantity: fields.indexOf('quantity'), currency: fields.indexOf('currency'), cost: fields.indexOf('cost') };
  const records: PositionRecord[] = new Array(rows.length - 1);
  for (let r = 1; r < rows.length; r++) {
    const { cells, line } = rows[r]!;
    // Fewer cells than the header leave the last columns empty (EUR,2500.75,EUR under
    // symbol,quantity,currency,cost); more have no column to go in.
    if (cells.length > fields.length) {
      throw new PositionsError(`has ${cells.length} fields, the header ${fields.length}`, {
        reason: 'cells', source, line, hint: delimiter === ',' ? 'a field holding a comma must be quoted: "1,5"' : undefined,
      });
    }
    // One object shape for every row (a keyed store per cell would not be).
    const values = { symbol: cells[at.symbol], quantity: cells[at.quantity], currency: at.currency < 0 ? undefined : cells[at.currency], cost: at.cost < 0 ? undefined : cells[at.cost] };
    records[r - 1] = { values, line };
  }
  return records;
}

function headerFields(header: DelimitedRow, delimiter: string, source: string | undefined): PositionField[] {
  const { cells, line } = header;
  const fields: PositionField[] = [];
  for (let c = 0; c < cells.length; c++) {
    const name = cells[c]!.trim();
    const where = { reason: 'header' as const, source, line, field: name };
    if (name === '') throw new PositionsError(`the header's column ${c + 1} has no name`, where);
    const field = fieldName(name);
    if (field === undefined) {
      const kind = delimiter === '\t' ? 'TSV' : 'CSV';
      throw new PositionsError(`the header names a column ${shownValue(name)} that a position does not have; the columns are ${POSITION_FIELDS.join(', ')}`, {
        ...where, hint: `a positions file is ${kind} with the header symbol${delimiter}quantity${delimiter}currency${delimiter}cost (currency and cost optional)`,
      });
    }
    if (fields.includes(field)) throw new PositionsError(`the header names ${field} twice`, where);
    fields.push(field);
  }
  for (const required of ['symbol', 'quantity'] as const) {
    if (!fields.includes(required)) {
      throw new PositionsError(`the header has no ${required} column (it has ${fields.join(', ')})`, { reason: 'header', source, line, field: required });
    }
  }
  return fields;
}

interface DelimitedRow {
  cells: string[];
  /** The line the row starts on. */
  line: number;
}

/**
 * RFC 4180 rows: fields separated by `delimiter`, a field in double quotes may hold the delimiter,
 * line breaks and doubled quotes (""); rows end at CRLF, LF or CR. Cells are trimmed of white
 * space; rows of nothing but white space are skipped.
 */
function readDelimited(text: string, delimiter: string, source: string | undefined): DelimitedRow[] {
  // Without a double quote there is no quoting to read: the platform's split does the same, and
  // fast from the first call (a short run's character loop is still being compiled).
  if (!text.includes('"')) return splitDelimited(text, delimiter);
  const rows: DelimitedRow[] = [];
  const separator = delimiter.charCodeAt(0);
  const n = text.length;
  let i = 0;
  let line = 1;
  while (i < n) {
    const start = line;
    const cells: string[] = [];
    for (;;) {
      let cell: string;
      // White space before an opening quote is allowed, as after a closing one.
      let open = i;
      while (open < n && (text[open] === ' ' || (text[open] === '\t' && delimiter !== '\t'))) open++;
      if (text.charCodeAt(open) === 0x22) {
        i = open;
        const opened = line;
        cell = '';
        i++;
        for (;;) {
          const close = text.indexOf('"', i);
          if (close === -1) {
            throw new PositionsError(`a quoted field opened on line ${opened} is never closed`, { reason: 'syntax', source, line: opened, hint: 'end the field with a double quote; a quote inside it is written twice ("")' });
          }
          const chunk = text.slice(i, close);
          line += countBreaks(chunk);
          cell += chunk;
          if (text.charCodeAt(close + 1) === 0x22) {
            cell += '"';
            i = close + 2;
          } else {
            i = close + 1;
            break;
          }
        }
        // Only white space may stand between the closing quote and the field's end.
        while (i < n && (text[i] === ' ' || (text[i] === '\t' && delimiter !== '\t'))) i++;
        if (i < n && text[i] !== delimiter && text[i] !== '\n' && text[i] !== '\r') {
          throw new PositionsError('has text after a closing quote; a quote inside a quoted field is written twice ("")', { reason: 'syntax', source, line });
        }
      } else {
        let end = i;
        while (end < n) {
          const c = text.charCodeAt(end);
          if (c === separator || c === 0x0a || c === 0x0d) break;
          end++;
        }
        cell = text.slice(i, end);
        if (cell.includes('"')) {
          throw new PositionsError('has a double quote inside an unquoted field; quote the whole field and write the quote twice ("a""b")', { reason: 'syntax', source, line });
        }
        i = end;
      }
      cells.push(cell.trim());
      if (i >= n) break;
      const c = text[i];
      i++;
      if (c === delimiter) continue;
      if (c === '\r' && text[i] === '\n') i++;
      line++;
      break;
    }
    if (cells.length > 1 || cells[0] !== '') rows.push({ cells, line: start });
  }
  return rows;
}

/** readDelimited for text with no double quote: lines at CRLF, LF or CR, cells at the delimiter, trimmed. */
function splitDelimited(text: string, delimiter: string): DelimitedRow[] {
  const rows: DelimitedRow[] = [];
  const lines = text.split(/\r\n|\n|\r/);
  for (let index = 0; index < lines.length; index++) {
    const cells = lines[index]!.split(delimiter);
    for (let c = 0; c < cells.length; c++) cells[c] = cells[c]!.trim();
    if (cells.length > 1 || cells[0] !== '') rows.push({ cells, line: index + 1 });
  }
  return rows;
}

/** Line breaks in `text`: CRLF, LF and CR each count once. */
function countBreaks(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) count++;
    else if (c === 0x0d && text.charCodeAt(i + 1) !== 0x0a) count++;
  }
  return count;
}
