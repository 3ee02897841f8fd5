// What `npm run build:exe` leaves in dist/exe/: the executables and SHA256SUMS, nothing of its build
// (the bundle, the blobs, the staged copies in dist/exe/.work/). Runs under npm run test:exe.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXE } from '../helpers/bin.js';

describe.skipIf(EXE === undefined)('npm run build:exe (where MKT_TEST_EXE names its output)', () => {
  it('leaves only the files SHA256SUMS lists, and SHA256SUMS', () => {
    const dir = path.dirname(EXE!);
    const listed = fs.readFileSync(path.join(dir, 'SHA256SUMS'), 'utf8').trim().split('\n').map((line) => line.split(/\s+/)[1]!);
    expect(listed).toContain(path.basename(EXE!));
    expect(fs.readdirSync(dir).sort()).toEqual([...listed, 'SHA256SUMS'].sort());
  });
});
