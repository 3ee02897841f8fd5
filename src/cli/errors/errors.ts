// Errors that only the command line raises. The library's errors live in src/api/errors.ts; all
// share MktError's shape (a stable code, a message, a hint), so main words them all alike.
import type { CheckFailureJson, CheckReport } from '../../render/checks/check-report.js';
import { AbortError, MktError, UsageError } from '../../shared/errors.js';

export { UsageError };

/** No usable stored or supplied credentials: exit 4. */
export class CredentialsError extends MktError {
  override name = 'CredentialsError';

  constructor(message: string, hint?: string) {
    super('NOT_AUTHENTICATED', message, { hint });
  }
}

/**
 * The answer came back but is incomplete or doubtful under --strict (missing, stale, future or
 * impossible quotes): exit 3. `failedChecks`: the --check failures of the same run, reported with it
 * (their lines, or `checks` in the JSON error object); its exit code 3 is the run's.
 */
export class IncompleteError extends MktError {
  override name = 'IncompleteError';
  readonly failedChecks: CheckFailedError | undefined;

  constructor(message: string, hint?: string, failedChecks?: CheckFailedError) {
    super('INCOMPLETE', message, { hint });
    this.failedChecks = failedChecks;
  }
}

/**
 * A --check that did not hold, or an --until that never held before --count ran out: exit 8. main
 * writes `lines` (a failure each) before its `error:` line, and `checks` (every failure) in the JSON
 * error object.
 */
export class CheckFailedError extends MktError {
  override name = 'CheckFailedError';
  readonly lines: readonly string[];
  readonly checks: readonly CheckFailureJson[];

  constructor(report: CheckReport, hint?: string) {
    super('CHECK_FAILED', report.message, { hint });
    this.lines = report.lines;
    this.checks = report.checks;
  }
}

/** The failed checks an error carries: its own (exit 8), or those of a run that --strict also failed (exit 3). */
export function failedChecksOf(error: unknown): CheckFailedError | undefined {
  if (error instanceof CheckFailedError) return error;
  return error instanceof IncompleteError ? error.failedChecks : undefined;
}

/** An --exec program that could not be started, exited with a status other than 0, or was killed: exit 1. */
export class ProgramFailedError extends MktError {
  override name = 'ProgramFailedError';
  /** The program as given to --exec. */
  readonly program: string;
  /** Its exit status, when it exited. */
  readonly status: number | undefined;
  /** The signal that ended it, when one did. */
  readonly signal: string | undefined;

  constructor(message: string, facts: { program: string; status?: number; signal?: string; hint?: string; cause?: unknown }) {
    super('EXEC_FAILED', message, { hint: facts.hint, cause: facts.cause });
    this.program = facts.program;
    this.status = facts.status;
    this.signal = facts.signal;
  }
}

/**
 * mkt was interrupted while its --exec program ran, or was about to: exit 130, as any interruption,
 * with a message that says what became of the program (the signal passed on to it, and whether it
 * ended by itself or its process group was killed).
 */
export class ProgramInterruptedError extends AbortError {
  override name = 'ProgramInterruptedError';
  /** The program as given to --exec. */
  readonly program: string;
  /** The signal that interrupted mkt. */
  readonly signal: NodeJS.Signals;
  /** Whether mkt killed the program's process group (SIGKILL): it did not end within the grace period, or a second signal came. */
  readonly killed: boolean;

  constructor(message: string, facts: { program: string; signal: NodeJS.Signals; killed?: boolean; hint?: string }) {
    super(message, { hint: facts.hint });
    this.program = facts.program;
    this.signal = facts.signal;
    this.killed = facts.killed ?? false;
  }
}

/** Standard output that cannot be written (a full disk, /dev/full): exit 1, with one message. */
export function outputError(cause: Error): MktError {
  return new MktError('OUTPUT', `cannot write to standard output: ${cause.message}`, {
    hint: 'check where standard output goes: a full disk, a closed file or a device that takes no output', cause,
  });
}
