// What the command-line tests share (test/cli and its folders): a sandbox for the file with a fresh
// config directory per test.
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { runCli, tempDir, type RunResult, type TestDepsOptions } from './cli.js';
import { startTestSandbox, type TestSandbox, type TestSandboxOptions } from './sandbox.js';

export interface SandboxSession {
  readonly sandbox: TestSandbox;
  /** This test's config directory. */
  readonly configDir: string;
  /** mkt with this test's config directory, the sandbox's clock, and MKT_BASE_URL set to it. */
  run(argv: string[], options?: TestDepsOptions): Promise<RunResult>;
  /** `mkt login --org org_demo` with the demo key (or `key`), which must succeed. */
  login(extra?: string[], key?: string): Promise<RunResult>;
}

/** One sandbox for the calling file (tokens live 10 minutes unless told otherwise). */
export function useSandboxSession(options: TestSandboxOptions = { tokenTtlSeconds: 600 }): SandboxSession {
  let sandbox: TestSandbox;
  let configDir: string;
  beforeAll(async () => {
    sandbox = await startTestSandbox(options);
  });
  afterAll(() => sandbox.close());
  beforeEach(() => {
    configDir = path.join(tempDir(), 'cfg');
  });
  const run = (argv: string[], more: TestDepsOptions = {}) =>
    runCli(argv, { configDir, now: sandbox.clock.now, ...more, env: { MKT_BASE_URL: sandbox.url, ...more.env } });
  return {
    get sandbox() {
      return sandbox;
    },
    get configDir() {
      return configDir;
    },
    run,
    login: async (extra = [], key = 'demo.demo-secret') => {
      const result = await run(['login', '--org', 'org_demo', ...extra], { env: { MKT_API_KEY: key } });
      expect(result.code, result.stderr).toBe(0);
      return result;
    },
  };
}
