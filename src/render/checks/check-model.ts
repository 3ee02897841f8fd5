// What a resource declares so that its results can be checked (`--check`, `--until`): which fields
// can be compared, whether each is a decimal or a duration, and how its value is read from a row or
// from the document as a whole. The engine (compile-checks.ts, evaluate-checks.ts) reads nothing
// else, so any resource that declares a CheckModel has checks. Quotes' is quote-check-model.ts.
import type { Figure } from '../../shared/figure.js';

/** A decimal compares exactly (decimal text, or an exact figure); a duration as whole milliseconds. */
export type CheckKind = 'decimal' | 'duration';

interface CheckFieldBase<T> {
  /** Lower-case, as an expression names it (case-insensitively): `bid`, `spread_bps`, `total_base`. */
  name: string;
  /** One line for the help and the README's field list. */
  description: string;
  /**
   * Why `value` read nothing from this item, for the failure's message (`its timestamp is 3h ahead
   * of this machine's clock`). Called only after `value` gave undefined.
   */
  unavailable?(item: T, now: number): string;
}

interface DecimalCheckField<T> extends CheckFieldBase<T> {
  kind: 'decimal';
  /**
   * Exact decimal text (`1.084150000000000001`, `1E-7`), or an exact figure (a valuation's: compared
   * exactly, shown at `full`), or undefined when the item has none.
   */
  value(item: T, now: number): string | Figure | undefined;
}

interface DurationCheckField<T> extends CheckFieldBase<T> {
  kind: 'duration';
  /** Whole milliseconds (a safe integer), or undefined when the item has none. */
  value(item: T, now: number): number | undefined;
}

export type CheckField<T> = DecimalCheckField<T> | DurationCheckField<T>;

/**
 * A resource's checks. T is a row (a quote, a position), D the document around the rows (a
 * valuation with its totals); a resource without document fields leaves D as never.
 */
export interface CheckModel<T, D = never> {
  /** What a row is called in messages: `quote` makes `EURUSD has no quote`. */
  rowNoun: string;
  /** The symbol a row belongs to, upper-cased as symbols are; several rows may share one (lots). */
  rowKey(row: T): string;
  /** The fields of a row, which an expression may name with or without a symbol. */
  fields: readonly CheckField<T>[];
  /** Fields of the whole result (`total_base`), which belong to no row: named without a symbol. */
  documentFields?: readonly CheckField<D>[];
  /** The decimal row field a hint's example names (`EURUSD.bid > 1`); without it, the first decimal row field. */
  exampleField?: string;
  /** Two checks the help and a malformed check's hint give as examples, in the resource's own fields: `EURUSD.bid > 1.08`. */
  examples?: readonly string[];
  /**
   * What an --exec program is told of the row that triggered it, names without the `MKT_` prefix
   * (`SYMBOL`, `BID`), values as exact text. Every field an --until names is added to these.
   */
  rowEnvironment?(row: T): Record<string, string>;
  /** Every name rowEnvironment can give, so that the same names inherited from mkt's own environment are not passed on stale. */
  rowEnvironmentNames?: readonly string[];
}

/** What is checked: the rows in their order, the document, and the symbols asked for. */
export interface CheckSubject<T, D = never> {
  rows: readonly T[];
  document?: D;
  /**
   * The symbols asked for (upper-cased). A symbol among them with no row fails every check that
   * applies to it, the checks without a symbol included: a row that is not there cannot hold.
   */
  keys?: readonly string[];
  /**
   * Symbols (upper-cased) whose rows cannot be right, and why (the library's verdict: a quote that
   * cannot be right). A check on such a row fails, saying why, whatever its value.
   */
  unusable?: ReadonlyMap<string, string>;
}
