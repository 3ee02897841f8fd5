/**
 * A sandbox option or `--clients` file is invalid. Thrown before the server starts, with a message
 * that names the offending value, so the CLI can show it as a usage error; `hint`, when set, says
 * what to do about it.
 */
export class SandboxConfigError extends Error {
  override name = 'SandboxConfigError';

  constructor(message: string, readonly hint?: string) {
    super(message);
  }
}
