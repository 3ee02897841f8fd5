// How a watched valuation moved since it was first known: each position's value in the base currency,
// each currency's total in the base, and the total in the base, now minus then, exact (a difference
// of decimal text, never a float). A figure's "then" is the first poll that knew it: a position's at
// the first poll that valued it, a total's at the first poll where it left nothing out, so a change
// is never measured from a sum that was missing a position. Pure: valuations in, changes out; the
// watch of `mkt value` keeps one tracker (src/cli/watch/value-watch.ts) and the table draws them.
import type { Valuation } from '../api/valuation.js';
import { subtract } from './decimal.js';

/** A figure's change: now minus then, exact; undefined where either is unknown. */
type Change = string | undefined;

export interface ValuationChange {
  /** One per position, in the valuation's order: its value_base now minus at the first poll that valued it. */
  positions: Change[];
  /** By currency, as the totals list them: the currency's value_base now minus at the first poll where it was whole. */
  totals: ReadonlyMap<string, Change>;
  /** total_base now minus at the first poll where it was whole. */
  total: Change;
  /** When the total's "then" was (the first poll where it was whole); undefined before one. */
  since: number | undefined;
}

export interface ValuationTracker {
  /** The changes of `valuation`, a poll's at `at`, since each figure was first known. */
  update(valuation: Valuation, at: number): ValuationChange;
}

/** `+12.5`, `-0.3`, `0`: the sign always shown but on zero. */
export function signedChange(change: string): string {
  return change.startsWith('-') || /^[0.]+$/.test(change) ? change : `+${change}`;
}

export function createValuationTracker(): ValuationTracker {
  // Positions by index: one per input row, the same rows at every poll of one file.
  const positions: Array<string | undefined> = [];
  const totals = new Map<string, string>();
  let total: { value: string; at: number } | undefined;
  const since = (first: string | undefined, now: string | null | undefined): Change =>
    (first === undefined || now === null || now === undefined ? undefined : subtract(now, first));
  return {
    update(valuation, at) {
      const positionChanges = valuation.positions.map((position, index) => {
        if (positions[index] === undefined && position.value_base !== null) positions[index] = position.value_base;
        return since(positions[index], position.value_base);
      });
      const totalChanges = new Map<string, Change>();
      for (const each of valuation.totals) {
        const whole = each.incomplete ? null : each.value_base;
        if (!totals.has(each.currency) && whole !== null) totals.set(each.currency, whole);
        totalChanges.set(each.currency, since(totals.get(each.currency), whole));
      }
      if (total === undefined && !valuation.incomplete) total = { value: valuation.total_base, at };
      return {
        positions: positionChanges,
        totals: totalChanges,
        total: since(total?.value, valuation.incomplete ? null : valuation.total_base),
        since: total?.at,
      };
    },
  };
}
