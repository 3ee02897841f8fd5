// argv in, exit code out. The only place where errors become exit codes and words.
// bin/mkt.js reaches it through src/cli/launch.ts, which answers `mkt --version` before this loads.
import { MktError } from '../api/errors.js';
import type { Deps, ProcessDeps } from './deps.js';

type ExitCodes = typeof import('./exit-codes.js');

export interface RunState {
  /** What main returns when the command finishes without throwing. */
  exitCode: number;
  /** Run by main after the command, last registered first (closing HTTP connections, say). */
  cleanups: Array<() => Promise<void>>;
}

export async function main(argv: string[], deps?: Deps): Promise<number> {
  // Loaded here, all at once: nothing of the CLI's before a command runs.
  const [exits, { createProcessDeps }, { createProgram }] = await Promise.all([
    import('./exit-codes.js'), import('./deps.js'), import('./program.js'),
  ]);
  const state: RunState = { exitCode: exits.ExitCode.OK, cleanups: [] };
  let own: ProcessDeps | undefined;
  let d = deps;
  let code: number;
  try {
    if (d === undefined) d = own = await createProcessDeps();
    await createProgram(d, state).parseAsync(argv, { from: 'user' });
    code = state.exitCode;
  } catch (error) {
    code = exits.isCommanderError(error) && error.exitCode === 0 ? exits.ExitCode.OK : reportError(exits, error, d, wantsJson(argv));
  } finally {
    for (const cleanup of state.cleanups.reverse()) await cleanup().catch(() => {});
    own?.dispose();
  }
  if (own !== undefined && code === exits.ExitCode.OK) {
    // A failed write to stdout is reported on the next turn of the event loop.
    await new Promise((resolve) => setImmediate(resolve));
    const failed = own.outputError();
    if (failed) code = reportError(exits, new MktError('OUTPUT', `cannot write to standard output: ${failed.message}`), d, wantsJson(argv));
  }
  return code;
}

function wantsJson(argv: string[]): boolean {
  const end = argv.indexOf('--');
  const args = end === -1 ? argv : argv.slice(0, end);
  return args.some((arg, i) => arg === '--json' || arg === '--format=json' || (arg === '--format' && args[i + 1] === 'json'));
}

function reportError(exits: ExitCodes, error: unknown, deps: Deps | undefined, json: boolean): number {
  const { errorCodeFor, exitCodeFor, ExitCode, isCommanderError, statusFor, stripControl, isDebug, safeJson } = exits;
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
    stderr.write(`${safeJson({
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
