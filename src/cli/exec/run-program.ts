// Runs an --exec program once, when an --until held: without a shell (an argument vector, never a
// command line), with the triggering values in its environment as exact text (MKT_SYMBOL, MKT_BID…),
// and waits for it. Nothing from the data reaches the program's arguments, which are only the words
// given after `--` (split-program-args.ts), or any shell: a symbol such as `$(rm -rf ~)` or `A;B` is
// a value in an environment variable and nothing else.
//
// Its standard input is closed (a board may be reading keys); what it writes goes to mkt's standard
// output and error. A status other than 0, a signal, or a program that cannot be started is a
// ProgramFailedError (exit 1) naming the program and what happened. If mkt is stopped while it runs
// (`signal`), the program gets SIGTERM.
import { spawn as nodeSpawn, type ChildProcess } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import type { Readable } from 'node:stream';
import { ProgramFailedError } from '../errors.js';
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
  signal?: AbortSignal;
  /** node:child_process's spawn, or a test's. */
  spawn?: typeof nodeSpawn;
}

export async function runProgram(call: ProgramCall, options: RunProgramOptions): Promise<void> {
  const env = programEnvironment(options.env, options.trigger, options.drop ?? []);
  const named = `--exec ${call.program}`;
  for (const [name, value] of Object.entries(options.trigger)) {
    // No environment can carry a NUL; spawn would refuse the whole environment.
    if (value.includes('\0')) throw new ProgramFailedError(`${named} was not run: ${name} would hold a NUL character, which no environment can carry`, { program: call.program });
  }
  if (options.signal?.aborted) throw new ProgramFailedError(`${named} was not run: mkt was stopped`, { program: call.program });
  const spawn = options.spawn ?? nodeSpawn;
  let child: ChildProcess;
  try {
    child = spawn(call.file ?? call.program, [...call.args], { shell: false, argv0: call.program, env, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
  } catch (error) {
    throw cannotStart(call.program, error as NodeJS.ErrnoException);
  }
  const onAbort = () => child.kill('SIGTERM');
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const forwarded = Promise.all([forward(child.stdout, options.io.stdout), forward(child.stderr, options.io.stderr)]);
    const outcome = await new Promise<{ status: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
      child.once('error', (error: NodeJS.ErrnoException) => reject(cannotStart(call.program, error)));
      child.once('exit', (status, signal) => resolve({ status, signal }));
    });
    await settled(forwarded, OUTPUT_GRACE_MS);
    if (outcome.signal !== null) {
      throw new ProgramFailedError(`${named} was ended by ${outcome.signal}`, { program: call.program, signal: outcome.signal });
    }
    if (outcome.status !== 0) {
      throw new ProgramFailedError(`${named} exited with status ${outcome.status}`, { program: call.program, status: outcome.status ?? undefined, hint: 'its own output, above, should say why' });
    }
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    // A program that left something running in the background with its output (`notify &`) would
    // otherwise hold mkt open for as long as that runs.
    child.stdout?.destroy();
    child.stderr?.destroy();
  }
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
