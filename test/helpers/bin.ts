// Runs the built bin/mkt.cjs as a child process (npm test builds dist/ first), with a minimal
// environment so nothing of the developer's own MKT_* settings leaks in. With MKT_TEST_EXE=FILE
// (npm run test:exe) the process-level tests run that executable (npm run build:exe) instead.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/mkt.cjs', import.meta.url));
export const ROOT = path.dirname(path.dirname(BIN));

/** The standalone executable under test, from MKT_TEST_EXE; undefined: `node bin/mkt.cjs`. */
export const EXE = process.env.MKT_TEST_EXE ? path.resolve(ROOT, process.env.MKT_TEST_EXE) : undefined;

/** The file and arguments that run `mkt ...args`: spawn(...mkt(['--version']), options). */
export function mkt(args: readonly string[]): [string, string[]] {
  return EXE === undefined ? [process.execPath, [BIN, ...args]] : [EXE, [...args]];
}

/** The same command, quoted for a shell: sh -c `${MKT_SH} --version`. */
export const MKT_SH = EXE === undefined ? `"${process.execPath}" "${BIN}"` : `"${EXE}"`;

export interface BinResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

export function baseEnv(extra: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', LANG: 'C.UTF-8' };
  for (const [key, value] of Object.entries(extra)) if (value !== undefined) env[key] = value;
  return env;
}

export function runBin(args: string[], options: { env?: Record<string, string | undefined>; input?: string; timeoutMs?: number } = {}): Promise<BinResult> {
  const started = performance.now();
  const child = spawn(...mkt(args), { env: baseEnv(options.env), stdio: ['pipe', 'pipe', 'pipe'] });
  return collect(child, started, options.input, options.timeoutMs ?? 20_000);
}

/** The child's output and how it ended. `input` is written to its stdin, which is then closed; null leaves stdin open until the child has ended. */
export function collect(child: ChildProcess, started: number, input: string | null | undefined, timeoutMs: number): Promise<BinResult> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  if (input === null) child.once('close', () => child.stdin?.destroy());
  else child.stdin?.end(input ?? '');
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`mkt did not finish within ${timeoutMs} ms; stderr so far: ${stderr}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, ms: performance.now() - started });
    });
  });
}

export interface SandboxProcess {
  url: string;
  child: ChildProcess;
  /** Everything the sandbox wrote to stdout so far. */
  output: () => string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** `mkt sandbox --port 0 ...` as a real process; resolves once the first line (the URL) is out. */
export function startSandboxProcess(args: string[] = []): Promise<SandboxProcess> {
  const child = spawn(...mkt(['sandbox', '--port', '0', ...args]), { env: baseEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the sandbox did not start within 10 s')), 10_000);
    child.once('exit', (code) => reject(new Error(`the sandbox exited with ${code}`)));
    createInterface({ input: child.stdout! }).once('line', (line) => {
      clearTimeout(timer);
      resolve({
        url: line.trim(),
        child,
        output: () => output,
        stop: (signal = 'SIGTERM') => new Promise((done) => {
          if (child.exitCode !== null) return done(child.exitCode);
          child.once('exit', (code) => done(code));
          child.kill(signal);
        }),
      });
    });
  });
}

/** Whether util-linux `script` is here to give the bin a pseudo-terminal (runOnTerminal). */
export const HAS_SCRIPT = (() => {
  try {
    execFileSync('script', ['-qec', 'true', '/dev/null'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

export interface TerminalOptions {
  columns: number;
  rows: number;
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
}

/**
 * `mkt ...args` on a pseudo-terminal (util-linux `script`) `columns` wide, 0 being a terminal that
 * does not know its width; stdout is everything the terminal was sent, its CRLFs as \n.
 */
export function runOnTerminal(args: readonly string[], options: TerminalOptions): Promise<BinResult> {
  return onTerminal(mkt(args), options);
}

/**
 * A program, its file and arguments, on a pseudo-terminal, as runOnTerminal runs mkt. Nobody types
 * on the terminal, and its input stays open until the program has ended: `script` passes the end of
 * its own input on to the terminal as Ctrl-D, which a board reading its keys reads as quit (a board
 * quit before its first quotes, once, in a CI run on a busy machine).
 */
export async function onTerminal(program: readonly [string, readonly string[]], options: TerminalOptions): Promise<BinResult> {
  const command = [program[0], ...program[1]].map((arg) => `'${arg.replaceAll("'", "'\\''")}'`).join(' ');
  const started = performance.now();
  const child = spawn('script', ['-qec', `stty cols ${options.columns} rows ${options.rows}; exec ${command}`, '/dev/null'], {
    cwd: ROOT, env: baseEnv(options.env), stdio: ['pipe', 'pipe', 'pipe'],
  });
  const result = await collect(child, started, null, options.timeoutMs ?? 20_000);
  return { ...result, stdout: result.stdout.replaceAll('\r\n', '\n') };
}
