// How a watched valuation moved since it was first known: each position's value in the base currency,
// each currency's total in the base, and the total in the base, now minus then, exact (a difference
// of exact figures, rounded once where it is written, as the figures themselves are). A figure's
// "then" is the first poll that knew it: a position's at the first poll that valued it, a total's at
// the first poll where it left nothing out, so a change is never measured from a sum that was
// missing a position. Pure: valuations in, changes out; the watch of `mkt value` keeps one tracker
// (src/cli/watch/value-watch.ts) and the table draws them.
import type { ExactValuation, Valuation } from '../api/valuation.js';
import { amountRounding } from '../api/precision.js';
import { figureText, minus, type Figure } from '../shared/figure.js';

/** A figure's change: now minus then, exact; undefined where either is unknown. */
type Change = Figure | undefined;

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
  update(valuation: ExactValuation, at: number): ValuationChange;
}

/** `+12.5`, `-0.3`, `0`: the sign always shown but on zero. */
export function signedChange(change: string): string {
  return change.startsWith('-') || /^[0.]+$/.test(change) ? change : `+${change}`;
}

/** A change in the base currency, written as `valuation` writes its figures in the base. */
export function changeText(change: Figure, valuation: Pick<Valuation, 'precision' | 'base'>): string {
  return figureText(change, amountRounding(valuation.precision, valuation.base));
}

export function createValuationTracker(): ValuationTracker {
  // Positions by index: one per input row, the same rows at every poll of one file.
  const positions: Array<Figure | undefined> = [];
  const totals = new Map<string, Figure>();
  let total: { value: Figure; at: number } | undefined;
  const since = (first: Figure | undefined, now: Figure | null | undefined): Change =>
    (first === undefined || now === null || now === undefined ? undefined : minus(now, first));
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
