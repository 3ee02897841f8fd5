// argv in, exit code out. The only place where errors become exit codes and words.
// Startup is paid on every run (docs/benchmarks.md): this module stays small, and the program,
// commander and the config store load only once a command needs them.
import { stripControl } from '../render/text.js';
import { createProcessDeps, type Deps } from './deps.js';
import { errorCodeFor, exitCodeFor, ExitCode, isCommanderError, statusFor } from './exit-codes.js';
import { isDebug } from './io.js';
import type { RunState } from './program.js';
import { VERSION } from './version.js';

export async function main(argv: string[], deps?: Deps): Promise<number> {
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    (deps?.io.stdout ?? process.stdout).write(`${VERSION}\n`);
    return ExitCode.OK;
  }
  const state: RunState = { exitCode: ExitCode.OK, cleanups: [] };
  let own: Awaited<ReturnType<typeof createProcessDeps>> | undefined;
  let d = deps;
  try {
    if (d === undefined) d = own = await createProcessDeps();
    const { createProgram } = await import('./program.js');
    await createProgram(d, state).parseAsync(argv, { from: 'user' });
    return state.exitCode;
  } catch (error) {
    if (isCommanderError(error) && error.exitCode === 0) return ExitCode.OK; // --help
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

function reportError(error: unknown, deps: Deps | undefined, json: boolean): number {
  const stderr = deps?.io.stderr ?? process.stderr;
  const env = deps?.env ?? process.env;
  const exitCode = exitCodeFor(error);
  const known = error instanceof Error && errorCodeFor(error) !== 'INTERNAL';
  let message = error instanceof Error ? error.message : String(error);
  if (isCommanderError(error)) message = message.replace(/^error: /, '');
  if (!known) message = `internal error: ${message}`;
  let hint = (error as { hint?: string }).hint;
  if (isCommanderError(error)) hint = 'run `mkt --help` (or `mkt <command> --help`) for usage';
  if (!known) hint = 'run again with MKT_DEBUG=1 for details, and report it if it persists';
  if (exitCode === ExitCode.INTERRUPTED) message = 'interrupted';
  // Messages can quote the service; nothing it sends may drive the terminal.
  message = stripControl(message);
  hint = hint === undefined ? undefined : stripControl(hint);

  if (json) {
    stderr.write(`${JSON.stringify({
      error: { code: errorCodeFor(error), message, status: statusFor(error), exit_code: exitCode, hint: hint ?? null },
    })}\n`);
  } else {
    stderr.write(`error: ${message}\n${hint ? `hint: ${hint}\n` : ''}`);
  }
  if (isDebug(env) && error instanceof Error) stderr.write(`${describeStack(error)}\n`);
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
