// What the command-line tests share: a sandbox for the file with a fresh config directory per test,
// and purpose-built servers closed after each test.
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { runCli, tempDir, type RunResult, type TestDepsOptions } from '../helpers/cli.js';
import { startFaultServer, type FaultHandler, type FaultServer } from '../helpers/fault-server.js';
import { startTestSandbox, type TestSandbox, type TestSandboxOptions } from '../helpers/sandbox.js';

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

/** Starts purpose-built servers (and anything else with a close()) that are closed after each test of the calling file. */
export function useServers(): { start(handler: FaultHandler): Promise<FaultServer>; answering(status: number, body: string): Promise<FaultServer>; closeLater<T extends { close(): Promise<void> }>(thing: T): T } {
  const open: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((thing) => thing.close()));
  });
  const closeLater = <T extends { close(): Promise<void> }>(thing: T): T => {
    open.push(thing);
    return thing;
  };
  const start = async (handler: FaultHandler) => closeLater(await startFaultServer(handler));
  return {
    start,
    closeLater,
    /** Every request answered with `status` and the JSON `body`. */
    answering: (status, body) => start((_req, res) => res.writeHead(status, { 'content-type': 'application/json' }).end(body)),
  };
}
