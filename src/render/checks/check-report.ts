// Failed checks in words (a line each, for stderr) and as data (for the JSON error object), from one
// verdict. A line names the row, the field, the value it had and the condition it did not meet:
// `EURUSD.bid is 1.084150000000000001, not < 1`; a row that is not there, `EURUSD has no quote`.
import { pairSpellingNote } from '../../shared/pair-spelling.js';
import { stripControl } from '../../shared/text.js';
import type { CheckFailure, CheckVerdict, FailureReason } from './evaluate-checks.js';
import { quoteSymbol } from './parse-check-expression.js';

/** One failure in the JSON error object's `checks`. Values are strings, so no reader rounds them. */
export interface CheckFailureJson {
  /** As typed. */
  expression: string;
  /** The row's symbol (for a check without one too); null for a field of the whole result. */
  symbol: string | null;
  field: string;
  /** decimal: `expected` and `actual` are decimal text; duration: whole milliseconds. */
  kind: 'decimal' | 'duration';
  op: string;
  expected: string;
  /** null when the row or its value is missing. */
  actual: string | null;
  reason: FailureReason;
  /** The line the text report gives. */
  message: string;
}

export interface CheckReport {
  /** `2 of 3 checks failed`: the error's message. */
  message: string;
  /** A line per failure, at most MAX_REPORTED_LINES and a line saying how many more. */
  lines: string[];
  /** Every failure. */
  checks: CheckFailureJson[];
}

/** More lines than a person reads in a CI log; the JSON error object lists every failure. */
export const MAX_REPORTED_LINES = 20;

export interface ReportOptions {
  /** Before each line: `check failed` (a --check), `not met` (an --until at the last poll). */
  prefix: string;
  /** What a row is called: `quote` in `EURUSD has no quote`. */
  rowNoun: string;
  /** The error's message, given the counts; default `2 of 3 checks failed`. */
  message?: (verdict: CheckVerdict) => string;
}

export function reportFailures(verdict: CheckVerdict, options: ReportOptions): CheckReport {
  const checks = verdict.failures.map((failure) => failureJson(failure, options.rowNoun));
  const lines = checks.slice(0, MAX_REPORTED_LINES).map((check) => `${options.prefix}: ${check.message}`);
  const more = checks.length - MAX_REPORTED_LINES;
  if (more > 0) lines.push(`${options.prefix}: and ${more} more (the JSON error object, with --json, lists every one)`);
  return { message: options.message?.(verdict) ?? checksFailedMessage(verdict), lines, checks };
}

/** `1 of 3 checks failed`, with the number of failures when a check failed on more than one row. */
function checksFailedMessage(verdict: CheckVerdict): string {
  const counted = `${verdict.failed} of ${verdict.total} check${verdict.total === 1 ? '' : 's'} failed`;
  return verdict.failures.length > verdict.failed ? `${counted} (${verdict.failures.length} failures)` : counted;
}

function failureJson(failure: CheckFailure, rowNoun: string): CheckFailureJson {
  const { check } = failure;
  const expected = check.bound.kind === 'duration' ? String(check.bound.ms) : check.expected;
  return {
    expression: check.expression,
    symbol: failure.key ?? null,
    field: check.field.name,
    kind: check.bound.kind,
    op: check.op,
    expected,
    actual: failure.actual ?? null,
    reason: failure.reason,
    message: failureLine(failure, rowNoun),
  };
}

/** The words of one failure, without a prefix. */
function failureLine(failure: CheckFailure, rowNoun: string): string {
  const { check } = failure;
  const symbol = failure.key === undefined ? undefined : stripControl(quoteSymbol(failure.key));
  const subject = symbol === undefined ? check.field.name : `${symbol}.${check.field.name}`;
  const condition = `${check.op} ${check.expected}`;
  switch (failure.reason) {
    case 'not_met':
      return `${subject} is ${shownValue(failure.actual!, check.bound.kind)}, not ${condition}`;
    case 'no_row':
      return `${symbol} has no ${rowNoun}${spelling(failure.key)}, so ${subject} ${condition} fails`;
    case 'no_value':
      return `${subject} has no value${failure.detail === undefined ? '' : ` (${stripControl(failure.detail)})`}, so ${subject} ${condition} fails`;
  }
}

/** ` (an FX pair is six letters, no separator: EURUSD, not EUR/USD)` for a symbol written as a pair with a separator. */
function spelling(key: string | undefined): string {
  const note = key === undefined ? undefined : pairSpellingNote([key]);
  return note === undefined ? '' : ` (${note})`;
}

/** A decimal as it came; milliseconds exactly, in units flags take: `750ms`, `41s`, `41.25s`, `90.061s`, `2m`, `1h`. */
export function shownValue(actual: string, kind: 'decimal' | 'duration'): string {
  if (kind === 'decimal') return actual;
  const ms = Number(actual);
  const sign = ms < 0 ? '-' : '';
  const size = Math.abs(ms);
  if (size < 1000) return `${sign}${size}ms`;
  if (size % 3_600_000 === 0) return `${sign}${size / 3_600_000}h`;
  if (size % 60_000 === 0) return `${sign}${size / 60_000}m`;
  const fraction = String(size % 1000).padStart(3, '0').replace(/0+$/, '');
  return `${sign}${Math.floor(size / 1000)}${fraction === '' ? '' : `.${fraction}`}s`;
}
