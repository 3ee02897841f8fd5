// Runs mkt in-process with injected deps: captured streams, a temp config dir, a controllable clock.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { sleep } from '../../src/shared/sleep.js';
import { ConfigStore } from '../../src/config/store.js';
import type { Deps } from '../../src/cli/deps.js';
import { diagnosticsOf } from '../../src/cli/output/diagnostics.js';
import type { IO } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';

export interface TestDepsOptions {
  env?: Record<string, string | undefined>;
  stdin?: string | Readable;
  stdinIsTTY?: boolean;
  stdoutIsTTY?: boolean;
  stderrIsTTY?: boolean;
  /** Answers for prompts, in order; a prompt with none left fails the test. */
  prompts?: string[];
  now?: () => number;
  configDir?: string;
  dispatcher?: Dispatcher;
  signal?: AbortSignal;
  /** Signals after the first, while a program runs (fake-signals.ts); none by default. */
  holdSignals?: Deps['holdSignals'];
  sleep?: Deps['sleep'];
  /** For retry backoff and watch jitter (default Math.random). */
  random?: Deps['random'];
}

export interface TestDeps {
  deps: Deps;
  stdout: () => string;
  stderr: () => string;
  configDir: string;
  prompted: Array<{ question: string; mask: boolean }>;
  /** What a prompt's validation said of each answer it refused. */
  rejected: string[];
}

export function tempDir(prefix = 'mkt-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function createTestDeps(options: TestDepsOptions = {}): TestDeps {
  let out = '';
  let err = '';
  const prompts = [...(options.prompts ?? [])];
  const prompted: TestDeps['prompted'] = [];
  const rejected: string[] = [];
  const io: IO = {
    stdout: { write: (text) => void (out += text) },
    stderr: { write: (text) => void (err += text) },
    stdin: typeof options.stdin === 'object' ? options.stdin : Readable.from(options.stdin === undefined ? [] : [Buffer.from(options.stdin)]),
    stdinIsTTY: options.stdinIsTTY ?? false,
    stdoutIsTTY: options.stdoutIsTTY ?? false,
    stderrIsTTY: options.stderrIsTTY ?? false,
    columns: 100,
    // As inquirer does with `validate`: an answer it rejects is said and asked again.
    prompt: async (question, { mask, validate }) => {
      for (;;) {
        prompted.push({ question, mask });
        const answer = prompts.shift();
        if (answer === undefined) throw new Error(`unexpected prompt: ${question}`);
        const problem = validate?.(answer.trim());
        if (problem === undefined) return answer;
        rejected.push(problem);
      }
    },
  };
  const configDir = options.configDir ?? path.join(tempDir(), 'config');
  const env = { MKT_CONFIG_DIR: configDir, ...options.env };
  const deps: Deps = {
    io,
    env,
    now: options.now ?? Date.now,
    // Said by the diagnostics of these deps, for a test that calls a command's parts without main
    // (main points the warnings at its run's).
    config: new ConfigStore({ dir: configDir, onWarning: (warning) => diagnosticsOf(deps).warn(warning) }),
    dispatcher: options.dispatcher,
    signal: options.signal ?? new AbortController().signal,
    holdSignals: options.holdSignals ?? (() => () => {}),
    sleep: options.sleep ?? sleep,
    random: options.random ?? Math.random,
  };
  return { deps, stdout: () => out, stderr: () => err, configDir, prompted, rejected };
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
  configDir: string;
  deps: Deps;
}

export async function runCli(argv: string[], options: TestDepsOptions = {}): Promise<RunResult> {
  const test = createTestDeps(options);
  const code = await main(argv, test.deps);
  return { code, stdout: test.stdout(), stderr: test.stderr(), configDir: test.configDir, deps: test.deps };
}
