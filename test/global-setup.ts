// One temporary directory per `npm test`, removed at the end whatever the tests left in it: every
// test (and every mkt it starts) gets it as TMPDIR, so nothing is left in the machine's own.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export default function setup(): () => void {
  // Vitest runs the set-up for the root and again for each project (vitest.config.ts): one directory.
  if (process.env.MKT_TESTS_TMPDIR !== undefined) return () => {};
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mkt-tests-'));
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  process.env.MKT_TESTS_TMPDIR = dir;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    delete process.env.MKT_TESTS_TMPDIR;
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
