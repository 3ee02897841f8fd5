#!/usr/bin/env node
// CommonJS, as the launcher and the bundle are: Node's ES module loader would cost every run 2 ms on
// Node 22 and 5-12 ms on Node 20 (docs/benchmarks.md).
require('../dist/cli/launch.cjs').launch(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
  // After its 'exit' event Node stops watching signals, and a Ctrl-C in the moments before the
  // process is gone would kill it after its outcome was decided and said (src/cli/deps.ts).
  // eslint-disable-next-line no-restricted-syntax -- the process's own edge, with nothing left to do
  process.once('exit', () => process.exit());
});
