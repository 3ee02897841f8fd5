// Checks decided against a result, exactly: decimals through big.js (never a float: a bid of
// 1.084150000000000001 is more than 1.0841500000000000009, which doubles call equal), a valuation's
// exact figures as rationals (a value at an inverse rate has no finite decimal), durations in whole
// milliseconds. Each failure says which row, what value it had (a figure at `full`), and why it failed.
import Big from 'big.js';
import { compareFigures, figureOf, FULL, roundFigure, type Figure } from '../../shared/figure.js';
import type { CheckField, CheckSubject } from './check-model.js';
import type { Check, CheckBound, CheckSet } from './compile-checks.js';
import type { CheckOperator } from './parse-check-expression.js';

/** not_met: the value is there and does not hold; no_row: the symbol has no row; no_value: the row has no value for the field. */
export type FailureReason = 'not_met' | 'no_row' | 'no_value';

export interface CheckFailure<T = unknown, D = unknown> {
  check: Check<T, D>;
  /** The row's symbol; undefined for a field of the whole result. */
  key: string | undefined;
  /** Exact decimal text, or whole milliseconds as text; undefined when there is none. */
  actual: string | undefined;
  reason: FailureReason;
  /** For no_value: why the row has none, when the model says. */
  detail?: string;
}

export interface CheckVerdict<T = unknown, D = unknown> {
  /** Every failure: by check, in the order given; then by row, in the result's order, and the symbols asked for that have none. */
  failures: CheckFailure<T, D>[];
  /** How many checks failed at least once. */
  failed: number;
  /** How many checks there were. */
  total: number;
}

/** One row a check was decided on, and its value, for a trigger (evaluate-until.ts). */
export interface CheckedValue<T> {
  row: T;
  key: string;
  actual: string;
}

/** Every check against `subject` at `now` (ages are measured from it). */
export function evaluateChecks<T, D>(set: CheckSet<T, D>, subject: CheckSubject<T, D>, now: number): CheckVerdict<T, D> {
  const rowsByKey = indexRows(set, subject.rows);
  const failures: CheckFailure<T, D>[] = [];
  let failed = 0;
  for (const check of set.checks) {
    const found = decideCheck(set, check, subject, rowsByKey, now).failures;
    if (found.length > 0) failed++;
    failures.push(...found);
  }
  return { failures, failed, total: set.checks.length };
}

/** The rows by key, in the result's order within each key. */
export function indexRows<T, D>(set: CheckSet<T, D>, rows: readonly T[]): Map<string, T[]> {
  const byKey = new Map<string, T[]>();
  for (const row of rows) {
    const key = set.model.rowKey(row);
    const list = byKey.get(key);
    if (list === undefined) byKey.set(key, [row]);
    else list.push(row);
  }
  return byKey;
}

/** One check's failures, and the rows on which it held (with their values). */
export function decideCheck<T, D>(
  set: CheckSet<T, D>, check: Check<T, D>, subject: CheckSubject<T, D>, rowsByKey: ReadonlyMap<string, readonly T[]>, now: number,
): { failures: CheckFailure<T, D>[]; held: CheckedValue<T>[] } {
  const failures: CheckFailure<T, D>[] = [];
  const held: CheckedValue<T>[] = [];
  if (check.scope === 'document') {
    holds(check, read(check.field, subject.document, now), failures, undefined);
    return { failures, held };
  }
  const decide = (row: T, key: string) => {
    const wrong = subject.unusable?.get(key);
    const reading = wrong === undefined ? read(check.field, row, now) : { actual: undefined, comparable: undefined, detail: `its quote cannot be right: ${wrong}` };
    if (holds(check, reading, failures, key)) held.push({ row, key, actual: reading.actual! });
  };
  if (check.symbol !== undefined) {
    const rows = rowsByKey.get(check.symbol) ?? [];
    if (rows.length === 0) failures.push({ check, key: check.symbol, actual: undefined, reason: 'no_row' });
    for (const row of rows) decide(row, check.symbol);
    return { failures, held };
  }
  // Every row, in the result's order; then every symbol asked for that has none.
  for (const row of subject.rows) decide(row, set.model.rowKey(row));
  for (const key of subject.keys ?? []) {
    if (!rowsByKey.has(key)) failures.push({ check, key, actual: undefined, reason: 'no_row' });
  }
  return { failures, held };
}

interface Reading {
  actual: string | undefined;
  /** The decimal, the exact figure or the milliseconds to compare; undefined when there is no value. */
  comparable: Big | Figure | number | undefined;
  detail?: string;
}

function read<I>(field: CheckField<I>, item: I | undefined, now: number): Reading {
  if (item === undefined) return { actual: undefined, comparable: undefined };
  const unavailable = () => field.unavailable?.(item, now);
  if (field.kind === 'duration') {
    const ms = field.value(item, now);
    if (ms === undefined || !Number.isSafeInteger(ms)) return { actual: undefined, comparable: undefined, detail: unavailable() };
    return { actual: String(ms), comparable: ms };
  }
  const text = field.value(item, now);
  if (text === undefined) return { actual: undefined, comparable: undefined, detail: unavailable() };
  if (typeof text !== 'string') return { actual: roundFigure(text, FULL).text, comparable: text };
  try {
    return { actual: text, comparable: new Big(text) };
  } catch {
    return { actual: undefined, comparable: undefined, detail: `"${text.slice(0, 40)}" is not a decimal` };
  }
}

/** Whether the reading holds; if not, its failure is added to `failures`. */
function holds<T, D>(check: Check<T, D>, reading: Reading, failures: CheckFailure<T, D>[], key: string | undefined): boolean {
  if (reading.comparable === undefined) {
    failures.push({ check, key, actual: undefined, reason: 'no_value', ...(reading.detail === undefined ? {} : { detail: reading.detail }) });
    return false;
  }
  if (satisfies(check.op, compareToBound(reading.comparable, check.bound))) return true;
  failures.push({ check, key, actual: reading.actual, reason: 'not_met' });
  return false;
}

function compareToBound(value: Big | Figure | number, bound: CheckBound): number {
  if (bound.kind === 'decimal') {
    if (value instanceof Big) return value.cmp(bound.value);
    return compareFigures(value as Figure, figureOf(bound.value.toExponential()));
  }
  const ms = value as number;
  return ms < bound.ms ? -1 : ms > bound.ms ? 1 : 0;
}

function satisfies(op: CheckOperator, order: number): boolean {
  switch (op) {
    case '<': return order < 0;
    case '<=': return order <= 0;
    case '>': return order > 0;
    case '>=': return order >= 0;
    case '==': return order === 0;
    case '!=': return order !== 0;
  }
}
