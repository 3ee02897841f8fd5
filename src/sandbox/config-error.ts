/**
 * A sandbox option or `--clients` file is invalid. Thrown before the server starts, with a message
 * that names the offending value, so the CLI can show it as a usage error.
 */
export class SandboxConfigError extends Error {
  override name = 'SandboxConfigError';
}
