// Errors that only the command line raises. The library's errors live in src/api/errors.ts; all
// share MktError's shape (a stable code, a message, a hint), so main words them all alike.
import { MktError, UsageError } from '../shared/errors.js';

export { UsageError };

/** No usable stored or supplied credentials: exit 4. */
export class CredentialsError extends MktError {
  override name = 'CredentialsError';

  constructor(message: string, hint?: string) {
    super('NOT_AUTHENTICATED', message, { hint });
  }
}

/** The answer came back but is incomplete or doubtful under --strict (missing, stale, future or impossible quotes): exit 3. */
export class IncompleteError extends MktError {
  override name = 'IncompleteError';

  constructor(message: string, hint?: string) {
    super('INCOMPLETE', message, { hint });
  }
}

/** Standard output that cannot be written (a full disk, /dev/full): exit 1, with one message. */
export function outputError(cause: Error): MktError {
  return new MktError('OUTPUT', `cannot write to standard output: ${cause.message}`, {
    hint: 'check where standard output goes: a full disk, a closed file or a device that takes no output', cause,
  });
}
