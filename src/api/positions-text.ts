// A positions file's text (or bytes) to positions: delimited text with a header row (`,`, `;` or
// tab, RFC 4180 quoting), or JSON, an array of position objects read digit for digit. The kind
// comes from the file name's extension (.csv, .tsv, .json, any case), else from the text: a first
// non-blank character `[` or `{` is JSON, anything else delimited text. A broker's export is read
// as it comes: the header is the first line that names a symbol and a quantity column, and the
// delimiter is the one that makes it so; lines before it (a title, an "as of" line) are skipped,
// rows that are totals or notes wherever they stand, and columns mkt does not use, each said once
// in a warning. A byte-order mark is read, blank lines are skipped.
import { types } from 'node:util';
import { checkType, describe, invalid, shown } from './check-options.js';
import { eachDelimitedRow, readDelimited, type DelimitedRow } from './delimited-rows.js';
import { withoutBom } from './json.js';
import { checkColumnMapping, planColumns, type ColumnPlan } from './positions-columns.js';
import { decodePositions } from './positions-decode.js';
import { PositionsError, ProblemList, shownValue } from './positions-error.js';
import { readJsonPositions } from './positions-json.js';
import { isPlaceholder } from './positions-number.js';
import { checkPositionsOptions, plainPosition, positionReader, warnIgnored, type Position, type PositionField, type PositionRecord, type PositionsOptions } from './positions.js';
import { MAX_POSITIONS_FILE_BYTES } from '../shared/limits.js';
import { SYMBOL_PATTERN } from '../shared/patterns.js';

export type PositionsFormat = 'csv' | 'tsv' | 'json';

export interface ParsePositionsOptions extends PositionsOptions {
  /** The kind of text; without it, from `source`'s extension, else from the text. csv and tsv alike take the delimiter from the header line. */
  format?: PositionsFormat;
  /**
   * How a delimited file writes its numbers: true, `1.000,50` (a decimal comma, thousands grouped by
   * points); false, `1,000.50`; undefined, `1,000.50`, except that a `;` file's number with a comma,
   * or shaped like `1.000`, is refused until this says which.
   */
  decimalComma?: boolean;
  /**
   * The encoding of bytes (a Uint8Array or Buffer) without a byte-order mark, as the WHATWG
   * Encoding standard labels it: `utf-8` (the default), `cp1252`, `utf-16le`... Text given as a
   * string is already decoded: an encoding with it is an error.
   */
  encoding?: string;
}

/** The delimiters a header line may use, in the order tried. */
const DELIMITERS = [',', ';', '\t'] as const;

const FORMATS: readonly PositionsFormat[] = ['csv', 'tsv', 'json'];

const OPERATION = 'parsePositions';

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
 * Positions from a file's text, or its bytes (decoded as `encoding` says), checked: the problems are
 * a PositionsError naming the source and, for each, the line (or the position of a JSON array),
 * before anything is fetched. What is ignored or skipped goes to `onWarning`.
 */
export function parsePositions(input: string | Uint8Array, options: ParsePositionsOptions = {}): Position[] {
  checkParseArguments(input, options);
  const { source } = options;
  const size = typeof input === 'string' ? Buffer.byteLength(input, 'utf8') : input.byteLength;
  if (size > MAX_POSITIONS_FILE_BYTES) {
    throw new PositionsError(`is larger than ${MAX_POSITIONS_FILE_BYTES / 1024 / 1024} MiB, the most positions text read`, { reason: 'too-large', source });
  }
  const body = withoutBom(typeof input === 'string' ? input : decodePositions(input, options.encoding, source));
  const nul = body.indexOf('\0');
  if (nul !== -1) {
    throw new PositionsError('holds a NUL character: it may be UTF-16 without a byte-order mark', {
      reason: 'encoding', source, line: lineOf(body, nul), option: 'encoding', hint: 'read it as utf-16le (or utf-16be), the encoding it is in',
    });
  }
  if (body.trim() === '') throw new PositionsError('is empty: no header and no positions', { reason: 'empty', source });
  const format = options.format ?? detectPositionsFormat(body, source);
  if (format === 'json') return readJsonPositions(body, options);
  return readDelimitedPositions(body, options);
}

/**
 * parsePositions' arguments, checked once, before anything is read: a program may pass anything,
 * and a wrong type would otherwise be a TypeError from deep inside, or a value of the wrong kind
 * (decimalComma: 'yes') read as if it were not given. The options first: the input's error names
 * the source.
 */
function checkParseArguments(input: unknown, options: ParsePositionsOptions): void {
  checkPositionsOptions(options, OPERATION);
  const { format, decimalComma, encoding } = options as Partial<Record<keyof ParsePositionsOptions, unknown>>;
  if (format !== undefined && !(FORMATS as readonly unknown[]).includes(format)) {
    const expected = '"csv", "tsv" or "json"';
    throw invalid(`format must be ${expected}, not ${typeof format === 'string' ? shown(format) : describe(format)}`, { option: 'format', operation: OPERATION, expected });
  }
  checkType('decimalComma', decimalComma, 'boolean', 'true or false', OPERATION);
  checkType('encoding', encoding, 'string', 'a string (an encoding\'s label such as "cp1252")', OPERATION);
  // By the platform's test, not instanceof: bytes from another realm (a vm context, a worker) are bytes too.
  if (typeof input !== 'string' && !types.isUint8Array(input)) {
    throw new PositionsError(`positions must be text (a string) or bytes (a Uint8Array or Buffer), not ${describe(input)}`, { reason: 'syntax', source: options.source });
  }
  if (typeof input === 'string' && encoding !== undefined) {
    throw invalid('encoding applies to bytes (a Uint8Array or Buffer): a string is text already decoded', { option: 'encoding', operation: OPERATION });
  }
}

function lineOf(text: string, index: number): number {
  return text.slice(0, index).split(/\r\n|\n|\r/).length;
}

interface Header {
  cells: string[];
  line: number;
  delimiter: string;
  plan: ColumnPlan;
  /** Where the text after the header's line starts. */
  next: number;
}

/** The positions of delimited text: the header found, the rows read, what was skipped said. */
function readDelimitedPositions(body: string, options: ParsePositionsOptions): Position[] {
  const { source } = options;
  const mapping = checkColumnMapping(options.columns);
  const header = findHeader(body, mapping, source);
  const { plan, delimiter } = header;
  const problems = new ProblemList(source);
  const at = plan.at;
  const where = { reason: 'header' as const, line: header.line, option: 'columns' as const };
  for (const { field, names } of plan.twice) problems.add({ ...where, field, message: `the header names ${field} twice: ${names.map(shownValue).join(' and ')}` });
  for (const field of plan.unmapped) {
    problems.add({ ...where, field, message: `the header has no column ${shownValue(mapping.get(field)!)}, which columns maps to ${field}; it has ${header.cells.map(shownValue).join(', ')}` });
  }
  if (options.onWarning !== undefined && body.slice(0, header.next).split(/\r\n|\n|\r/).slice(0, header.line - 1).some((line) => line.trim() !== '')) {
    const before = header.line - 1;
    options.onWarning({
      code: 'skipped_lines', message: `skipped ${before} line${before === 1 ? '' : 's'} before the header on line ${header.line}`, lines: Array.from({ length: before }, (_, i) => i + 1),
    });
  }
  if (plan.ignored.length > 0) warnIgnored(options, plan.ignored, plan.costLike, 'columns');

  // No currency column and no default: said once, of the header, rather than of every row (and
  // only of a file with rows).
  const noCurrency = at.currency === undefined && options.defaultCurrency === undefined;
  const style = { cell: true, decimalComma: options.decimalComma, delimiter };
  const reader = positionReader(options, { style, problems, noCurrencySaid: noCurrency });
  let records = 0;
  const add = (record: PositionRecord) => {
    if (records++ === 0 && noCurrency) {
      problems.add({
        reason: 'no-currency', line: header.line, field: 'currency', option: 'defaultCurrency',
        message: 'the header has no currency column, and no default currency was given',
        hint: 'give each position a currency (a currency column), or a default currency for those without one',
      });
    }
    reader.add(record);
  };
  const skipped: Array<{ line: number; label: string }> = [];
  const headerKey = header.cells.join('\u0000').toLowerCase();
  const headerSymbol = header.cells[at.symbol!]!.toLowerCase();
  const cell = (cells: string[], field: PositionField) => {
    const index = at[field];
    return index === undefined ? undefined : cells[index];
  };
  // Each row becomes a position as it is read: the rows are never all held at once.
  eachDelimitedRow(body.slice(header.next), delimiter, source, header.line + 1, (cells, line) => {
    if (cells.every((text) => text === '')) return;
    const symbol = cell(cells, 'symbol') ?? '';
    if (isPlaceholder(cell(cells, 'quantity') ?? '') && (isPlaceholder(symbol) || isLabel(symbol))) {
      skipped.push({ line, label: isPlaceholder(symbol) ? cells.find((text) => !isPlaceholder(text)) ?? '' : symbol });
      return;
    }
    if (symbol.length === headerSymbol.length && symbol.toLowerCase() === headerSymbol && cells.join('\u0000').toLowerCase() === headerKey) {
      skipped.push({ line, label: 'the header again' });
      return;
    }
    // Fewer cells than the header leave the last columns empty (EUR,2500.75,EUR under
    // symbol,quantity,currency,cost); more have no column to go in, unless they are empty.
    if (cells.length > header.cells.length && cells.slice(header.cells.length).some((text) => text !== '')) {
      add({
        values: {}, line, problems: [{
          reason: 'cells', line, message: `has ${cells.length} fields, the header ${header.cells.length}`,
          hint: delimiter === '\t' ? undefined : `a field holding a ${delimiter === ',' ? 'comma' : 'semicolon'} must be quoted: "1${delimiter}5"`,
        }],
      });
      return;
    }
    const symbolCell = cells[at.symbol!];
    const quantityCell = cells[at.quantity!];
    const currencyCell = cell(cells, 'currency');
    const costCell = cell(cells, 'cost');
    const costTotalCell = cell(cells, 'cost_total');
    const position = plainPosition(symbolCell, quantityCell, currencyCell, costCell, costTotalCell, line, style, options.defaultCurrency);
    if (position !== undefined) reader.push(position);
    // One object shape for every row (a keyed store per cell would not be).
    else add({ values: { symbol: symbolCell, quantity: quantityCell, currency: currencyCell, cost: costCell, cost_total: costTotalCell }, line });
  });
  if (skipped.length > 0 && options.onWarning !== undefined) {
    const listed = skipped.slice(0, 10).map(({ line, label }) => (label === '' ? `line ${line}` : `line ${line} (${label.length > 40 ? `${label.slice(0, 40)}…` : label})`));
    const more = skipped.length - listed.length;
    options.onWarning({
      code: 'skipped_rows',
      message: `skipped ${skipped.length} row${skipped.length === 1 ? '' : 's'} with no quantity that ${skipped.length === 1 ? 'is a total or a note' : 'are totals or notes'}: ${listed.join(', ')}${more > 0 ? ` and ${more} more` : ''}`,
      lines: skipped.map(({ line }) => line),
      labels: skipped.map(({ label }) => label),
    });
  }
  return reader.finish();
}

/** A total's label in the languages of the exports mkt has met: Total, Subtotal, Summe, Gesamt, Somme, Totaal, Totale, Suma. */
const TOTAL = /\b(?:sub)?totals?\b|^(?:sum|summe|zwischensumme|gesamt|somme|totaal|totale|suma)\b/i;

/** Text where a symbol would be that labels a row instead (`Account Total`, `Cash & Cash Investments`, `Total`). */
function isLabel(text: string): boolean {
  return !SYMBOL_PATTERN.test(text) || TOTAL.test(text);
}

/**
 * The first line that names a symbol and a quantity column, read with the delimiter that makes it
 * so (the one giving more columns, should two). A line that is not delimited text (a title with a
 * stray quote) is not the header.
 */
function findHeader(body: string, mapping: ReadonlyMap<PositionField, string>, source: string | undefined): Header {
  let index = 0;
  let line = 1;
  let halfway: { line: number; plan: ColumnPlan; cells: string[] } | undefined;
  let first: string | undefined;
  while (index < body.length) {
    let end = index;
    while (end < body.length && body[end] !== '\n' && body[end] !== '\r') end++;
    const next = body[end] === '\r' && body[end + 1] === '\n' ? end + 2 : end + 1;
    const text = body.slice(index, end);
    if (text.trim() !== '') {
      first ??= text.trim();
      let best: Header | undefined;
      for (const delimiter of DELIMITERS) {
        if (delimiter !== ',' && !text.includes(delimiter)) continue;
        const cells = lineCells(text, delimiter);
        if (cells === undefined) continue;
        const plan = planColumns(cells, mapping);
        if (plan.at.symbol !== undefined && plan.at.quantity !== undefined) {
          if (best === undefined || cells.length > best.cells.length) best = { cells, line, delimiter, plan, next };
        } else if (halfway === undefined && (plan.at.symbol !== undefined || plan.at.quantity !== undefined)) {
          halfway = { line, plan, cells };
        }
      }
      if (best !== undefined) return best;
    }
    index = next;
    line++;
  }
  throw noHeader(mapping, source, halfway, first);
}

/** One physical line's cells, or undefined when it is not delimited text (an unclosed or stray quote). */
function lineCells(text: string, delimiter: string): string[] | undefined {
  let rows: DelimitedRow[];
  try {
    rows = readDelimited(text, delimiter, undefined);
  } catch {
    return undefined;
  }
  return rows.length === 1 ? rows[0]!.cells : undefined;
}

function noHeader(mapping: ReadonlyMap<PositionField, string>, source: string | undefined, halfway: { line: number; plan: ColumnPlan; cells: string[] } | undefined, first: string | undefined): PositionsError {
  const hint = 'the header names the symbol (or ticker) and quantity (or qty, shares, units) columns, and optionally currency, cost (per unit) and cost_total; columns maps other names onto these';
  const name = (field: 'symbol' | 'quantity') => {
    const mapped = mapping.get(field);
    return mapped === undefined ? `a ${field}` : `the ${field} (${shownValue(mapped)}, as columns maps it)`;
  };
  if (halfway !== undefined) {
    const lacking = halfway.plan.at.symbol === undefined ? 'symbol' : 'quantity';
    return new PositionsError(`the header has no ${lacking} column (it has ${halfway.cells.map((cell) => cell.trim()).join(', ')})`, {
      reason: 'header', source, line: halfway.line, field: lacking, hint, option: 'columns',
    });
  }
  return new PositionsError(`has no header: no line names ${name('symbol')} and ${name('quantity')} column${first === undefined ? '' : ` (the first line is ${shownValue(first)})`}`, {
    reason: 'header', source, line: undefined, field: 'symbol', hint, option: 'columns',
  });
}
