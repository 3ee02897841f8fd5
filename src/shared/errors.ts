// The base of every error mkt raises, and the one for bad input. The library's errors (src/api) and
// the command line's (src/cli) build on these; main words them all alike and maps them to exit codes.

export interface ErrorDetails {
  hint?: string;
  cause?: unknown;
}

export class MktError extends Error {
  override name = 'MktError';
  /** A machine-readable code, stable across releases (e.g. `UNAUTHORIZED`, `ECONNREFUSED`). */
  code: string;
  /** The next step for the person reading the message. */
  hint: string | undefined;

  constructor(code: string, message: string, details: ErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.code = code;
    this.hint = details.hint;
  }
}

/** Bad flags, arguments, settings or other local input: exit 2 in the CLI. */
export class UsageError extends MktError {
  override name = 'UsageError';

  constructor(message: string, hint?: string) {
    super('USAGE', message, { hint });
  }
}

/** The caller aborted (Ctrl-C in the CLI). */
export class AbortError extends MktError {
  override name = 'AbortError';

  constructor(message = 'interrupted', details: ErrorDetails = {}) {
    super('INTERRUPTED', message, details);
  }
}
