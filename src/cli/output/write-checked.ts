// A declared resource written, then its --check decided (options/checks.ts), for a command with
// nothing of its own to say between the two. quotes-output.ts does the same in two steps, its
// warnings and --strict between them.
import type { CheckSet } from '../../render/checks/compile-checks.js';
import type { FieldSet } from '../../render/fields.js';
import { judgeChecks } from '../options/checks.js';
import type { Terminal } from './terminal.js';
import { writeResource, type WriteOptions } from './writer.js';

export interface CheckedWriteOptions<T, N extends string, D> extends WriteOptions<N> {
  /** --check, compiled before any request (compileCheckFlags). */
  checks?: CheckSet<T, D>;
  /** The symbols asked for, upper-cased: one with no row fails the checks that apply to it. */
  keys?: readonly string[];
}

/** Writes `document` as writeResource does; then throws a CheckFailedError (exit 8) if a check failed. */
export async function writeChecked<T, N extends string, D>(
  terminal: Terminal, resource: FieldSet<T, N, D>, document: NoInfer<D>, options: CheckedWriteOptions<T, N, NoInfer<D>>,
): Promise<void> {
  // One instant for the ages written and the ages checked.
  const now = options.now ?? terminal.now();
  await writeResource(terminal, resource, document, { format: options.format, fields: options.fields, now });
  const failed = judgeChecks(resource, options.checks, document, options.keys, now);
  if (failed !== undefined) throw failed;
}
