// scripts/build.js writes the new dist/ aside and moves it in a file at a time, the launcher last,
// so a mkt that runs while a build is under way (npm run build, npm pack's prepack, npm test) loads
// whole files of one build and never finds one missing. Built in a copy of the project, so that
// the other tests keep the dist/ they started with.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { ROOT, baseEnv, collect } from '../helpers/bin.js';

const MAX_RUNS = 400;
const MAX_MS = 120_000;

function copyOfProject(): string {
  const copy = tempDir();
  for (const entry of ['bin', 'scripts', 'src', 'dist', 'package.json', 'tsconfig.json', 'tsconfig.build.json']) {
    // Not dist/exe/ (npm run build:exe): 250 MB that no build here reads.
    fs.cpSync(path.join(ROOT, entry), path.join(copy, entry), { recursive: true, filter: (source) => source !== path.join(ROOT, 'dist', 'exe') });
  }
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
  return copy;
}

function run(file: string, args: string[], cwd: string, timeoutMs: number) {
  const child = spawn(process.execPath, [file, ...args], { cwd, env: baseEnv({ MKT_BUILD_QUIET: '1' }), stdio: ['pipe', 'pipe', 'pipe'] });
  return collect(child, performance.now(), '', timeoutMs);
}

describe('the build', () => {
  it('never leaves a running mkt half a build: mkt in a loop during a build always works', async () => {
    const copy = copyOfProject();
    const bin = path.join(copy, 'bin', 'mkt.cjs');
    let building = true;
    const builds = (async () => {
      try {
        const build = await run(path.join(copy, 'scripts', 'build.js'), [], copy, MAX_MS);
        expect(build, build.stderr).toMatchObject({ code: 0 });
      } finally {
        building = false;
      }
    })();
    const failures: string[] = [];
    let runs = 0;
    const started = Date.now();
    while (building && runs < MAX_RUNS && Date.now() - started < MAX_MS) {
      // help loads the bundle, not only the launcher.
      const result = await run(bin, ['help', 'exit-codes'], copy, 20_000);
      runs++;
      if (result.code !== 0 || !result.stdout.startsWith('Exit codes')) failures.push(`exit ${result.code}: ${result.stderr.split('\n').slice(0, 3).join(' ')}`);
    }
    await builds;
    expect(failures).toEqual([]);
    // Enough runs to have overlapped the build's work, not only its start.
    expect(runs).toBeGreaterThanOrEqual(5);
    expect(fs.readdirSync(path.join(copy, 'dist')).filter((name) => name.startsWith('.build-'))).toEqual([]);
  });
});
