// What a data command says on stderr once its data is written, whatever the data: each problem
// (symbols with no quote, stale quotes, a currency with no rate) as a warning, or, under --strict,
// all of them as one IncompleteError (exit 3); and the quotes the service sent for symbols not asked
// for, which --strict does not fail on. `mkt quotes` and `mkt value` share these words. Each problem
// has its warning's code (src/shared/warnings.ts), for the JSON line it is under a JSON format.
import { printable } from '../../shared/text.js';
import type { Warning } from '../../shared/warnings.js';
import { IncompleteError, type CheckFailedError } from '../errors/errors.js';
import type { Terminal } from './terminal.js';

/** The first ten, made safe to print, and how many more: `A, B, C and 12 more`. */
export function listSome(items: readonly string[]): string {
  const shown = items.slice(0, 10).map((item) => printable(item)).join(', ');
  return items.length > 10 ? `${shown} and ${items.length - 10} more` : shown;
}

/** The service answers for the symbols requested: what it sent besides is left out, and said. */
export function warnUnasked(terminal: Terminal, unasked: readonly string[]): void {
  if (unasked.length > 0) terminal.diagnostics.warn({ code: 'unasked_quotes', message: `the service sent quotes for symbols not asked for (${listSome(unasked)}); they are left out` });
}

/**
 * Problems as warnings on stderr, exit 0; or under --strict one IncompleteError (exit 3) naming them
 * all, `strictHint` saying what --strict changed. Checks that failed (--check) end the run with exit
 * 8 after the warnings; under --strict with problems, exit 3 wins and carries them.
 */
export function reportProblems(
  terminal: Terminal, problems: readonly Warning[], strict: boolean | undefined, strictHint: string, failedChecks?: CheckFailedError,
): number {
  if (problems.length > 0 && strict) throw new IncompleteError(problems.map((problem) => problem.message).join('; '), strictHint, failedChecks);
  for (const problem of problems) terminal.diagnostics.warn(problem);
  if (failedChecks !== undefined) throw failedChecks;
  return 0;
}
