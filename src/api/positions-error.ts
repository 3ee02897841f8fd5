// The error of positions that cannot be valued: a file that cannot be read as positions, or
// positions a program passes that are not. It is an OptionsError (exit 2 in the CLI) carrying the
// facts a caller words its own message from: where (source, line or item), which field, what value;
// and, for a file, every problem found in it (the first MAX_POSITIONS_PROBLEMS, and how many in all),
// so that a file with three mistakes takes one run to hear of them, not three.
import { OptionsError } from './errors.js';
import { MAX_POSITIONS_PROBLEMS } from '../shared/limits.js';
import { safeJson, stripControl } from '../shared/text.js';

/** What was wrong, for a caller choosing its own words. */
export type PositionsErrorReason =
  /** More bytes than MAX_POSITIONS_FILE_BYTES. */
  | 'too-large'
  /** Nothing but white space, or a header with no rows, or an empty JSON array. */
  | 'empty'
  /** Bytes that are not text in the encoding read (UTF-8 unless told), or a NUL character. */
  | 'encoding'
  /** Not CSV, TSV or JSON as the format says: an unclosed quote, a JSON syntax error, not an array, JSON nested too deep. */
  | 'syntax'
  /** No line names a symbol and a quantity column; or the header names one field twice, leaves a column unnamed, or lacks a column `columns` maps. */
  | 'header'
  /** A row with more cells than the header. */
  | 'cells'
  /** A value that is not what its field takes (a quantity such as `abc`, a currency nobody issues). */
  | 'value'
  /** A position without a currency, and no default currency. */
  | 'no-currency';

/** A parser option that would have read what was refused: the CLI names its flag. */
export type PositionsOption = 'decimalComma' | 'encoding' | 'columns' | 'defaultCurrency';

/** One problem of positions, where it is and what it is. */
export interface PositionsProblem {
  reason: PositionsErrorReason;
  /** The sentence after the place: `quantity "abc" is not a decimal number`. */
  message: string;
  /** 1-based line of the text (CSV, TSV; a JSON file's position starts there). */
  line?: number | undefined;
  /** 1-based position in an array of position objects. */
  item?: number | undefined;
  /** The field: symbol, quantity, currency, cost, cost_total, or a column the header names. */
  field?: string | undefined;
  /** The value refused, as given (at most 100 characters). */
  value?: string | undefined;
  hint?: string | undefined;
  /** The parser option that would read it, where one would: decimalComma for `1.000,50` in a `;` file. */
  option?: PositionsOption | undefined;
}

export interface PositionsErrorInit extends Omit<PositionsProblem, 'message'> {
  /** The input's name: a file name, "standard input". */
  source?: string | undefined;
}

/** `value` quoted for a message: control characters escaped (safeJson), at most 40 characters. */
export function shownValue(value: string): string {
  return safeJson(value.length > 40 ? `${value.slice(0, 40)}…` : value);
}

export class PositionsError extends OptionsError {
  override name = 'PositionsError';
  /** The first problem's facts, when there are several. */
  reason: PositionsErrorReason;
  source: string | undefined;
  line: number | undefined;
  item: number | undefined;
  field: string | undefined;
  value: string | undefined;
  /** The parser option that would read what was refused (the first problem's). */
  readOption: PositionsOption | undefined;
  /** Every problem found, in the order of the text, at most MAX_POSITIONS_PROBLEMS of them. */
  problems: readonly PositionsProblem[];
  /** How many problems there are in all: more than `problems` holds when the file has more than MAX_POSITIONS_PROBLEMS. */
  problemCount: number;

  /** `problem` is the sentence after the place: "positions.csv, line 4: <problem>". */
  constructor(problem: string, init: PositionsErrorInit, all?: { problems: readonly PositionsProblem[]; count: number }) {
    const several = all !== undefined && all.count > 1;
    super('INVALID_OPTIONS', several ? severalMessage(init.source, all.problems, all.count) : `${placeOf(init)}${problem}`, {
      option: init.field ?? 'positions', hint: several ? severalHint(all.problems) : init.hint,
    });
    const first: PositionsProblem = { ...init, message: problem };
    this.reason = init.reason;
    this.source = init.source;
    this.line = init.line;
    this.item = init.item;
    this.field = init.field;
    this.value = init.value === undefined ? undefined : init.value.slice(0, 100);
    this.readOption = init.option;
    this.problems = all?.problems ?? [{ ...withoutSource(first), value: this.value }];
    this.problemCount = all?.count ?? 1;
  }
}

/** The place of a problem in a message: `line 4`, `position 2 (line 7)`, `position 2`. */
export function placeOfProblem(problem: Pick<PositionsProblem, 'line' | 'item'>): string | undefined {
  if (problem.item !== undefined) return problem.line === undefined ? `position ${problem.item}` : `position ${problem.item} (line ${problem.line})`;
  return problem.line === undefined ? undefined : `line ${problem.line}`;
}

function placeOf(init: PositionsErrorInit): string {
  const parts: string[] = [];
  if (init.source !== undefined) parts.push(stripControl(init.source));
  const place = placeOfProblem(init);
  if (place !== undefined) parts.push(place);
  return parts.length === 0 ? '' : `${parts.join(', ')}: `;
}

function withoutSource(init: PositionsErrorInit & { message: string }): PositionsProblem {
  const { source: _source, ...problem } = init;
  return problem;
}

/** `p.csv has 3 problems: line 2: ...; line 5: ...` (the first MAX_POSITIONS_PROBLEMS, then how many more). */
function severalMessage(source: string | undefined, problems: readonly PositionsProblem[], count: number): string {
  const listed = problems.map((problem) => {
    const place = placeOfProblem(problem);
    return place === undefined ? problem.message : `${place}: ${problem.message}`;
  });
  const more = count - problems.length;
  return `${source === undefined ? 'the positions have' : `${stripControl(source)} has`} ${count} problems: ${listed.join('; ')}${more > 0 ? `; and ${more} more` : ''}`;
}

/** The different hints of several problems, in the order first met, three at most. */
function severalHint(problems: readonly PositionsProblem[]): string | undefined {
  const hints = [...new Set(problems.map((problem) => problem.hint).filter((hint) => hint !== undefined))];
  return hints.length === 0 ? undefined : hints.slice(0, 3).join('; ');
}

/**
 * The problems of a file as they are found, each with its place: the first MAX_POSITIONS_PROBLEMS
 * kept, the rest counted. `fail()` throws them as one PositionsError when there is any.
 */
export class ProblemList {
  readonly problems: PositionsProblem[] = [];
  count = 0;

  constructor(readonly source: string | undefined) {}

  add(problem: PositionsProblem): void {
    this.count++;
    if (this.problems.length < MAX_POSITIONS_PROBLEMS) {
      this.problems.push(problem.value === undefined ? problem : { ...problem, value: problem.value.slice(0, 100) });
    }
  }

  /** Throws the problems found, if any. */
  fail(): void {
    const [first] = this.problems;
    if (first === undefined) return;
    const { message, ...facts } = first;
    throw new PositionsError(message, { ...facts, source: this.source }, { problems: this.problems, count: this.count });
  }
}
