// The test tree mirrors src/ (docs/architecture.md, "Where each kind of thing lives"): the tests of
// src/cli/output/writer.ts are in test/cli/output/, so a file under test/<x>/ needs a folder
// src/<x>/. The folders that test no module of src are the exceptions: the packed package, the
// standalone executable, the lint rules and the helpers. Read from the disk, not from git, so a
// file misplaced before its first commit fails too.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** test/'s own folders, which mirror nothing of src/. */
const NOT_MODULES = ['package', 'exe', 'lint', 'helpers'];
/** test/'s own files, at its root: vitest's global setup (vitest.config.ts). */
const ROOT_FILES = ['global-setup.ts'];

/** Each file under `root`/test whose folder has no folder of the same path under `root`/src, with why. */
function misplaced(root: string): string[] {
  const test = path.join(root, 'test');
  const found: string[] = [];
  for (const entry of fs.readdirSync(test, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.relative(test, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
    const folder = path.posix.dirname(file);
    if (folder === '.' ? ROOT_FILES.includes(file) : NOT_MODULES.includes(file.split('/')[0]!)) continue;
    if (folder !== '.' && fs.statSync(path.join(root, 'src', folder), { throwIfNoEntry: false })?.isDirectory()) continue;
    found.push(`test/${file}: no folder src/${folder === '.' ? '' : `${folder}/`} (a module's tests go where its path says: those of src/cli/output/writer.ts in test/cli/output/)`);
  }
  return found.sort();
}

describe('the test tree mirrors src/', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('every file under test/ is in a folder that src/ has, or in one of test/\'s own', () => {
    expect(misplaced(ROOT)).toEqual([]);
  });

  it('the check names a file in a folder src/ does not have: a misspelt one, one src/ has deeper, one at test/\'s root', () => {
    const root = tempDir();
    dirs.push(root);
    for (const folder of ['src/cli/output', 'src/cli/watch', 'src/api']) fs.mkdirSync(path.join(root, folder), { recursive: true });
    const files = [
      'test/cli/output/writer.test.ts', 'test/cli/watch/board-harness.ts', 'test/api/client.test.ts', 'test/helpers/cli.ts',
      'test/package/install.test.ts', 'test/global-setup.ts',
      'test/cli/outputs/writer.test.ts', 'test/watch/stream.test.ts', 'test/quotes.test.ts',
    ];
    for (const file of files) {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      fs.writeFileSync(path.join(root, file), '');
    }
    expect(misplaced(root).map((line) => line.slice(0, line.indexOf(':')))).toEqual(['test/cli/outputs/writer.test.ts', 'test/quotes.test.ts', 'test/watch/stream.test.ts']);
    expect(misplaced(root)[2]).toMatch(/^test\/watch\/stream\.test\.ts: no folder src\/watch\/ /);
  });
});
