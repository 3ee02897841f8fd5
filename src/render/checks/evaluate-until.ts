// `--watch --until EXPR`: whether every condition holds at a poll, and if so, what triggered it, as
// the environment of an --exec program (exact text, never through a shell or an argument list).
//
// The triggering row is the first row of the symbol the first condition names; when no condition
// names a symbol, the first row of the result (every row met every condition); when the conditions
// are all on the whole result (value's total_base), there is none. The program gets that row's own
// values (quotes: MKT_SYMBOL, MKT_BID, MKT_ASK, MKT_MID, MKT_TIMESTAMP), every row field a condition
// names as read from that row, and every field of the whole result a condition names:
// MKT_<FIELD> (MKT_SPREAD_BPS, MKT_TOTAL_BASE), a duration in whole milliseconds as MKT_<FIELD>_MS
// (MKT_AGE_MS).
import type { CheckField, CheckModel, CheckSubject } from './check-model.js';
import type { CheckSet } from './compile-checks.js';
import { decideCheck, indexRows, type CheckVerdict } from './evaluate-checks.js';
import { FULL, roundFigure } from '../../shared/figure.js';

interface Trigger<T> {
  /** The triggering row's symbol; undefined when no row triggered (conditions on the whole result). */
  key: string | undefined;
  row: T | undefined;
  /** MKT_* names and exact text values, for an --exec program. */
  environment: Record<string, string>;
}

export interface UntilOutcome<T, D = never> {
  /** Every condition held at this poll. */
  holds: boolean;
  /** What failed (empty when all held): the last poll's, for the report when --count runs out. */
  verdict: CheckVerdict<T, D>;
  /** When all held. */
  trigger?: Trigger<T>;
}

export function evaluateUntil<T, D>(set: CheckSet<T, D>, subject: CheckSubject<T, D>, now: number): UntilOutcome<T, D> {
  const rowsByKey = indexRows(set, subject.rows);
  const verdict: CheckVerdict<T, D> = { failures: [], failed: 0, total: set.checks.length };
  let triggerRow: { row: T; key: string } | undefined;
  let firstHeld: { row: T; key: string } | undefined;
  for (const check of set.checks) {
    const { failures, held } = decideCheck(set, check, subject, rowsByKey, now);
    if (failures.length > 0) verdict.failed++;
    verdict.failures.push(...failures);
    if (check.scope !== 'row' || held.length === 0) continue;
    if (check.symbol !== undefined) triggerRow ??= held[0];
    firstHeld ??= held[0];
  }
  if (verdict.failed > 0) return { holds: false, verdict };
  const chosen = triggerRow ?? firstHeld;
  return {
    holds: true,
    verdict,
    trigger: { key: chosen?.key, row: chosen?.row, environment: triggerEnvironment(set, chosen?.row, subject.document, now) },
  };
}

/** The environment an --exec program gets for a trigger: see the head of this file. */
function triggerEnvironment<T, D>(set: CheckSet<T, D>, row: T | undefined, document: D | undefined, now: number): Record<string, string> {
  const environment: Record<string, string> = {};
  if (row !== undefined) {
    for (const [name, value] of Object.entries(set.model.rowEnvironment?.(row) ?? {})) environment[`MKT_${name}`] = value;
  }
  for (const check of set.checks) {
    const item = check.scope === 'row' ? row : document;
    if (item === undefined) continue;
    const value = check.scope === 'row' ? check.field.value(item as T, now) : check.field.value(item as D, now);
    // An exact figure at `full`, as mkt value --json writes it by default.
    if (value !== undefined) environment[environmentName(check.field)] = typeof value === 'object' ? roundFigure(value, FULL).text : String(value);
  }
  return environment;
}

/** Every MKT_* name a trigger of this model can set: a program must not see one of them inherited, stale, from mkt's own environment. */
export function triggerEnvironmentNames<T, D>(model: CheckModel<T, D>): string[] {
  const names = (model.rowEnvironmentNames ?? []).map((name) => `MKT_${name}`);
  for (const field of [...model.fields, ...(model.documentFields ?? [])] as Array<CheckField<unknown>>) names.push(environmentName(field));
  return [...new Set(names)];
}

function environmentName(field: { name: string; kind: CheckField<unknown>['kind'] }): string {
  return `MKT_${field.name.toUpperCase()}${field.kind === 'duration' ? '_MS' : ''}`;
}
