// docs/architecture.md's walk-through, done: its example, GET /v1/market/venues and `mkt venues`, is
// walk-through/venues.patch, which no other test reads and the repository never ships. The patch
// touches exactly the files the walk-through's last paragraph names, with the lines it says, and no
// more than the issue allows (8 files, about 300 lines); and in a copy of the repository with the
// patch applied and `npm run openapi` run once (writing the files the walk-through marks generated,
// and no other), the project compiles, eslint and knip find nothing in the files it touched, and the
// walk-through's test passes beside the tests that take the new operation up by themselves (its help's
// examples run by help-examples.test.ts among them, which refused the first version's jq line) and
// test/package/links.test.ts, which once named the walk-through's new files and failed once they were.
//
// When the repository moves under the patch (a line of its context changed), it no longer applies:
// apply it in a worktree (`git apply --3way test/package/walk-through/venues.patch`), settle it,
// run `npm run openapi` and the tests above, and write it again with `git diff` of the files the
// walk-through names (new ones after `git add -N`), then undo it.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/bin.js';

const run = promisify(execFile);
const PATCH = path.join(ROOT, 'test', 'package', 'walk-through', 'venues.patch');
const TESTS = [
  'test/cli/commands/venues.test.ts', 'test/shared/operations.test.ts', 'test/sandbox/openapi.test.ts', 'test/api/openapi-types.test.ts', 'test/cli/completion/complete.test.ts',
  'test/package/links.test.ts', 'test/cli/help-examples.test.ts',
];

const architecture = fs.readFileSync(path.join(ROOT, 'docs', 'architecture.md'), 'utf8');
const walkThrough = architecture.slice(architecture.indexOf('\n## Adding a resource'));
const summary = walkThrough.slice(walkThrough.lastIndexOf('\nThat is '));

/** What the last paragraph says: the files, the lines each gains, and the totals. */
const stated = {
  totals: /That is (\d+) files, (\d+) lines added and (\d+) removed/.exec(summary)?.slice(1).map(Number),
  files: [...summary.matchAll(/`([\w./-]+)` \((?:new, )?(\d+)\)/g)].map(([, file, added]) => ({ file: file!, added: Number(added) })),
  generated: [...walkThrough.matchAll(/`([\w./-]+)` \(generated\)/g)].map(([, file]) => file!),
};

/** The patch's files, with the lines each adds and removes (`git apply --numstat`, which applies nothing). */
async function patchFiles(): Promise<Array<{ file: string; added: number; removed: number }>> {
  const { stdout } = await run('git', ['apply', '--numstat', PATCH], { cwd: os.tmpdir() });
  return stdout.trim().split('\n').map((line) => {
    const [added, removed, file] = line.split('\t');
    return { file: file!, added: Number(added), removed: Number(removed) };
  });
}

describe('the walk-through\'s figures are its patch\'s', () => {
  it('names every file the patch touches, with the lines each gains, and the totals', async () => {
    const files = await patchFiles();
    expect(stated.files.length).toBeGreaterThan(0);
    const byName = (a: { file: string }, b: { file: string }) => a.file.localeCompare(b.file);
    expect([...stated.files].sort(byName)).toEqual(files.map(({ file, added }) => ({ file, added })).sort(byName));
    expect(stated.totals).toEqual([files.length, files.reduce((sum, { added }) => sum + added, 0), files.reduce((sum, { removed }) => sum + removed, 0)]);
  });

  it('stays within the issue\'s bound: at most 8 files and about 300 lines, the generated ones apart', async () => {
    const files = await patchFiles();
    expect(files.length).toBeLessThanOrEqual(8);
    expect(files.reduce((sum, { added, removed }) => sum + added + removed, 0)).toBeLessThanOrEqual(300);
    expect(files.map(({ file }) => file)).not.toEqual(expect.arrayContaining(stated.generated));
  });
});

describe('the walk-through, done in a copy of the repository', () => {
  let copy: string;
  let generated: string;

  beforeAll(async () => {
    copy = fs.mkdtempSync(path.join(os.tmpdir(), 'mkt-walk-through-'));
    // The working tree as it is (what git tracks and what it would, not what it ignores), beside the
    // repository's own node_modules.
    const { stdout } = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
    for (const file of stdout.split('\0').filter((name) => name !== '' && fs.existsSync(path.join(ROOT, name)))) {
      fs.mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
      fs.copyFileSync(path.join(ROOT, file), path.join(copy, file));
    }
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
    // Outside any repository, git apply applies to the files of its directory; a new file that is
    // already there, or a context that moved, is refused.
    await run('git', ['apply', PATCH], { cwd: copy });
    generated = (await run(process.execPath, ['scripts/openapi-document.js'], { cwd: copy })).stdout;
  }, 120_000);
  afterAll(() => {
    if (copy !== undefined) fs.rmSync(copy, { recursive: true, force: true });
  });

  it('npm run openapi writes the files the walk-through marks generated, and only those', () => {
    expect(stated.generated.length).toBeGreaterThan(0);
    expect(generated.trim().split('\n').map((line) => path.relative(copy, line.replace(/^wrote /, ''))).sort()).toEqual([...stated.generated].sort());
  });

  it('compiles, and eslint and knip find nothing in the files it touched', async () => {
    const touched = (await patchFiles()).map(({ file }) => file);
    await run(process.execPath, [path.join('node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', '-p', 'tsconfig.json'], { cwd: copy });
    await run(process.execPath, [path.join('node_modules', 'eslint', 'bin', 'eslint.js'), ...touched.filter((file) => file.endsWith('.ts'))], { cwd: copy });
    // knip's findings elsewhere are the repository's own, which `npm run lint` reports.
    const knip = await run(process.execPath, [path.join('node_modules', 'knip', 'bin', 'knip.js'), '--reporter', 'json', '--no-exit-code'], { cwd: copy, maxBuffer: 16 * 1024 * 1024 });
    const issues = (JSON.parse(knip.stdout) as { issues: Array<{ file: string }> }).issues.map((issue) => issue.file);
    expect(issues.filter((file) => touched.includes(file))).toEqual([]);
  }, 180_000);

  it('passes its test, and the tests that take a new operation up by themselves', async () => {
    const result = await run(process.execPath, [path.join('node_modules', 'vitest', 'vitest.mjs'), 'run', '--reporter', 'dot', ...TESTS], { cwd: copy, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined }, maxBuffer: 16 * 1024 * 1024 })
      .catch((error: { stdout: string; stderr: string }) => ({ stdout: error.stdout, stderr: error.stderr }));
    expect(result.stdout).toMatch(new RegExp(`Test Files +${TESTS.length} passed`));
  }, 240_000);
});
