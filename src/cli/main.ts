// argv in, exit code out. The only place where errors become exit codes and words.
import { CommanderError } from 'commander';
import { createProcessDeps, type Deps } from './deps.js';
import { errorCodeFor, exitCodeFor, ExitCode, statusFor } from './exit-codes.js';
import { stripControl } from '../render/text.js';
import { isDebug } from './io.js';
import { createProgram, type RunState } from './program.js';

export async function main(argv: string[], deps?: Deps): Promise<number> {
  const own = deps === undefined ? createProcessDeps() : undefined;
  const d = deps ?? own!;
  const state: RunState = { exitCode: ExitCode.OK, cleanups: [] };
  try {
    await createProgram(d, state).parseAsync(argv, { from: 'user' });
    return state.exitCode;
  } catch (error) {
    if (error instanceof CommanderError && error.exitCode === 0) return ExitCode.OK; // --help, --version
    return reportError(error, d, wantsJson(argv));
  } finally {
    for (const cleanup of state.cleanups.reverse()) await cleanup().catch(() => {});
    own?.dispose();
  }
}

function wantsJson(argv: string[]): boolean {
  const end = argv.indexOf('--');
  const args = end === -1 ? argv : argv.slice(0, end);
  return args.some((arg, i) => arg === '--json' || arg === '--format=json' || (arg === '--format' && args[i + 1] === 'json'));
}

function reportError(error: unknown, deps: Deps, json: boolean): number {
  const exitCode = exitCodeFor(error);
  const known = error instanceof Error && errorCodeFor(error) !== 'INTERNAL';
  let message = error instanceof Error ? error.message : String(error);
  if (error instanceof CommanderError) message = message.replace(/^error: /, '');
  if (!known) message = `internal error: ${message}`;
  let hint = (error as { hint?: string }).hint;
  if (error instanceof CommanderError) hint = 'run `mkt --help` (or `mkt <command> --help`) for usage';
  if (!known) hint = 'run again with MKT_DEBUG=1 for details, and report it if it persists';
  if (exitCode === ExitCode.INTERRUPTED) message = 'interrupted';
  // Messages can quote the service; nothing it sends may drive the terminal.
  message = stripControl(message);
  hint = hint === undefined ? undefined : stripControl(hint);

  if (json) {
    deps.io.stderr.write(`${JSON.stringify({
      error: { code: errorCodeFor(error), message, status: statusFor(error), exit_code: exitCode, hint: hint ?? null },
    })}\n`);
  } else {
    deps.io.stderr.write(`error: ${message}\n${hint ? `hint: ${hint}\n` : ''}`);
  }
  if (isDebug(deps.env) && error instanceof Error) deps.io.stderr.write(`${describeStack(error)}\n`);
  return exitCode;
}

function describeStack(error: Error): string {
  let text = error.stack ?? String(error);
  let cause = error.cause;
  for (let depth = 0; cause instanceof Error && depth < 5; depth++, cause = cause.cause) {
    text += `\ncaused by: ${cause.stack ?? String(cause)}`;
  }
  return text;
}
