import { defineConfig } from 'vitest/config';

// How the suite spends its time (measured; README "Development"): starting a fresh worker and
// importing the modules again for each of ~160 test files cost about as much as the tests of the
// smaller files; the rest is mostly child processes (the built bin, npm, tsc) and waits on real
// timers. So the test files share a few long-lived workers, not isolated: a module is imported once
// per worker, and a worker waiting on a child process or a timer leaves the cores to the others.
// Worker processes (forks), not threads: every child process is a fork() of the process that
// starts it, which costs in proportion to that process's memory, and threads would make it the
// one process that holds every worker's.

/** The files that replace a module (vi.mock): each needs modules of its own, so they run isolated. */
const MOCKING = ['test/cli/network/client-options.test.ts', 'test/cli/network/wasm-budget.test.ts'];
/**
 * The whole package packed and installed, a build beside a running mkt, and docs/architecture.md's
 * walk-through done in a copy of the repository: they do not depend on the Node that runs them, so
 * CI runs them once (.ci/run leaves this project out on Node 22 and 24).
 */
const ONCE = ['test/package/install.test.ts', 'test/package/build-swap.test.ts', 'test/package/walk-through.test.ts'];

export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // A test file leaves no state behind: spies, stubbed environment and globals are undone after
    // each test (below); servers, timers, processes and process listeners are each file's to close.
    restoreMocks: true,
    unstubEnvs: true,
    unstubGlobals: true,
    // More workers than this machine's two cores: many tests wait on a child process, a socket or
    // a timer, and the third worker uses the core they leave idle.
    maxWorkers: 3,
    projects: [
      // Files share their worker's modules.
      { extends: true, test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: [...MOCKING, ...ONCE], isolate: false } },
      { extends: true, test: { name: 'mocking', include: MOCKING, isolate: true } },
      { extends: true, test: { name: 'once', include: ONCE, isolate: false } },
    ],
  },
});
