// Errors that only the command line raises. The library's errors live in src/api/errors.ts.

/** Bad flags, arguments or local input: exit 2. */
export class UsageError extends Error {
  override name = 'UsageError';
  code = 'USAGE';
  hint: string | undefined;

  constructor(message: string, hint?: string) {
    super(message);
    this.hint = hint;
  }
}

/** No usable stored or supplied credentials: exit 4. */
export class CredentialsError extends Error {
  override name = 'CredentialsError';
  code = 'NOT_AUTHENTICATED';
  hint: string | undefined;

  constructor(message: string, hint?: string) {
    super(message);
    this.hint = hint;
  }
}

/** The answer came back but is incomplete (missing or stale quotes under --strict): exit 3. */
export class IncompleteError extends Error {
  override name = 'IncompleteError';
  code = 'INCOMPLETE';
  hint: string | undefined;

  constructor(message: string, hint?: string) {
    super(message);
    this.hint = hint;
  }
}
