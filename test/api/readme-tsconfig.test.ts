// The README's TypeScript set-up, as a user would copy it: its tsconfig.json and `"type": "module"`
// in a project of their own, where `mkt` is an installed package (a link to this repository, whose
// package.json exports dist/), and its first library example as index.ts, type-checked with
// nothing else. The settings the README warns about fail as it says. Needs the built dist/.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/bin.js';

function librarySection(): string {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('## The library\n');
  return readme.slice(start, readme.indexOf('\n## ', start + 1));
}

let project: string;
beforeAll(() => {
  if (!fs.existsSync(path.join(ROOT, 'dist', 'types', 'api', 'index.d.ts'))) throw new Error('dist/ is not built: run npm run build (npm test does)');
  project = fs.mkdtempSync(path.join(os.tmpdir(), 'mkt-tsconfig-'));
  fs.mkdirSync(path.join(project, 'node_modules', '@types'), { recursive: true });
  fs.symlinkSync(ROOT, path.join(project, 'node_modules', 'mkt'), 'dir');
  fs.symlinkSync(path.join(ROOT, 'node_modules', '@types', 'node'), path.join(project, 'node_modules', '@types', 'node'), 'dir');
  const example = /```ts\n([\s\S]*?)```/.exec(librarySection())![1]!;
  fs.writeFileSync(path.join(project, 'index.ts'), example);
});
afterAll(() => {
  if (project) fs.rmSync(project, { recursive: true, force: true });
});

/**
 * A compiler host that parses each declaration file once for all the programs below: lib.d.ts,
 * @types/node and mkt's declarations are most of the work, and none of them changes between the
 * settings tried. A declaration file's parse depends only on the file, the language version and its
 * module format (from package.json's "type"), so the cache is keyed on those, as `tsc -b` keys the
 * cache its projects of different settings share. index.ts is parsed afresh for each program: how a
 * source file is told to be a module depends on the "module" setting.
 */
const parsed = new Map<string, ts.SourceFile | undefined>();
function cachingHost(options: ts.CompilerOptions): ts.CompilerHost {
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersionOrOptions, onError, shouldCreate) => {
    if (!/\.d\.[cm]?ts$/.test(fileName)) return getSourceFile(fileName, languageVersionOrOptions, onError, shouldCreate);
    const settings = typeof languageVersionOrOptions === 'object' ? languageVersionOrOptions : { languageVersion: languageVersionOrOptions };
    const key = `${fileName}\0${settings.languageVersion}\0${settings.impliedNodeFormat}`;
    if (!parsed.has(key)) parsed.set(key, getSourceFile(fileName, languageVersionOrOptions, onError, shouldCreate));
    return parsed.get(key);
  };
  return host;
}

/**
 * tsc's errors (`TSnnnn message`) for the project with `compilerOptions` and package.json `type`:
 * index.ts's and mkt's declarations', or with `exampleOnly` only index.ts's (quicker: mkt's
 * declarations go unchecked). lib.d.ts and @types/node are not mkt's and are not checked, as
 * `skipLibCheck` would leave them, though the settings under test do not say so.
 */
function typeCheck(compilerOptions: Record<string, unknown>, type: 'module' | 'commonjs', exampleOnly = false): string[] {
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ type }));
  const config = ts.parseJsonConfigFileContent({ compilerOptions, files: ['index.ts'] }, ts.sys, project);
  expect(config.errors).toEqual([]);
  const program = ts.createProgram(config.fileNames, config.options, cachingHost(config.options));
  const mine = program.getSourceFiles().filter((file) => file.fileName === path.join(project, 'index.ts') || (!exampleOnly && isMkts(file.fileName)));
  if (!exampleOnly) expect(mine.map((file) => path.basename(file.fileName))).toContain('index.d.ts');
  const diagnostics = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics(), ...mine.flatMap((file) => ts.getPreEmitDiagnostics(program, file))];
  return diagnostics.map((diagnostic) => `TS${diagnostic.code} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`);
}

/** A declaration file of mkt's own, through the installed link or at its real path. */
function isMkts(fileName: string): boolean {
  return fileName.startsWith(path.join(ROOT, 'dist') + path.sep) || fileName.startsWith(path.join(project, 'node_modules', 'mkt') + path.sep);
}

describe("the README's tsconfig.json for the library examples", () => {
  const stated = () => {
    const json = /```json\n(\{ "compilerOptions"[\s\S]*?)```/.exec(librarySection());
    expect(json, 'the library section shows a tsconfig.json').not.toBeNull();
    return JSON.parse(json![1]!).compilerOptions as Record<string, unknown>;
  };

  it('states a module setting, and with "type": "module" the first example type-checks, declarations included', () => {
    const options = stated();
    expect(options.module).toBe('nodenext');
    expect(typeCheck(options, 'module')).toEqual([]);
  }, 180_000);

  it.each([
    ['no module setting', { module: undefined }, 'module', ['TS2792', 'TS1378']],
    ['"module": "commonjs"', { module: 'commonjs' }, 'module', ['TS1378']],
    ['nodenext without "type": "module"', {}, 'commonjs', ['TS1309']],
  ] as const)('fails as the README says with %s', (_name, change, type, codes) => {
    const errors = typeCheck({ ...stated(), ...change }, type, true);
    for (const code of codes) expect(errors.some((error) => error.startsWith(`${code} `)), errors.join('\n')).toBe(true);
    for (const code of codes) expect(librarySection()).toContain(`(${code})`);
  }, 180_000);
});
