// The --exec runner with real child processes: node (process.execPath) and shell scripts in a temp
// dir. What the program receives is what it writes back; data with shell metacharacters must arrive
// as plain values and run nothing.
import { spawn as nodeSpawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ProgramFailedError } from '../../../src/cli/errors.js';
import { programEnvironment, runProgram, type RunProgramOptions } from '../../../src/cli/exec/run-program.js';
import { tempDir } from '../../helpers/cli.js';

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

  it('when mkt is stopped, the program gets SIGTERM', async () => {
    const stop = new AbortController();
    const out = captured();
    const io = { stdout: { write: (text: string) => { out.io.stdout.write(text); if (text.includes('ready')) stop.abort(); } }, stderr: out.io.stderr };
    const promise = runProgram({ program: process.execPath, args: ['-e', 'setInterval(() => {}, 1000); process.stdout.write("ready")'] }, { env: BASE_ENV, trigger: {}, io, signal: stop.signal });
    const error = await failure(promise);
    expect(error.signal).toBe('SIGTERM');
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

describe('programEnvironment', () => {
  it('is mkt\'s environment less the names dropped, and the trigger\'s values over it', () => {
    expect(programEnvironment({ A: '1', MKT_BID: 'old', UNSET: undefined, MKT_SYMBOL: 'old' }, { MKT_SYMBOL: 'EURUSD' }, ['MKT_BID', 'MKT_SYMBOL']))
      .toEqual({ A: '1', MKT_SYMBOL: 'EURUSD' });
  });
});
