// --check, --until and --exec, for any command that writes a resource whose declaration has checks
// (a FieldSet with a CheckModel: src/render/fields.ts): the flags (format.ts adds --check, watch.ts
// --until and --exec), the expressions compiled before any request, the verdict after the data is
// written, and the errors that end a run whose checks failed (exit 8). The program's arguments are
// split from mkt's before commander parses (exec/split-program-args.ts).
import { Option, type Command } from 'commander';
import type { CheckModel } from '../../render/checks/check-model.js';
import { reportFailures } from '../../render/checks/check-report.js';
import { compileChecks, type CheckSet } from '../../render/checks/compile-checks.js';
import { evaluateChecks, type CheckVerdict } from '../../render/checks/evaluate-checks.js';
import { itemsOf } from '../../render/fields.js';
import { CheckFailedError, UsageError } from '../errors/errors.js';

export interface CheckFlags {
  check?: string[];
  until?: string[];
  exec?: string;
  watch?: boolean;
}

/** A declaration that may have checks: a FieldSet, or what of one the checks read (its checks, and where its document holds the rows). */
export interface Checkable<T, D> {
  checks?: CheckModel<T, D>;
  document?: { readonly items: string };
}

/**
 * Repeatable: each --check adds one, to the same list. A copy of the list per flag made the reading
 * quadratic: 20,000 --check flags took 3 to 6 s before the first was compiled, 40,000 over 30 s.
 */
function collect(value: string, previous: string[] | undefined): string[] {
  if (previous === undefined) return [value];
  previous.push(value);
  return previous;
}

/** --check, for a command whose resource declares checks (format.ts adds it). */
export function addCheckOption(command: Command, checks: Pick<CheckModel<never, never>, 'examples'>): Command {
  const examples = (checks.examples ?? []).map((example) => `'${example}'`).join(' or ');
  return command.addOption(new Option('--check <expr>', `exit 8 unless [SYMBOL.]FIELD OP VALUE holds${examples === '' ? '' : `, e.g. ${examples}`} (repeatable: all must hold)`).argParser(collect));
}

/** --until and --exec, for a command that can --watch a resource that declares checks (watch.ts adds them). */
export function addUntilOptions(command: Command, checks: Pick<CheckModel<never, never>, 'exampleField'>): Command {
  // The resource's own: a quote's MKT_BID, a position's MKT_VALUE_BASE.
  const names = checks.exampleField === undefined ? [] : [`MKT_${checks.exampleField.toUpperCase()}`];
  return command
    .addOption(new Option('--until <expr>', 'with --watch: stop (exit 0) at the first poll where this holds (repeatable: all must); exit 8 if --count runs out first').argParser(collect))
    .option('--exec <program>', `with --until: then run PROGRAM, one only you (or root) can change (no shell; its arguments after --), the triggering values in ${['MKT_SYMBOL', ...names].join(', ')}, …; a signal to mkt is passed on to it, and its process group killed 5s later`);
}

/**
 * A one-shot run's --check, compiled before any request against the resource's checks, `keys` the
 * symbols asked for (upper-cased): undefined when none is given. A malformed check, an unknown
 * field, a symbol not asked for, or --until or --exec without --watch, is a UsageError (exit 2).
 */
export function compileCheckFlags<T, D>(model: Checkable<T, D>, flags: CheckFlags, keys: readonly string[] | undefined): CheckSet<T, D> | undefined {
  if (flags.until !== undefined) {
    throw new UsageError('--until only applies with --watch: it ends a watch when the condition holds', 'add --watch, or use --check to check a single result (exit 8 when it fails)');
  }
  refuseExecWithoutUntil(flags);
  return compileFlag(model, flags.check, '--check', keys);
}

/** A watch's --until, compiled before any request; --check (a single result's) and --exec without --until are refused. */
export function compileUntilFlags<T, D>(model: Checkable<T, D>, flags: CheckFlags, keys: readonly string[] | undefined): CheckSet<T, D> | undefined {
  if (flags.check !== undefined) {
    throw new UsageError('--check cannot be used with --watch: a watch has no single result to judge', 'to end the watch when a condition holds, use --until; for a CI check, run without --watch');
  }
  refuseExecWithoutUntil(flags);
  return compileFlag(model, flags.until, '--until', keys);
}

function refuseExecWithoutUntil(flags: CheckFlags): void {
  if (flags.exec !== undefined && flags.until === undefined) {
    throw new UsageError('--exec runs a program when --until holds: it needs --watch and --until', 'for example --watch --until \'EURUSD.bid > 1.09\' --exec notify-send -- "EURUSD is up"');
  }
}

function compileFlag<T, D>(model: Checkable<T, D>, expressions: string[] | undefined, flag: string, keys: readonly string[] | undefined): CheckSet<T, D> | undefined {
  if (expressions === undefined || expressions.length === 0) return undefined;
  // The flags exist only for a resource that declares checks; a command that adds them by hand without one is a bug.
  if (model.checks === undefined) throw new Error(`${flag} given for a resource that declares no checks`);
  return compileChecks(expressions, model.checks, { flag, keys });
}

/**
 * After the data is written: `set` decided against the document's items (and the document, for a
 * field of the whole result), a symbol of `keys` with no item failing what applies to it. The
 * error that ends the run with exit 8, or undefined when every check held (or there were none).
 */
export function judgeChecks<T, D>(
  model: Checkable<T, D>, set: CheckSet<T, D> | undefined, document: D, keys: readonly string[] | undefined, now: number, unusable?: ReadonlyMap<string, string>,
): CheckFailedError | undefined {
  if (set === undefined) return undefined;
  const verdict = evaluateChecks(set, { rows: itemsOf(model, document), document, keys, unusable }, now);
  return verdict.failures.length === 0 ? undefined : checksFailedError(verdict, set.model.rowNoun);
}

/** Exit 8 after the data: each failed check named with its value. */
export function checksFailedError(verdict: CheckVerdict, rowNoun: string): CheckFailedError {
  return new CheckFailedError(reportFailures(verdict, { prefix: 'check failed', rowNoun }), 'the data written is as the service sent it; each check is decided on its exact digits');
}

/** Exit 8 when --count ran out before --until held: what did not hold at the last poll. */
export function untilNeverHeldError(verdict: CheckVerdict, polls: number, rowNoun: string): CheckFailedError {
  const report = reportFailures(verdict, {
    prefix: 'not met at the last poll',
    rowNoun,
    message: () => `--until did not hold at any of ${polls} poll${polls === 1 ? '' : 's'}`,
  });
  return new CheckFailedError(report, 'a higher --count waits longer; without --count, the watch runs until the condition holds');
}
