// argv in, exit code out. The only place where errors become exit codes and words.
// bin/mkt.cjs reaches it through src/cli/launch.ts, which answers `mkt --version` before this loads.
import type { Deps, ProcessDeps } from './deps.js';
import type { RegisterCommand } from './program.js';
import type { RunState } from './run-state.js';

type ExitCodes = typeof import('./errors/exit-codes.js');

/** `commands`: the program's own (program.ts) unless given; tests give a command of their own. */
export async function main(argv: string[], deps?: Deps, commands?: readonly RegisterCommand[]): Promise<number> {
  // Loaded here, all at once: nothing of the CLI's before a command runs.
  const [exits, { createProcessDeps }, { createProgram }, { withScrubbedDiagnostics }, { diagnosticsOf }, { splitProgramArgs }] = await Promise.all([
    import('./errors/exit-codes.js'), import('./deps.js'), import('./program.js'), import('./credentials/secrets.js'), import('./output/diagnostics.js'), import('./exec/split-program-args.js'),
  ]);
  // `--exec PROGRAM -- ARG...`: the words after `--` are the program's, set apart before commander
  // reads the rest, so none of them is taken for a flag or a symbol.
  const { argv: words, programArgs } = splitProgramArgs(argv);
  const state: RunState = { exitCode: exits.ExitCode.OK, cleanups: [], ...(programArgs === undefined ? {} : { programArgs }) };
  let own: ProcessDeps | undefined;
  let d: Deps | undefined;
  let code: number = exits.ExitCode.OK;
  let failure: { error: unknown } | undefined;
  /** Whether an error has been reported: one failure, one message. */
  let reported = false;
  try {
    if (deps === undefined) own = await createProcessDeps();
    d = withScrubbedDiagnostics(deps ?? own!);
    // The config file's warnings (a file others can read) are said as the run says everything else.
    d.config.warnTo(diagnosticsOf(d).warn);
    await createProgram(d, state, commands).parseAsync(words, { from: 'user' });
    code = state.exitCode;
  } catch (error) {
    failure = { error };
  } finally {
    for (const cleanup of state.cleanups.reverse()) await cleanup().catch(() => {});
  }
  // After the cleanups, so that nothing is said after the error (a JSON error object is the last line).
  if (failure !== undefined) {
    const { error } = failure;
    // commander.help: a command group run without its subcommand has printed its help (on stdout,
    // program.ts), as gh does: not an error.
    code = exits.isCommanderError(error) && (error.exitCode === 0 || error.code === 'commander.help')
      ? exits.ExitCode.OK
      : await reportError(exits, error, d ?? deps, state);
    reported = code !== exits.ExitCode.OK;
  }
  own?.dispose();
  if (own !== undefined && !reported) {
    // A failed write to stdout is reported on the next turn of the event loop. Output that was lost
    // is the failure to report, whatever the command's own exit code (`mkt status` exits 4 with its
    // report on stdout), unless an error message has already been written.
    await new Promise((resolve) => setImmediate(resolve));
    const failed = own.outputError();
    if (failed) {
      const { outputError } = await import('./errors/errors.js');
      code = await reportError(exits, outputError(failed), d, state);
    }
  }
  if (d !== undefined) diagnosticsOf(d).finish();
  return code;
}

async function reportError(exits: ExitCodes, error: unknown, deps: Deps | undefined, state: RunState): Promise<number> {
  const { errorCodeFor, exitCodeFor, isCommanderError, statusFor } = exits;
  const [{ debugStack, explainUsage, reportWords }, { diagnosticsAsJson }, { diagnosticsOf }, { printable }, { isDebug }, { failedChecksOf }, { positionsProblemsOf }] = await Promise.all([
    import('./errors/explain.js'), import('./options/format.js'), import('./output/diagnostics.js'), import('../shared/text.js'), import('./io.js'), import('./errors/errors.js'),
    import('./value/positions-words.js'),
  ]);
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
  const text = [
    ...(checks?.lines ?? []).map((line) => printable(line)), `error: ${message}`, ...(problems?.lines ?? []),
    ...(hint ? [`hint: ${hint}`] : []), ...(requestId ? [`request id: ${requestId}`] : []),
  ].join('\n');
  const object = {
    error: {
      code: errorCodeFor(error), message, status: statusFor(error), exit_code: exitCode, hint: hint ?? null, request_id: requestId ?? null,
      ...(checks === undefined ? {} : { checks: checks.checks }),
      ...(problems === undefined ? {} : { problems: problems.json, problem_count: problems.count }),
    },
  };
  const stack = isDebug(env) && error instanceof Error ? debugStack(deps, error) : undefined;
  if (deps === undefined) {
    // No deps, so no diagnostics: the process could not be set up. Its words, on the process's stderr.
    process.stderr.write(`${text}\n${stack === undefined ? '' : `${stack}\n`}`);
    return exitCode;
  }
  const diagnostics = diagnosticsOf(deps);
  // An error before the command's flags were parsed (a bad flag): its format decides now.
  if (diagnostics.json === undefined) diagnostics.decide(diagnosticsAsJson(deps, state.command));
  // The stack trace after the words in text; under JSON, a debug line before the error object, which is last.
  if (stack !== undefined && diagnostics.json) diagnostics.debug(stack);
  diagnostics.error(object, text);
  if (stack !== undefined && !diagnostics.json) diagnostics.debug(stack);
  return exitCode;
}
