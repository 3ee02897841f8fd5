// Runs an --exec program once, when an --until held: without a shell (an argument vector, never a
// command line), with the triggering values in its environment as exact text (MKT_SYMBOL, MKT_BID…),
// and waits for it. Nothing from the data reaches the program's arguments, which are only the words
// given after `--` (split-program-args.ts), or any shell: a symbol such as `$(rm -rf ~)` or `A;B` is
// a value in an environment variable and nothing else.
//
// Its standard input is closed (a board may be reading keys); what it writes goes to mkt's standard
// output and error. A status other than 0, a signal, or a program that cannot be started is a
// ProgramFailedError (exit 1) naming the program and what happened.
//
// It leads a process group of its own (in a session of its own: what Node's `detached` makes), so
// that mkt can end it with whatever it started. When mkt is interrupted while it runs (`signal`:
// SIGINT, SIGTERM, and SIGHUP or SIGQUIT, which mkt catches while it holds a program), the signal mkt
// got is passed on to the group, as a terminal passes Ctrl-C to its foreground job. The program, and
// whatever of its group still holds its output, have EXEC_GRACE_MS to end; then the group is killed
// (SIGKILL), as it is at once on a second signal (Deps.holdSignals), and whatever is left of it once
// the program has ended is killed too. mkt then ends as interrupted (exit 130), saying what became
// of the program (ProgramInterruptedError). A process that left the group (setsid) is its own.
// Windows has no signals to pass on and no process groups Node can signal: there the program is
// ended at once (Node's kill: TerminateProcess), and what it started is not.
import { spawn as nodeSpawn, type ChildProcess } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import type { Readable } from 'node:stream';
import { formatDuration } from '../../shared/duration.js';
import { EXEC_GRACE_MS } from '../../shared/limits.js';
import { sleep as realSleep } from '../../shared/sleep.js';
import { InterruptSignal, type Deps } from '../deps.js';
import { ProgramFailedError, ProgramInterruptedError } from '../errors/errors.js';
import type { Env, Output } from '../io.js';

export interface ProgramCall {
  /** As given to --exec: a name looked up on PATH, or a path; what messages name, and the program's argv[0]. */
  program: string;
  /** The file findProgram found for it, run as it is (no second PATH search); `program` when not given. */
  file?: string;
  /** The words after `--`. */
  args: readonly string[];
}

export interface RunProgramOptions {
  /** mkt's own environment, passed on, less `drop`. */
  env: Env;
  /** The trigger's values, `MKT_*` names (evaluate-until.ts). */
  trigger: Readonly<Record<string, string>>;
  /** Names not to pass on from `env` (triggerEnvironmentNames): a stale MKT_BID must not pose as the trigger's. */
  drop?: readonly string[];
  /** Where the program's output goes: mkt's own streams. */
  io: { stdout: Output; stderr: Output };
  /** mkt's interruption (Deps.signal): its InterruptSignal's signal is passed on to the program (SIGTERM for another reason). */
  signal?: AbortSignal;
  /** Deps.holdSignals: SIGHUP and SIGQUIT caught while the program runs, and a second signal, which kills its group at once. */
  holdSignals?: Deps['holdSignals'];
  /** How long the program has to end once a signal is passed on: EXEC_GRACE_MS. */
  graceMs?: number;
  /** The grace period's wait (Deps.sleep); a test's ends it when the test says. */
  sleep?: Deps['sleep'];
  /** node:child_process's spawn, or a test's. */
  spawn?: typeof nodeSpawn;
  platform?: NodeJS.Platform;
}

/** How the program ended, and whether its group had been killed by then (Stop.forced). */
interface Outcome {
  status: number | null;
  signal: NodeJS.Signals | null;
  forced: Stop['forced'];
}

/** What mkt did to the program when it was interrupted. */
interface Stop {
  /** The signal mkt got, and passed on. */
  by: NodeJS.Signals;
  /** Why the group was killed, if it was: the grace period ran out, or a second signal came (named). */
  forced?: 'grace' | NodeJS.Signals;
}

export async function runProgram(call: ProgramCall, options: RunProgramOptions): Promise<void> {
  const env = programEnvironment(options.env, options.trigger, options.drop ?? []);
  const named = `--exec ${call.program}`;
  for (const [name, value] of Object.entries(options.trigger)) {
    // No environment can carry a NUL; spawn would refuse the whole environment.
    if (value.includes('\0')) throw new ProgramFailedError(`${named} was not run: ${name} would hold a NUL character, which no environment can carry`, { program: call.program });
  }
  if (options.signal?.aborted) {
    const by = signalName(options.signal.reason);
    throw new ProgramInterruptedError(`interrupted by ${by} before ${named} ran`, { program: call.program, signal: by });
  }
  const windows = (options.platform ?? process.platform) === 'win32';
  const graceMs = options.graceMs ?? EXEC_GRACE_MS;
  const spawn = options.spawn ?? nodeSpawn;
  let stop: Stop | undefined;
  let group: (name: NodeJS.Signals) => void = () => {};
  // Held before the program starts (and spawn is synchronous), so no signal finds it running and mkt gone.
  const release = options.holdSignals?.((name) => {
    stop ??= { by: name };
    if (stop.forced !== undefined) return;
    stop.forced = name;
    group('SIGKILL');
  });
  let child: ChildProcess;
  try {
    child = spawn(call.file ?? call.program, [...call.args], {
      shell: false, argv0: call.program, env, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true, detached: !windows,
    });
  } catch (error) {
    release?.();
    throw cannotStart(call.program, error as NodeJS.ErrnoException);
  }
  group = signalGroup(child, windows);
  let exitedYet = false;
  const exited = new Promise<Outcome>((resolve, reject) => {
    child.once('error', (error: NodeJS.ErrnoException) => reject(cannotStart(call.program, error)));
    child.once('exit', (status, signal) => {
      exitedYet = true;
      resolve({ status, signal, forced: stop?.forced });
    });
  });
  const endGrace = new AbortController();
  let grace: Promise<void> | undefined;
  const onAbort = () => {
    // Once it has exited, its outcome stands.
    if (exitedYet || stop !== undefined) return;
    const by = signalName(options.signal?.reason);
    stop = { by };
    group(by);
    grace = (options.sleep ?? realSleep)(graceMs, endGrace.signal).then(() => {
      if (stop!.forced !== undefined) return;
      stop!.forced = 'grace';
      group('SIGKILL');
    }, () => {});
  };
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const output = Promise.all([forward(child.stdout, options.io.stdout), forward(child.stderr, options.io.stderr)]);
    const outcome = await exited;
    if (stop === undefined) {
      await settled(output, OUTPUT_GRACE_MS);
      if (outcome.signal !== null) {
        throw new ProgramFailedError(`${named} was ended by ${outcome.signal}`, { program: call.program, signal: outcome.signal });
      }
      if (outcome.status !== 0) {
        throw new ProgramFailedError(`${named} exited with status ${outcome.status}`, { program: call.program, status: outcome.status ?? undefined, hint: 'its own output, above, should say why' });
      }
      return;
    }
    // Interrupted: what of its group still holds its output has the rest of the grace period; then
    // whatever is left of the group is killed. When nothing is left of the group, what holds the
    // output left it (setsid): that is its own, and mkt neither waits for it nor says it was killed.
    if (outcome.forced === undefined && groupRemains(child, windows)) await Promise.race([output, grace ?? output]);
    endGrace.abort();
    group('SIGKILL');
    await settled(output, OUTPUT_GRACE_MS);
    throw interruptedError(call.program, stop, outcome, graceMs, windows);
  } finally {
    endGrace.abort();
    release?.();
    options.signal?.removeEventListener('abort', onAbort);
    // A program that left something running in the background with its output (`notify &`) would
    // otherwise hold mkt open for as long as that runs.
    child.stdout?.destroy();
    child.stderr?.destroy();
  }
}

/** The signal an abort `reason` names (createProcessDeps aborts with an InterruptSignal); SIGTERM for any other. */
function signalName(reason: unknown): NodeJS.Signals {
  return reason instanceof InterruptSignal ? reason.signalName : 'SIGTERM';
}

/**
 * Sends a signal to the program's process group (it leads one: `detached`), so that what it started
 * gets it too; on Windows, to the program alone, which Node's kill ends at once whatever the signal.
 */
function signalGroup(child: ChildProcess, windows: boolean): (name: NodeJS.Signals) => void {
  return (name) => {
    if (windows || child.pid === undefined) {
      child.kill(name);
      return;
    }
    try {
      process.kill(-child.pid, name);
    } catch {
      // ESRCH: nothing is left of the group.
    }
  };
}

/** Whether anything is left of the program's process group; on Windows, where there is none to ask, as if there were. */
function groupRemains(child: ChildProcess, windows: boolean): boolean {
  if (windows || child.pid === undefined) return true;
  try {
    process.kill(-child.pid, 0);
    return true;
  } catch (error) {
    // ESRCH: no process is in it; EPERM would be one that is, of another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** What an interruption did to the program, in words: exit 130. */
function interruptedError(program: string, stop: Stop, outcome: Outcome, graceMs: number, windows: boolean): ProgramInterruptedError {
  const named = `--exec ${program}`;
  const facts = { program, signal: stop.by, killed: stop.forced !== undefined };
  if (windows) return new ProgramInterruptedError(`interrupted by ${stop.by}: mkt ended ${named} at once (on Windows no signal is passed on)`, facts);
  const grace = formatDuration(graceMs);
  if (outcome.forced === 'grace') {
    return new ProgramInterruptedError(`interrupted by ${stop.by}: ${named} did not end within ${grace} of the ${stop.by} passed on to it, so mkt killed its process group (SIGKILL)`, {
      ...facts, hint: `a program has ${grace} to end once mkt passes a signal on; one that must outlive mkt can leave its process group (setsid)`,
    });
  }
  if (outcome.forced !== undefined) {
    return new ProgramInterruptedError(`interrupted by ${stop.by}, then ${outcome.forced}: mkt killed ${named} and its process group (SIGKILL) at the second signal`, facts);
  }
  const how = outcome.signal !== null ? `ended by ${outcome.signal}` : `exited with status ${outcome.status}`;
  const after = stop.forced === undefined ? '' : stop.forced === 'grace' ? ` ${grace} after the signal` : ' at the second signal';
  const rest = stop.forced === undefined ? '' : `; what it left running with its output was killed (SIGKILL)${after}`;
  return new ProgramInterruptedError(`interrupted by ${stop.by}: ${named}, passed the ${stop.by}, ${how}${rest}`, facts);
}

/**
 * After the program exits, how long its output may take to drain. Its pipes close when it exits,
 * unless something it started in the background holds them: mkt does not wait for that.
 */
const OUTPUT_GRACE_MS = 500;

async function settled(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

/** `env` less `drop`, with the trigger's values: what the program sees. */
export function programEnvironment(env: Env, trigger: Readonly<Record<string, string>>, drop: readonly string[]): Record<string, string> {
  const dropped = new Set(drop);
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined && !dropped.has(name)) out[name] = value;
  return Object.assign(out, trigger);
}

/** The stream's text, written through `output` as it comes; resolves when it ends. */
function forward(stream: Readable | null, output: Output): Promise<void> {
  if (stream === null) return Promise.resolve();
  const decoder = new StringDecoder('utf8');
  stream.on('data', (chunk: Buffer) => {
    const text = decoder.write(chunk);
    if (text !== '') output.write(text);
  });
  return new Promise((resolve) => {
    const done = () => {
      const rest = decoder.end();
      if (rest !== '') output.write(rest);
      resolve();
    };
    stream.once('end', done);
    stream.once('error', done);
  });
}

function cannotStart(program: string, error: NodeJS.ErrnoException): ProgramFailedError {
  const named = `--exec ${program}`;
  const facts = { program, cause: error };
  switch (error.code) {
    case 'ENOENT':
      return new ProgramFailedError(`${named}: no such program`, {
        ...facts, hint: /\s/.test(program) ? 'give the program alone; its arguments come after --: --exec notify-send -- "EURUSD is up"' : 'give its path, or a name on PATH',
      });
    case 'EACCES':
      return new ProgramFailedError(`${named}: not executable`, { ...facts, hint: `make it executable (chmod +x), or run it through its interpreter: --exec sh -- ${program}` });
    default:
      return new ProgramFailedError(`${named}: cannot run it (${error.code ?? error.message})`, facts);
  }
}
