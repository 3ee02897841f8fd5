// The error of positions that cannot be valued: a file that cannot be read as positions, or
// positions a program passes that are not. It is an OptionsError (exit 2 in the CLI) carrying the
// facts a caller words its own message from: where (source, line or item), which field, what value.
import { OptionsError } from './errors.js';
import { safeJson, stripControl } from '../shared/text.js';

/** What was wrong, for a caller choosing its own words. */
export type PositionsErrorReason =
  /** More bytes than MAX_POSITIONS_FILE_BYTES. */
  | 'too-large'
  /** Nothing but white space, or a header with no rows, or an empty JSON array. */
  | 'empty'
  /** Not CSV, TSV or JSON as the format says: an unclosed quote, a JSON syntax error, not an array. */
  | 'syntax'
  /** The header names a column twice, leaves one unnamed, names one that is not a position's, or lacks symbol or quantity. */
  | 'header'
  /** A row with more or fewer cells than the header. */
  | 'cells'
  /** A value that is not what its field takes (a quantity such as `abc`, a currency nobody issues). */
  | 'value'
  /** A position without a currency, and no default currency. */
  | 'no-currency';

export interface PositionsErrorInit {
  reason: PositionsErrorReason;
  /** The input's name: a file name, "standard input". */
  source?: string | undefined;
  /** 1-based line of the text where the problem is (CSV, TSV, JSON syntax). */
  line?: number | undefined;
  /** 1-based position in an array of position objects (a JSON file, or positions a program passed). */
  item?: number | undefined;
  /** The field: symbol, quantity, currency, cost, or a column the header names. */
  field?: string | undefined;
  /** The value refused, as given (at most 100 characters). */
  value?: string | undefined;
  hint?: string | undefined;
}

/** `value` quoted for a message: control characters escaped (safeJson), at most 40 characters. */
export function shownValue(value: string): string {
  return safeJson(value.length > 40 ? `${value.slice(0, 40)}…` : value);
}

export class PositionsError extends OptionsError {
  override name = 'PositionsError';
  reason: PositionsErrorReason;
  source: string | undefined;
  line: number | undefined;
  item: number | undefined;
  field: string | undefined;
  value: string | undefined;

  /** `problem` is the sentence after the place: "positions.csv, line 4: <problem>". */
  constructor(problem: string, init: PositionsErrorInit) {
    super('INVALID_OPTIONS', `${placeOf(init)}${problem}`, { option: init.field ?? 'positions', hint: init.hint });
    this.reason = init.reason;
    this.source = init.source;
    this.line = init.line;
    this.item = init.item;
    this.field = init.field;
    this.value = init.value === undefined ? undefined : init.value.slice(0, 100);
  }
}

function placeOf(init: PositionsErrorInit): string {
  const parts: string[] = [];
  if (init.source !== undefined) parts.push(stripControl(init.source));
  if (init.line !== undefined) parts.push(`line ${init.line}`);
  else if (init.item !== undefined) parts.push(`position ${init.item}`);
  return parts.length === 0 ? '' : `${parts.join(', ')}: `;
}
