// A quantity or a cost as a positions file writes it, to decimal text: in a CSV or TSV cell, as
// brokers and spreadsheets write numbers (thousands grouped in threes, a decimal comma when told,
// (20) for -20); in JSON, as JSON writes numbers. Never a guess that could be a thousandfold error:
// `1.000` in a `;` file is refused until the caller says which mark is the decimal one, and a
// currency sign is refused, since the currency comes from the currency column. The text returned
// keeps every digit and place written (`1.000,50` is `1000.50`), and is within decimalBoundsProblem's
// bounds.
import type { PositionsOption } from './positions-error.js';
import { DECIMAL_SYNTAX, decimalBoundsProblem } from '../shared/decimal-bounds.js';

/** How the numbers of a text are written. */
export interface NumberStyle {
  /** A CSV or TSV cell (grouping, parentheses); otherwise a JSON value, read as JSON writes numbers. */
  cell: boolean;
  /** true: `1.000,50`; false: `1,000.50`; undefined: `1,000.50`, but in a `;` file a comma, or a number shaped like `1.000`, is refused as ambiguous. */
  decimalComma?: boolean | undefined;
  /** The text's delimiter, for a cell. */
  delimiter?: string | undefined;
}

/** Why a number was refused: the sentence after the field's name and value, a hint, the option that would read it. */
interface NumberProblem {
  message: string;
  hint?: string | undefined;
  option?: PositionsOption | undefined;
}

/** The decimal text, undefined for a placeholder, or the problem: no object for the common case, read for every row. */
export type NumberReading = string | undefined | NumberProblem;

/** What a file writes for no value: an empty cell, `-`, `--` or `N/A` (no cost, no currency, no quantity). */
export function isPlaceholder(text: string): boolean {
  // Run for several cells of every row: a longer text with no space at either end is none.
  if (text.length > 3 && text.charCodeAt(0) > 0x20 && text.charCodeAt(text.length - 1) > 0x20) return false;
  const key = text.trim().toLowerCase();
  return key === '' || key === '-' || key === '--' || key === 'n/a';
}

const CURRENCY_SIGN = /\p{Sc}/u;
/** Spaces that group thousands in either style: a space, a no-break space, a narrow no-break space. */
const SPACES = ' \u00a0\u202f';
const PLAIN = /^(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
/** The number most rows hold (`-12.50`): no grouping, no exponent. Up to 100 characters, within every bound. */
const SIMPLE = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/;
const POINT_GROUPED = /^-?\d{1,3}(?:\.\d{3})+$/;

/** `written` (trimmed) as decimal text; undefined for a placeholder; or the problem. */
export function readNumber(written: string, style: NumberStyle): NumberReading {
  // The common case first, read as it is: unless a decimal comma makes its point a grouping one, or
  // a ; file leaves `1.000` ambiguous.
  if (written.length <= 100 && SIMPLE.test(written) && (style.decimalComma === true ? !written.includes('.') : !(ambiguous(style) && POINT_GROUPED.test(written)))) {
    return written;
  }
  if (isPlaceholder(written)) return undefined;
  const sign = CURRENCY_SIGN.exec(written)?.[0];
  if (sign !== undefined) {
    return {
      message: `has a currency sign (${sign}): a number is read alone, and its currency from the currency column`,
      hint: 'write the number without the sign, or leave the column out',
      option: 'columns',
    };
  }
  const plain = style.cell ? cellNumber(written, style) : DECIMAL_SYNTAX.test(written) ? written : undefined;
  if (plain === undefined) return notDecimal(written, style);
  if (typeof plain !== 'string') return plain;
  const bounds = decimalBoundsProblem(plain);
  return bounds === undefined ? plain : { message: bounds.message };
}

function cellNumber(written: string, style: NumberStyle): string | NumberProblem | undefined {
  let body = written;
  let negative = false;
  const parenthesised = /^\((.*)\)$/.exec(body);
  if (parenthesised !== null) {
    body = parenthesised[1]!.trim();
    negative = true;
    if (body.startsWith('-')) return undefined;
  } else if (body.startsWith('-')) {
    negative = true;
    body = body.slice(1);
  }
  if (ambiguous(style) && (body.includes(',') || POINT_GROUPED.test(body))) {
    return {
      message: body.includes(',')
        ? 'has a comma, which in a ;-separated file may be a decimal comma (12,5) or thousands (1,250)'
        : 'may be a number with a decimal point or thousands grouped with points (1.000 for a thousand), as a ;-separated file often writes them',
      hint: 'say which: read the file with decimal commas (1.000,50 is 1000.50), or with decimal points (1,000.50)',
      option: 'decimalComma',
    };
  }
  const digits = style.decimalComma === true ? grouped(body, ',', '.') : grouped(body, '.', ',');
  return digits === undefined || !negative ? digits : `-${digits}`;
}

/** A `;` file read without saying which mark is the decimal one. */
function ambiguous(style: NumberStyle): boolean {
  return style.cell && style.decimalComma === undefined && style.delimiter === ';';
}

/** `body` (no sign) as plain decimal text: ungrouped, or its integer part grouped in threes by `group` or a space. */
function grouped(body: string, point: string, group: string): string | undefined {
  const dotted = point === '.' ? body : body.includes('.') ? undefined : body.replace(',', '.');
  if (dotted !== undefined && PLAIN.test(dotted)) return dotted;
  const [integer = '', fraction, ...more] = body.split(point);
  if (more.length > 0 || (fraction !== undefined && !/^\d+$/.test(fraction))) return undefined;
  const separator = /\D/.exec(integer)?.[0];
  if (separator === undefined || (separator !== group && !SPACES.includes(separator))) return undefined;
  const groups = integer.split(separator);
  if (!/^[1-9]\d{0,2}$/.test(groups[0]!) || !groups.slice(1).every((three) => /^\d{3}$/.test(three))) return undefined;
  return fraction === undefined ? groups.join('') : `${groups.join('')}.${fraction}`;
}

function notDecimal(written: string, style: NumberStyle): NumberProblem {
  if (!style.cell) return { message: 'is not a decimal number', hint: 'write it as JSON writes numbers: 1500, -20, 0.25, 1e6 (no thousands separators, no + sign)' };
  const comma = style.decimalComma === true;
  const examples = comma ? '1500, -20, 0,25, 1.500,25 (thousands in threes) or (20)' : '1500, -20, 0.25, 1,500.25 (thousands in threes) or (20)';
  const [point, group] = comma ? [',', '.'] : ['.', ','];
  // 1,00 with decimal points; not 1.000,50, which is the other style's.
  const badlyGrouped = /^[-(]?\d+(?:[.,\s]\d+)+\)?$/u.test(written) && written.includes(group) && !(written.includes(point) && written.indexOf(point) < written.lastIndexOf(group));
  // A comma where a decimal point was expected: a file that writes decimal commas.
  const option = !comma && written.includes(',') && style.decimalComma === undefined ? 'decimalComma' : undefined;
  return {
    message: badlyGrouped ? 'is not a decimal number: its thousands are not grouped in threes' : 'is not a decimal number',
    hint: `write it as ${examples}`,
    option,
  };
}
