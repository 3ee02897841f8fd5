// The warning codes are stated once, in src/shared/warnings.ts, and documented in the README's table
// (Exit codes, "stderr under a JSON format"): the two agree, code for code, and every code on the
// list is one mkt gives.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { WARNING_CODES } from '../../src/shared/warnings.js';

const ROOT = new URL('../../', import.meta.url);
const readme = fs.readFileSync(new URL('README.md', ROOT), 'utf8');

/** The codes in the first column of the README's table of warning codes. */
function readmeCodes(): string[] {
  const section = readme.slice(readme.indexOf('### stderr under a JSON format'));
  const table = section.slice(section.indexOf('| code | when |'));
  const rows = table.split('\n').slice(2);
  return rows.slice(0, rows.findIndex((row) => !row.startsWith('|'))).map((row) => /^\| `([a-z_]+)` \|/.exec(row)?.[1] ?? `unreadable row: ${row}`);
}

/** Every `code: '...'` and `warn('...'` a source file gives a warning. */
function codesInSource(dir: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const text = fs.readFileSync(path.join(entry.parentPath, entry.name), 'utf8');
    for (const match of text.matchAll(/\bcode: '([a-z_]+)'|\bwarn\('([a-z_]+)'/g)) found.push(match[1] ?? match[2]!);
  }
  return found;
}

describe('the warning codes', () => {
  it('the README lists the codes of src/shared/warnings.ts, each once, in its order', () => {
    expect(readmeCodes()).toEqual([...WARNING_CODES]);
    expect(new Set(WARNING_CODES).size).toBe(WARNING_CODES.length);
  });

  it('every code on the list is given somewhere (the type of a warning allows no other)', () => {
    // The positions reader's codes are the library's, which the CLI says as they come.
    const given = new Set(['src/config', 'src/cli', 'src/api'].flatMap((dir) => codesInSource(new URL(dir, ROOT).pathname)));
    expect(WARNING_CODES.filter((code) => !given.has(code))).toEqual([]);
  });
});
