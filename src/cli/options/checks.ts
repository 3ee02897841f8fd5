// --check, --until and --exec, for any command that writes a resource with a CheckModel (quotes,
// value): the flags, and the errors that end a run whose checks failed (exit 8). The expressions are
// compiled before any request (render/checks/compile-checks.ts); the program's arguments are split
// from mkt's before commander parses (exec/split-program-args.ts).
import { Option, type Command } from 'commander';
import { reportFailures } from '../../render/checks/check-report.js';
import type { CheckVerdict } from '../../render/checks/evaluate-checks.js';
import { CheckFailedError } from '../errors.js';

export interface CheckFlags {
  check?: string[];
  until?: string[];
  exec?: string;
}

/** Repeatable: each --check adds one. */
function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** --check always; --until and --exec for a command that can --watch. */
export function addCheckOptions(command: Command, options: { watch: boolean }): Command {
  command.addOption(new Option('--check <expr>', 'exit 8 unless [SYMBOL.]FIELD OP VALUE holds, e.g. \'EURUSD.bid > 1.08\' or \'spread_bps < 5\' (repeatable: all must hold)').argParser(collect));
  if (!options.watch) return command;
  return command
    .addOption(new Option('--until <expr>', 'with --watch: stop (exit 0) at the first poll where this holds (repeatable: all must); exit 8 if --count runs out first').argParser(collect))
    .option('--exec <program>', 'with --until: then run PROGRAM (no shell; its arguments after --), the triggering values in MKT_SYMBOL, MKT_BID, …');
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
