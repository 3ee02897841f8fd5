// Issue 18, item 5: no import cycle in src/, type imports included (a cycle of types alone still
// ties the modules together for a reader and for the build). The check is dpdm's own command line,
// as CI or a person runs it: `npx dpdm --no-tree --no-transform --exit-code circular:1 'src/**/*.ts'`
// (--no-transform, dpdm's default, keeps `import type` edges; -T would drop them).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DPDM = path.join(path.dirname(createRequire(import.meta.url).resolve('dpdm/package.json')), 'lib/bin/dpdm.js');

/**
 * dpdm's exit code and the cycles it lists, one `a -> b -> c` line each. The project's tsconfig
 * resolves `./b.js` to b.ts, as tsc does; `types` is the flag for type-only imports.
 */
function findCycles(cwd: string, glob: string, types = '--no-transform'): Promise<{ code: number; cycles: string[]; output: string }> {
  const args = [DPDM, '--no-tree', '--no-warning', '--no-progress', types, '--tsconfig', path.join(ROOT, 'tsconfig.json'), '--exit-code', 'circular:1', glob];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { cwd }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      if (code !== 0 && code !== 1) return reject(new Error(`dpdm failed (${String(error?.code)}): ${stderr}`));
      const cycles = [...stdout.matchAll(/^\s*\d+\)\s+(.+?)\s*$/gm)].map((match) => match[1]!);
      resolve({ code, cycles, output: stdout });
    });
  });
}

describe('imports have no cycles', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('src/**/*.ts: none, type imports included', async () => {
    const { code, cycles, output } = await findCycles(ROOT, 'src/**/*.ts');
    expect(cycles, output).toEqual([]);
    expect(code).toBe(0);
  });

  it('the check sees a cycle of type imports alone', async () => {
    const dir = tempDir();
    dirs.push(dir);
    fs.writeFileSync(path.join(dir, 'a.ts'), "import type { B } from './b.js';\nexport interface A { b?: B }\n");
    fs.writeFileSync(path.join(dir, 'b.ts'), "import type { A } from './a.js';\nexport interface B { a?: A }\n");
    const { code, cycles } = await findCycles(dir, '*.ts');
    expect(cycles).toEqual([expect.stringMatching(/^(a\.ts -> b\.ts|b\.ts -> a\.ts)$/)]);
    expect(code).toBe(1);
    // -T (dpdm's --transform) drops type-only imports, and the cycle with them.
    expect((await findCycles(dir, '*.ts', '-T')).cycles).toEqual([]);
  });
});
