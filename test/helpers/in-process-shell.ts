// A shell whose `mkt` runs in this process. A command line is run by sh as written (pipes,
// redirections, $(...), variables before the command), and each mkt in it by runCli with the
// caller's clock and sleeps, its stdin what the shell gives it and its files found from the shell's
// directory. So a help example runs as a user types it, on a pinned clock. Three files stand for
// the terminal: mkt's stdout is a TTY when the shell's stdout is still that file, not a pipe or
// `> file`, and likewise its stdin and stderr.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';
import { runCli, type TestDepsOptions } from './cli.js';

/** One mkt the shell ran. */
export interface MktRun {
  argv: string[];
  /** What the shell gave it on stdin ('' on the terminal). */
  stdin: string;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  code: number;
  stdout: string;
  stderr: string;
  /** Why this process stopped it (Ctrl-C, as it were): it slept more than `maxSleeps` times, or the shell ran out of time. */
  stopped?: 'sleeps' | 'time';
}

export interface ShellResult {
  /** The shell's exit code; null when it was killed for running too long. */
  code: number | null;
  /** What reached the terminal. */
  stdout: string;
  stderr: string;
  /** Each mkt the line ran, in order. */
  runs: MktRun[];
}

export interface InProcessShell {
  /** Runs `line` with `sh -c` in `cwd`; sh is killed, and the mkt under way stopped, after `timeoutMs`. */
  run(line: string, options: { cwd: string; env: Record<string, string>; timeoutMs?: number }): Promise<ShellResult>;
  close(): Promise<void>;
}

/** The `mkt` the shell finds first on its PATH: it hands its arguments, directory and stdin to this process. */
const SHIM = `'use strict';
const fs = require('node:fs');
const [stdinFile, stdoutFile, stderrFile] = JSON.parse(process.env.MKT_SHIM_TERMINAL);
const isTerminal = (fd, file) => {
  try {
    const [open, named] = [fs.fstatSync(fd), fs.statSync(file)];
    return open.dev === named.dev && open.ino === named.ino;
  } catch {
    return false;
  }
};
const stdinIsTTY = isTerminal(0, stdinFile);
const env = { ...process.env };
delete env.MKT_SHIM_URL;
delete env.MKT_SHIM_TERMINAL;
const request = {
  argv: process.argv.slice(2), cwd: process.cwd(), env,
  stdin: stdinIsTTY ? '' : fs.readFileSync(0).toString('base64'),
  stdinIsTTY, stdoutIsTTY: isTerminal(1, stdoutFile), stderrIsTTY: isTerminal(2, stderrFile),
};
process.stdout.on('error', () => {});
fetch(process.env.MKT_SHIM_URL, { method: 'POST', body: JSON.stringify(request) }).then((answer) => answer.json()).then((result) => {
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  process.exitCode = result.code;
});
`;

const described = (request: ShimRequest) => ({
  argv: request.argv, stdin: Buffer.from(request.stdin, 'base64').toString('utf8'), stdinIsTTY: request.stdinIsTTY, stdoutIsTTY: request.stdoutIsTTY,
});

interface ShimRequest {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  stdin: string;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
}

type ShellDeps = Omit<TestDepsOptions, 'env' | 'stdin' | 'configDir' | 'stdinIsTTY' | 'stdoutIsTTY' | 'stderrIsTTY' | 'signal'>;

/**
 * Starts the shell's server on 127.0.0.1, port 0, with `bin/mkt` and the terminal's files in `dir`.
 * `deps` are runCli's options for every mkt (the clock, sleeps); the environment is the shell's. An
 * mkt that sleeps more than `maxSleeps` times (a watch that does not end) is stopped as Ctrl-C stops it.
 */
export async function startInProcessShell(dir: string, deps: ShellDeps & Required<Pick<TestDepsOptions, 'sleep'>> & { maxSleeps: number }): Promise<InProcessShell> {
  const { maxSleeps, ...options } = deps;
  const bin = path.join(dir, 'bin');
  fs.mkdirSync(bin, { recursive: true });
  fs.writeFileSync(path.join(dir, 'mkt-shim.cjs'), SHIM);
  fs.writeFileSync(path.join(bin, 'mkt'), `#!/bin/sh\nexec '${process.execPath}' '${path.join(dir, 'mkt-shim.cjs')}' "$@"\n`, { mode: 0o755 });
  const terminal = ['stdin', 'stdout', 'stderr'].map((name) => path.join(dir, `terminal-${name}`));

  let runs: MktRun[] = [];
  /** The mkt under way: its Ctrl-C, and why it was pressed. */
  let current: { stop: AbortController; stopped?: MktRun['stopped'] } | undefined;
  // One mkt at a time: each changes the process's directory while it runs. A pipe's second mkt
  // asks only once its stdin has ended, so the first has answered by then.
  let queue = Promise.resolve();
  const runMkt = async (request: ShimRequest): Promise<MktRun> => {
    const previous = process.cwd();
    process.chdir(request.cwd);
    const run: NonNullable<typeof current> = { stop: new AbortController() };
    current = run;
    let sleeps = 0;
    try {
      const result = await runCli(request.argv, {
        ...options,
        signal: run.stop.signal,
        sleep: async (ms, signal) => {
          if (++sleeps > maxSleeps) {
            run.stopped ??= 'sleeps';
            run.stop.abort();
          }
          await options.sleep(ms, signal);
        },
        env: request.env,
        configDir: request.env.MKT_CONFIG_DIR,
        stdin: Readable.from([Buffer.from(request.stdin, 'base64')]),
        stdinIsTTY: request.stdinIsTTY,
        stdoutIsTTY: request.stdoutIsTTY,
        stderrIsTTY: request.stderrIsTTY,
      });
      return { ...described(request), code: result.code, stdout: result.stdout, stderr: result.stderr, ...(run.stopped ? { stopped: run.stopped } : {}) };
    } finally {
      current = undefined;
      process.chdir(previous);
    }
  };
  const server = http.createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const request = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ShimRequest;
      const done = queue.then(() => runMkt(request));
      queue = done.then(() => undefined, () => undefined);
      done.then((run) => {
        runs.push(run);
        outgoing.end(JSON.stringify(run));
      }, (error: unknown) => {
        const run = { ...described(request), code: 70, stdout: '', stderr: `the in-process mkt threw: ${String(error)}\n` };
        runs.push(run);
        outgoing.end(JSON.stringify(run));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;

  return {
    async run(line, { cwd, env, timeoutMs = 60_000 }) {
      runs = [];
      for (const file of terminal) fs.writeFileSync(file, '');
      const [stdin, stdout, stderr] = [fs.openSync(terminal[0]!, 'r'), fs.openSync(terminal[1]!, 'a'), fs.openSync(terminal[2]!, 'a')];
      try {
        const child = spawn('sh', ['-c', line], {
          cwd, stdio: [stdin, stdout, stderr], detached: true,
          env: { ...env, PATH: `${bin}${path.delimiter}${env.PATH ?? process.env.PATH}`, MKT_SHIM_URL: url, MKT_SHIM_TERMINAL: JSON.stringify(terminal) },
        });
        const code = await new Promise<number | null>((resolve, reject) => {
          // The whole group: sh and what it started.
          const timer = setTimeout(() => {
            try {
              process.kill(-child.pid!, 'SIGKILL');
            } catch {
              // Gone already.
            }
            if (current) {
              current.stopped ??= 'time';
              current.stop.abort();
            }
          }, timeoutMs);
          child.on('error', reject);
          child.on('close', (exit) => {
            clearTimeout(timer);
            resolve(exit);
          });
        });
        await queue;
        return { code, stdout: fs.readFileSync(terminal[1]!, 'utf8'), stderr: fs.readFileSync(terminal[2]!, 'utf8'), runs };
      } finally {
        for (const fd of [stdin, stdout, stderr]) fs.closeSync(fd);
      }
    },
    close: () => new Promise<void>((resolve, reject) => {
      server.close((error) => (error ? reject(error) : resolve()));
      server.closeAllConnections();
    }),
  };
}
