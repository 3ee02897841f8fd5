// Delimited text (CSV, TSV, `;`) as rows of cells, RFC 4180: fields separated by a delimiter, a
// field in double quotes may hold the delimiter, line breaks and doubled quotes (""); rows end at
// CRLF, LF or CR, and each row keeps the line it starts on, for messages. As a list, or one row at
// a time.
import { PositionsError } from './positions-error.js';

export interface DelimitedRow {
  cells: string[];
  /** The line the row starts on. */
  line: number;
}

/**
 * RFC 4180 rows: fields separated by `delimiter`, a field in double quotes may hold the delimiter,
 * line breaks and doubled quotes (""); rows end at CRLF, LF or CR. Cells are trimmed of white
 * space; rows of nothing but white space are skipped.
 */
export function readDelimited(text: string, delimiter: string, source: string | undefined, firstLine = 1): DelimitedRow[] {
  const rows: DelimitedRow[] = [];
  eachDelimitedRow(text, delimiter, source, firstLine, (cells, line) => rows.push({ cells, line }));
  return rows;
}

/**
 * readDelimited's rows handed to `visit` one at a time, as they are read: a long file's rows are
 * never all held at once, and each is garbage as soon as its position is made.
 */
export function eachDelimitedRow(text: string, delimiter: string, source: string | undefined, firstLine: number, visit: (cells: string[], line: number) => void): void {
  // Without a double quote there is no quoting to read: the platform's split does the same, and
  // fast from the first call (a short run's character loop is still being compiled).
  if (!text.includes('"')) return splitDelimited(text, delimiter, firstLine, visit);
  const separator = delimiter.charCodeAt(0);
  const n = text.length;
  let i = 0;
  let line = firstLine;
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
    if (cells.length > 1 || cells[0] !== '') visit(cells, start);
  }
}

/** eachDelimitedRow for text with no double quote: lines at CRLF, LF or CR, cells at the delimiter, trimmed. */
function splitDelimited(text: string, delimiter: string, firstLine: number, visit: (cells: string[], line: number) => void): void {
  const lines = text.split(/\r\n|\n|\r/);
  for (let index = 0; index < lines.length; index++) {
    const cells = lines[index]!.split(delimiter);
    for (let c = 0; c < cells.length; c++) cells[c] = cells[c]!.trim();
    if (cells.length > 1 || cells[0] !== '') visit(cells, firstLine + index);
  }
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
