// argv in, exit code out. The only place where errors become exit codes and words.
// bin/mkt.cjs reaches it through src/cli/launch.ts, which answers `mkt --version` before this loads.
import type { Deps, ProcessDeps } from './deps.js';
import type { RegisterCommand } from './program.js';
import type { RunState } from './run-state.js';

type ExitCodes = typeof import('./exit-codes.js');

/** `commands`: the program's own (program.ts) unless given; tests give a command of their own. */
export async function main(argv: string[], deps?: Deps, commands?: readonly RegisterCommand[]): Promise<number> {
  // Loaded here, all at once: nothing of the CLI's before a command runs.
  const [exits, { createProcessDeps }, { createProgram }, { withScrubbedDiagnostics }, { splitProgramArgs }] = await Promise.all([
    import('./exit-codes.js'), import('./deps.js'), import('./program.js'), import('./secrets.js'), import('./exec/split-program-args.js'),
  ]);
  // `--exec PROGRAM -- ARG...`: the words after `--` are the program's, set apart before commander
  // reads the rest, so none of them is taken for a flag or a symbol.
  const { argv: words, programArgs } = splitProgramArgs(argv);
  const state: RunState = { exitCode: exits.ExitCode.OK, cleanups: [], ...(programArgs === undefined ? {} : { programArgs }) };
  let own: ProcessDeps | undefined;
  let d: Deps | undefined;
  let code: number;
  /** Whether an error has been reported: one failure, one message. */
  let reported = false;
  try {
    if (deps === undefined) own = await createProcessDeps();
    d = withScrubbedDiagnostics(deps ?? own!);
    await createProgram(d, state, commands).parseAsync(words, { from: 'user' });
    code = state.exitCode;
  } catch (error) {
    // commander.help: a command group run without its subcommand has printed its help (on stdout,
    // program.ts), as gh does: not an error.
    code = exits.isCommanderError(error) && (error.exitCode === 0 || error.code === 'commander.help')
      ? exits.ExitCode.OK
      : await reportError(exits, error, d ?? deps, state);
    reported = code !== exits.ExitCode.OK;
  } finally {
    for (const cleanup of state.cleanups.reverse()) await cleanup().catch(() => {});
    own?.dispose();
  }
  if (own !== undefined && !reported) {
    // A failed write to stdout is reported on the next turn of the event loop. Output that was lost
    // is the failure to report, whatever the command's own exit code (`mkt status` exits 4 with its
    // report on stdout), unless an error message has already been written.
    await new Promise((resolve) => setImmediate(resolve));
    const failed = own.outputError();
    if (failed) {
      const { outputError } = await import('./errors.js');
      code = await reportError(exits, outputError(failed), d, state);
    }
  }
  return code;
}

async function reportError(exits: ExitCodes, error: unknown, deps: Deps | undefined, state: RunState): Promise<number> {
  const { errorCodeFor, exitCodeFor, isCommanderError, statusFor } = exits;
  const [{ debugStack, explainUsage, reportWords }, { errorsAsJson }, { scrubSecrets }, { safeJson, printable }, { isDebug }, { failedChecksOf }, { positionsProblemsOf }] = await Promise.all([
    import('./explain.js'), import('./options/format.js'), import('./secrets.js'), import('../shared/text.js'), import('./io.js'), import('./errors.js'),
    import('./value/positions-words.js'),
  ]);
  const stderr = deps?.io.stderr ?? process.stderr;
  const env = deps?.env ?? process.env;
  const exitCode = exitCodeFor(error);
  const usage = isCommanderError(error) ? explainUsage(error, state.command) : undefined;
  const { message, hint, requestId } = reportWords(error, deps, state.explain, state.names, {
    internalHint: 'run again with MKT_DEBUG=1 for details, and report it if it persists',
    interrupted: 'interrupted',
  }, usage);

  // Failed checks (exit 8, or with --strict's exit 3): each one, in words before the error's line,
  // or as data in the JSON object.
  const checks = failedChecksOf(error);
  // A positions file's problems (mkt value): each on a line under the error's, or as data.
  const problems = positionsProblemsOf(error);
  if (errorsAsJson(deps, state.command)) {
    stderr.write(`${safeJson({
      error: {
        code: errorCodeFor(error), message, status: statusFor(error), exit_code: exitCode, hint: hint ?? null, request_id: requestId ?? null,
        ...(checks === undefined ? {} : { checks: checks.checks }),
        ...(problems === undefined ? {} : {
          problems: problems.json.map((problem) => ({ ...problem, message: scrubSecrets(deps, problem.message), value: problem.value === null ? null : scrubSecrets(deps, problem.value) })),
          problem_count: problems.count,
        }),
      },
    })}\n`);
  } else {
    for (const line of checks?.lines ?? []) stderr.write(`${scrubSecrets(deps, printable(line))}\n`);
    const listed = (problems?.lines ?? []).map((line) => `${scrubSecrets(deps, line)}\n`).join('');
    stderr.write(`error: ${message}\n${listed}${hint ? `hint: ${hint}\n` : ''}${requestId ? `request id: ${requestId}\n` : ''}`);
  }
  if (isDebug(env) && error instanceof Error) stderr.write(`${debugStack(deps, error)}\n`);
  return exitCode;
}
