// No link in the README or docs/ leaves the repository: every relative link leads to a file in it
// (the packed README and docs are held to the package's files in ./install.test.ts).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/bin.js';
import { relativeLinks } from './links.js';

const documents = ['README.md', ...fs.readdirSync(path.join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

describe('links in README.md and docs/', () => {
  it.each(documents)('%s: every relative link leads to a file in the repository', (document) => {
    const broken = relativeLinks(fs.readFileSync(path.join(ROOT, document), 'utf8')).filter((link) => {
      const target = path.resolve(ROOT, path.dirname(document), link);
      return path.relative(ROOT, target).startsWith('..') || !fs.existsSync(target);
    });
    expect(broken).toEqual([]);
  });

  it('finds the links it checks', () => {
    expect(relativeLinks('[a](docs/x.md#y) ![b](<img one.png> "t") [c](https://e.test/) [d](#here) `[e](code.md)`\n\n[f]: ../out.md\n'))
      .toEqual(['docs/x.md', 'img one.png', '../out.md']);
  });
});

describe('docs/architecture.md', () => {
  const text = fs.readFileSync(path.join(ROOT, 'docs', 'architecture.md'), 'utf8');
  // Every path it names in backticks, from the repository's top: src/…, test/…, docs/…, bin/…, scripts/….
  const named = [...text.matchAll(/`((?:src|test|docs|bin|scripts)\/[\w./-]+)`(\*\*)?( \(new\b)?/g)]
    .map(([, file, , isNew]) => ({ file: file!, isNew: isNew !== undefined }));

  // The walk-through's new files (marked "(new)", or "(new, N lines)") are its to make:
  // test/package/walk-through.test.ts makes them, in a copy of the repository.
  it('every file or folder it names is there, but those the walk-through makes', () => {
    expect(named.filter(({ file, isNew }) => !isNew && !fs.existsSync(path.join(ROOT, file))).map(({ file }) => file)).toEqual([]);
  });

  it('names the files it describes (the check above reads them)', () => {
    expect(named.length).toBeGreaterThan(40);
    expect(named.some(({ isNew }) => isNew)).toBe(true);
  });
});
