#!/usr/bin/env node
import { launch } from '../dist/cli/launch.js';
process.exitCode = await launch(process.argv.slice(2));
// After its 'exit' event Node stops watching signals, and a Ctrl-C in the moments before the process
// is gone would kill it after its outcome was decided and said (src/cli/deps.ts): so end it there.
// eslint-disable-next-line no-restricted-syntax -- the process's own edge, with nothing left to do
process.once('exit', () => process.exit());
