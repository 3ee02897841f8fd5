// What `npm run openapi` (scripts/openapi-document.js) writes from docs/openapi.yaml: the copy the
// sandbox serves (src/sandbox/openapi-document.ts), the document's types, from which the library
// derives its data operations' items (src/api/openapi-types.ts), and the table of the operations in
// docs/service.md and docs/sandbox.md. All are up to date, and one run after the YAML changes is
// enough (the next run, and its --check, find nothing to do).
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { ROOT } from '../helpers/bin.js';

const run = promisify(execFile);
const SCRIPT = path.join(ROOT, 'scripts', 'openapi-document.js');

/** The script's exit code and output for `args`. */
async function script(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [SCRIPT, ...args]);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'mkt-openapi-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('npm run openapi', () => {
  it('has written src/sandbox/openapi-document.ts, src/api/openapi-types.ts and the docs\' tables of operations from docs/openapi.yaml as it is', async () => {
    const result = await script('--check');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  it('settles in one run after the YAML changes: the document served is the new one, and a second run writes nothing', async () => {
    const yaml = `${(await readFile(path.join(ROOT, 'docs', 'openapi.yaml'), 'utf8')).replace('    Quote:\n', '    Quote:\n      description: A trial.\n')}x-trial: one run\n`;
    const yamlPath = path.join(dir, 'openapi.yaml');
    const out = path.join(dir, 'openapi-document.ts');
    const types = path.join(dir, 'openapi-types.ts');
    await writeFile(yamlPath, yaml);
    await writeFile(out, '// stale\n');
    await writeFile(types, '// stale\n');
    const stale = await script('--check', '--yaml', yamlPath, '--out', out, '--types', types);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain('npm run openapi');

    expect((await script('--yaml', yamlPath, '--out', out, '--types', types)).stdout).toBe(`wrote ${out}\nwrote ${types}\n`);
    expect(await readFile(types, 'utf8')).toContain('/** @description A trial. */\n        Quote: {');
    const written = await readFile(out, 'utf8');
    const module = (await import(out)) as { OPENAPI_YAML: string; OPENAPI_JSON: string };
    expect(module.OPENAPI_YAML).toBe(yaml);
    const json = JSON.parse(module.OPENAPI_JSON) as Record<string, unknown>;
    expect(json['x-trial']).toBe('one run');
    expect(json).toEqual(YAML.parse(yaml));

    expect(await script('--check', '--yaml', yamlPath, '--out', out, '--types', types)).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(await script('--yaml', yamlPath, '--out', out, '--types', types)).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(await readFile(out, 'utf8')).toBe(written);
  });

  it('writes the table of the operations between the markers of a Markdown file, every operation in the document\'s order, and nothing else of it', async () => {
    const yaml = `${await readFile(path.join(ROOT, 'docs', 'openapi.yaml'), 'utf8')}`.replace('      summary: Readiness probe\n', '      summary: A trial probe\n');
    const yamlPath = path.join(dir, 'trial.yaml');
    const doc = path.join(dir, 'trial.md');
    await writeFile(yamlPath, yaml);
    await writeFile(doc, 'Before.\n\n<!-- operations -->\nstale\n<!-- /operations -->\n\nAfter.\n');
    expect((await script('--yaml', yamlPath, '--docs', doc)).stdout).toBe(`wrote ${doc}\n`);
    const written = await readFile(doc, 'utf8');
    expect(written.startsWith('Before.\n\n<!-- operations -->\n| Operation | Method and path | operationId | Needs |\n|---|---|---|---|\n')).toBe(true);
    expect(written.endsWith('<!-- /operations -->\n\nAfter.\n')).toBe(true);
    const rows = written.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| Operation'));
    const document = YAML.parse(yaml) as { paths: Record<string, Record<string, { operationId: string }>> };
    expect(rows.map((row) => row.split(' | ')[2])).toEqual(Object.values(document.paths).flatMap((item) => Object.values(item).map((operation) => `\`${operation.operationId}\``)));
    expect(rows).toContain('| A trial probe | `GET /healthz` | `getHealth` | nothing |');
    expect(rows).toContain('| Get the latest quotes | `GET /v1/market/quotes` | `getQuotes` | a token with `market.read`, an organization |');
    expect(await script('--check', '--yaml', yamlPath, '--docs', doc)).toEqual({ code: 0, stdout: '', stderr: '' });
    await writeFile(doc, 'no markers\n');
    expect((await script('--yaml', yamlPath, '--docs', doc)).stderr).toContain('has no <!-- operations --> ... <!-- /operations -->');
  });
});
