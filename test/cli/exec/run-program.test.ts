// The --exec runner with real child processes: node (process.execPath) and shell scripts in a temp
// dir. What the program receives is what it writes back; data with shell metacharacters must arrive
// as plain values and run nothing. When mkt is interrupted, the program and its process group end:
// proved by the pids the programs write, read from /proc, with the grace period's wait injected.
import { spawn as nodeSpawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AbortError } from '../../../src/api/errors.js';
import { InterruptSignal } from '../../../src/cli/deps.js';
import { ProgramFailedError, ProgramInterruptedError } from '../../../src/cli/errors/errors.js';
import { programEnvironment, runProgram, type RunProgramOptions } from '../../../src/cli/exec/run-program.js';
import { exitCodeFor } from '../../../src/cli/errors/exit-codes.js';
import { EXEC_GRACE_MS } from '../../../src/shared/limits.js';
import { tempDir } from '../../helpers/cli.js';
import { eventually, hasProc, isAlive, killAll } from '../../helpers/processes.js';

const posix = process.platform !== 'win32';

const cleanup: Array<() => void> = [];
afterEach(() => {
  for (const step of cleanup.splice(0).reverse()) step();
});

function workDir(): string {
  const dir = tempDir('mkt-exec-');
  cleanup.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function captured() {
  let stdout = '';
  let stderr = '';
  return {
    io: { stdout: { write: (text: string) => void (stdout += text) }, stderr: { write: (text: string) => void (stderr += text) } },
    stdout: () => stdout,
    stderr: () => stderr,
  };
}

const BASE_ENV = { PATH: process.env.PATH, HOME: process.env.HOME };
/** Prints the environment's MKT_* variables as JSON, and its arguments. */
const PRINT = 'process.stdout.write(JSON.stringify({ env: Object.fromEntries(Object.entries(process.env).filter(([name]) => name.startsWith("MKT_"))), args: process.argv.slice(1) }))';

async function run(args: string[], options: Partial<RunProgramOptions> & { program?: string } = {}) {
  const out = captured();
  await runProgram({ program: options.program ?? process.execPath, args }, { env: BASE_ENV, trigger: {}, io: out.io, ...options });
  return out;
}

describe('runProgram: what the program receives', () => {
  it('the trigger in its environment, exactly; its arguments exactly as given; data with shell metacharacters inert', async () => {
    const dir = workDir();
    const trap = path.join(dir, 'pwned');
    const symbol = `$(touch ${trap});\`touch ${trap}\`|touch ${trap}&&X'"`;
    const trigger = { MKT_SYMBOL: symbol, MKT_BID: '1.084150000000000001', MKT_ASK: '1E-7', MKT_MID: '0.30000000000000004', MKT_TIMESTAMP: '2026-01-05T14:30:15.250Z' };
    const args = ['-e', PRINT, 'EURUSD; rm -rf /', `$(touch ${trap})`, '*'];
    const out = await run(args, { trigger });
    expect(JSON.parse(out.stdout())).toEqual({ env: trigger, args: args.slice(2) });
    expect(fs.existsSync(trap)).toBe(false);
  });

  it('a shell script reading the values, quoted as any variable, runs nothing of them', async () => {
    const dir = workDir();
    const trap = path.join(dir, 'pwned');
    const script = path.join(dir, 'notify.sh');
    fs.writeFileSync(script, `#!/bin/sh\nprintf '%s|%s|%s\\n' "$1" "$MKT_SYMBOL" "$MKT_BID" > "${path.join(dir, 'alert.txt')}"\n`, { mode: 0o755 });
    const symbol = `$(touch ${trap});touch ${trap}`;
    await run(['EURUSD is up'], { program: script, trigger: { MKT_SYMBOL: symbol, MKT_BID: '1.08415' } });
    expect(fs.readFileSync(path.join(dir, 'alert.txt'), 'utf8')).toBe(`EURUSD is up|${symbol}|1.08415\n`);
    expect(fs.existsSync(trap)).toBe(false);
  });

  it('is spawned without a shell, the program and its arguments as given, nothing of the data among them', async () => {
    const calls: Array<{ file: string; args: readonly string[]; shell: unknown }> = [];
    const spawn = ((file: string, args: readonly string[], options: { shell?: unknown }) => {
      calls.push({ file, args, shell: options.shell });
      return nodeSpawn(file, args, options as never);
    }) as unknown as typeof nodeSpawn;
    await run(['-e', ''], { spawn, trigger: { MKT_SYMBOL: 'EURUSD;reboot' } });
    expect(calls).toEqual([{ file: process.execPath, args: ['-e', ''], shell: false }]);
  });

  it('a stale MKT_* of mkt\'s own environment is not passed on; the rest of it is', async () => {
    const out = await run(['-e', PRINT], { env: { ...BASE_ENV, MKT_BID: 'stale', MKT_ORG: 'org_demo' }, trigger: { MKT_SYMBOL: 'EURUSD' }, drop: ['MKT_BID', 'MKT_SYMBOL'] });
    expect(JSON.parse(out.stdout()).env).toEqual({ MKT_ORG: 'org_demo', MKT_SYMBOL: 'EURUSD' });
  });

  it('its output goes to mkt\'s streams, whole characters even when split between chunks', async () => {
    const script = 'process.stdout.write(Buffer.from([0xe2, 0x82])); setTimeout(() => { process.stdout.write(Buffer.from([0xac, 0x0a])); process.stderr.write("note\\n"); }, 20)';
    const out = await run(['-e', script]);
    expect(out.stdout()).toBe('€\n');
    expect(out.stderr()).toBe('note\n');
  });
});

describe('runProgram: a program that fails', () => {
  async function failure(promise: Promise<unknown>): Promise<ProgramFailedError> {
    const error = await promise.then(() => undefined, (caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProgramFailedError);
    return error as ProgramFailedError;
  }

  it('a status other than 0 is reported with the status', async () => {
    const error = await failure(run(['-e', 'process.exit(3)']));
    expect(error.message).toBe(`--exec ${process.execPath} exited with status 3`);
    expect(error).toMatchObject({ status: 3, signal: undefined, code: 'EXEC_FAILED' });
  });

  it('a program killed by a signal is reported with the signal', async () => {
    const error = await failure(run(['-e', 'process.kill(process.pid, "SIGKILL")']));
    expect(error.message).toBe(`--exec ${process.execPath} was ended by SIGKILL`);
    expect(error).toMatchObject({ status: undefined, signal: 'SIGKILL' });
  });

  it('a program that does not exist: ENOENT, said plainly', async () => {
    const dir = workDir();
    const error = await failure(run([], { program: path.join(dir, 'nothing-here') }));
    expect(error.message).toBe(`--exec ${path.join(dir, 'nothing-here')}: no such program`);
    expect((error.cause as NodeJS.ErrnoException).code).toBe('ENOENT');
  });

  it('a program name with its arguments in it: the hint says where arguments go', async () => {
    const error = await failure(run([], { program: 'notify-send hello' }));
    expect(error.message).toBe('--exec notify-send hello: no such program');
    expect(error.hint).toMatch(/its arguments come after --/);
  });

  it('a file that is not executable: EACCES, said plainly', async () => {
    const file = path.join(workDir(), 'notify.sh');
    fs.writeFileSync(file, '#!/bin/sh\nexit 0\n', { mode: 0o644 });
    const error = await failure(run([], { program: file }));
    expect(error.message).toBe(`--exec ${file}: not executable`);
    expect(error.hint).toMatch(/chmod \+x/);
  });

  it('a value no environment can carry (a NUL) is refused, and nothing runs', async () => {
    const calls: string[] = [];
    const spawn = ((file: string) => {
      calls.push(file);
      throw new Error('not to be called');
    }) as unknown as typeof nodeSpawn;
    const error = await failure(run([], { spawn, trigger: { MKT_TIMESTAMP: '2026\u0000' } }));
    expect(error.message).toMatch(/was not run: MKT_TIMESTAMP would hold a NUL character/);
    expect(calls).toEqual([]);
  });

  it('something it leaves running in the background with its output does not hold mkt', async () => {
    // The program starts a child that keeps its stdout and stderr for 30 s, says its pid, and exits 0.
    const script = 'const c = require("child_process").spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"], { stdio: "inherit" }); process.stderr.write(`pid ${c.pid}\\n`); c.unref();';
    const out = captured();
    await runProgram({ program: process.execPath, args: ['-e', script] }, { env: BASE_ENV, trigger: {}, io: out.io });
    const pid = Number(/pid (\d+)/.exec(out.stderr())?.[1]);
    expect(pid).toBeGreaterThan(0);
    process.kill(pid, 'SIGKILL');
  });
});

describe.runIf(posix && hasProc)('runProgram: when mkt is interrupted, the program and its process group end (issue 36 item 3)', () => {
  /**
   * `body` as a shell script in a directory of its own: it writes its pid and its background
   * job's to PIDS, then `ready` on stdout once its traps are set, and waits for the job.
   */
  function script(body: string): { file: string; env: Record<string, string | undefined>; pids: () => { program: number; job: number }; log: () => string } {
    const dir = workDir();
    const file = path.join(dir, 'program.sh');
    const pids = path.join(dir, 'pids');
    const log = path.join(dir, 'log');
    fs.writeFileSync(file, `#!/bin/sh\n${body}\necho "$$ $!" > "$PIDS"\necho ready\nwait\n`, { mode: 0o755 });
    const read = () => {
      const [program = 0, job = 0] = fs.existsSync(pids) ? fs.readFileSync(pids, 'utf8').trim().split(' ').map(Number) : [];
      return { program, job };
    };
    // Whatever the test's outcome, nothing of it is left (before its directory goes).
    cleanup.push(() => killAll(Object.values(read()).filter((pid) => pid > 0)));
    return {
      file,
      env: { ...BASE_ENV, PIDS: pids, LOG: log },
      pids: read,
      log: () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : ''),
    };
  }

  /** Shell: waits (a few seconds at most) until the job has written to LOG, so that it is set up before `ready`. */
  const JOB_READY = 'i=0; while [ ! -s "$LOG" ] && [ $i -lt 500 ]; do sleep 0.01; i=$((i + 1)); done';

  /** Interrupted as createProcessDeps interrupts: the signal's abort, with an InterruptSignal naming it. */
  function interruptOnReady(name: NodeJS.Signals, then?: () => void) {
    const stop = new AbortController();
    const out = captured();
    const io = {
      stdout: { write: (text: string) => {
        out.io.stdout.write(text);
        if (!text.includes('ready')) return;
        stop.abort(new InterruptSignal(name));
        then?.();
      } },
      stderr: out.io.stderr,
    };
    return { signal: stop.signal, io, out };
  }

  /** The grace period's wait, recorded; it ends only when released (or when the program has ended: its signal). */
  function graceWait() {
    const asked: number[] = [];
    let release = () => {};
    const sleep = (ms: number, signal?: AbortSignal) => new Promise<void>((resolve, reject) => {
      asked.push(ms);
      release = resolve;
      signal?.addEventListener('abort', () => reject(new AbortError()), { once: true });
    });
    return { asked, sleep, release: () => release() };
  }

  async function interrupted(promise: Promise<unknown>): Promise<ProgramInterruptedError> {
    const error = await promise.then(() => undefined, (caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProgramInterruptedError);
    expect(exitCodeFor(error)).toBe(130);
    return error as ProgramInterruptedError;
  }

  it('the signal mkt got is passed on as it is (SIGINT, not SIGTERM), to its whole group; what is left of the group once it ends is killed', async () => {
    // The job of a non-interactive shell ignores SIGINT: only mkt's kill ends it.
    const program = script(`trap 'echo "got INT" >> "$LOG"; exit 0' INT\ntrap 'echo "got TERM" >> "$LOG"; exit 0' TERM\nsleep 1000 > /dev/null 2>&1 &`);
    const { signal, io } = interruptOnReady('SIGINT');
    const grace = graceWait();
    const error = await interrupted(runProgram({ program: program.file, args: [] }, { env: program.env, trigger: {}, io, signal, sleep: grace.sleep }));
    expect(error.message).toBe(`interrupted by SIGINT: --exec ${program.file}, passed the SIGINT, exited with status 0`);
    expect(error).toMatchObject({ signal: 'SIGINT', killed: false, program: program.file });
    expect(program.log()).toBe('got INT\n');
    expect(grace.asked).toEqual([EXEC_GRACE_MS]);
    const { program: leader, job } = program.pids();
    expect(isAlive(leader)).toBe(false);
    await eventually(() => !isAlive(job), `the job ${job} ending`);
  });

  it('a program that ignores the signal (trap \'\' TERM) is killed with its group (SIGKILL) when the grace period runs out, and nothing of it is left', async () => {
    const program = script(`trap '' TERM\nsleep 1000 &`);
    const { signal, io } = interruptOnReady('SIGTERM');
    const asked: number[] = [];
    // The grace period runs out at once: the test does not sit through it.
    const sleep = async (ms: number) => void asked.push(ms);
    const error = await interrupted(runProgram({ program: program.file, args: [] }, { env: program.env, trigger: {}, io, signal, sleep }));
    expect(error.message).toBe(`interrupted by SIGTERM: --exec ${program.file} did not end within 5s of the SIGTERM passed on to it, so mkt killed its process group (SIGKILL)`);
    expect(error.hint).toBe('a program has 5s to end once mkt passes a signal on; one that must outlive mkt can leave its process group (setsid)');
    expect(error).toMatchObject({ signal: 'SIGTERM', killed: true });
    expect(asked).toEqual([5000]);
    const { program: leader, job } = program.pids();
    expect(isAlive(leader)).toBe(false);
    await eventually(() => !isAlive(job), `the job ${job} ending`);
  });

  it('a second signal kills the group at once, without waiting out the grace period; the hold on signals is released after', async () => {
    const program = script(`trap '' TERM INT\nsleep 1000 &`);
    let again: ((name: NodeJS.Signals) => void) | undefined;
    const holdSignals = (onAgain: (name: NodeJS.Signals) => void) => {
      again = onAgain;
      return () => (again = undefined);
    };
    const { signal, io } = interruptOnReady('SIGTERM', () => again!('SIGINT'));
    const grace = graceWait();
    const error = await interrupted(runProgram({ program: program.file, args: [] }, { env: program.env, trigger: {}, io, signal, sleep: grace.sleep, holdSignals }));
    expect(error.message).toBe(`interrupted by SIGTERM, then SIGINT: mkt killed --exec ${program.file} and its process group (SIGKILL) at the second signal`);
    expect(error.killed).toBe(true);
    expect(again).toBeUndefined();
    const { program: leader, job } = program.pids();
    expect(isAlive(leader)).toBe(false);
    await eventually(() => !isAlive(job), `the job ${job} ending`);
  });

  it('what it leaves running with its output has the rest of the grace period, then is killed, and the message says so', async () => {
    // The program ends on SIGTERM; its job ignores it and keeps the program's output open.
    const program = script(`trap 'exit 0' TERM\n( trap '' TERM; echo job > "$LOG"; exec sleep 1000 ) &\n${JOB_READY}`);
    const { signal, io } = interruptOnReady('SIGTERM');
    const grace = graceWait();
    // The grace period runs out once the program has exited, not before.
    const spawn = ((...args: Parameters<typeof nodeSpawn>) => nodeSpawn(...args).once('exit', () => grace.release())) as typeof nodeSpawn;
    const error = await interrupted(runProgram({ program: program.file, args: [] }, { env: program.env, trigger: {}, io, signal, sleep: grace.sleep, spawn }));
    expect(error.message).toBe(`interrupted by SIGTERM: --exec ${program.file}, passed the SIGTERM, exited with status 0; what it left running with its output was killed (SIGKILL) 5s after the signal`);
    const { job } = program.pids();
    await eventually(() => !isAlive(job), `the job ${job} ending`);
  });

  it('a process that left the group (setsid) is its own: it is not killed', async () => {
    const program = script(`trap '' TERM\nsetsid sh -c 'echo left > "$LOG"; exec sleep 1000' > /dev/null 2>&1 < /dev/null &\n${JOB_READY}`);
    const { signal, io } = interruptOnReady('SIGTERM');
    const error = await interrupted(runProgram({ program: program.file, args: [] }, { env: program.env, trigger: {}, io, signal, sleep: async () => {} }));
    expect(error.killed).toBe(true);
    const { program: leader, job } = program.pids();
    expect(isAlive(leader)).toBe(false);
    expect(isAlive(job)).toBe(true);
  });

  it('a program that ends on the signal, its output held by a process that left the group (setsid): mkt does not wait for that, and does not say it killed it', async () => {
    const program = script(`trap 'exit 0' TERM\nsetsid sh -c 'echo left > "$LOG"; exec sleep 1000' &\n${JOB_READY}`);
    const { signal, io } = interruptOnReady('SIGTERM');
    // The grace period never runs out: a wait for the output it holds would never end.
    const grace = graceWait();
    const error = await interrupted(runProgram({ program: program.file, args: [] }, { env: program.env, trigger: {}, io, signal, sleep: grace.sleep }));
    expect(error.message).toBe(`interrupted by SIGTERM: --exec ${program.file}, passed the SIGTERM, exited with status 0`);
    expect(error.killed).toBe(false);
    const { program: leader, job } = program.pids();
    expect(isAlive(leader)).toBe(false);
    expect(isAlive(job)).toBe(true);
  });

  it('an interruption for another reason than a signal passes SIGTERM on', async () => {
    const stop = new AbortController();
    const out = captured();
    const io = { stdout: { write: (text: string) => { out.io.stdout.write(text); if (text.includes('ready')) stop.abort(); } }, stderr: out.io.stderr };
    const promise = runProgram({ program: process.execPath, args: ['-e', 'setInterval(() => {}, 1000); process.stdout.write("ready")'] }, { env: BASE_ENV, trigger: {}, io, signal: stop.signal });
    const error = await interrupted(promise);
    expect(error.message).toBe(`interrupted by SIGTERM: --exec ${process.execPath}, passed the SIGTERM, ended by SIGTERM`);
  });

  it('interrupted before it ran: it does not run, and the run is interrupted (130), not failed', async () => {
    const stop = new AbortController();
    stop.abort(new InterruptSignal('SIGHUP'));
    const calls: string[] = [];
    const spawn = ((file: string) => {
      calls.push(file);
      throw new Error('not to be called');
    }) as unknown as typeof nodeSpawn;
    const error = await interrupted(run([], { spawn, signal: stop.signal }));
    expect(error.message).toBe(`interrupted by SIGHUP before --exec ${process.execPath} ran`);
    expect(calls).toEqual([]);
  });
});

describe('programEnvironment', () => {
  it('is mkt\'s environment less the names dropped, and the trigger\'s values over it', () => {
    expect(programEnvironment({ A: '1', MKT_BID: 'old', UNSET: undefined, MKT_SYMBOL: 'old' }, { MKT_SYMBOL: 'EURUSD' }, ['MKT_BID', 'MKT_SYMBOL']))
      .toEqual({ A: '1', MKT_SYMBOL: 'EURUSD' });
  });
});
