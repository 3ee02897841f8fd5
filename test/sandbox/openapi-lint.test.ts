// docs/openapi.yaml under Spectral's OpenAPI ruleset (docs/.spectral.yaml), as `npm run lint` runs it
// with `--fail-severity warn`: no error and no warning. Here too so that it runs on every Node CI
// runs, not only the one that lints.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { expect, it } from 'vitest';
import { ROOT } from '../helpers/bin.js';

interface SpectralResult {
  code: string;
  message: string;
  path: string[];
  /** 0 error, 1 warning, 2 information, 3 hint. */
  severity: number;
}

it('Spectral finds no error and no warning in docs/openapi.yaml', () => {
  const spectral = path.join(ROOT, 'node_modules', '@stoplight', 'spectral-cli', 'dist', 'index.js');
  const run = spawnSync(process.execPath, [spectral, 'lint', 'docs/openapi.yaml', '--ruleset', 'docs/.spectral.yaml', '--format', 'json', '--quiet'], {
    cwd: ROOT, encoding: 'utf8', timeout: 60_000,
  });
  expect(run.stderr).toBe('');
  const results = JSON.parse(run.stdout) as SpectralResult[];
  const problems = results.filter((result) => result.severity <= 1).map((result) => `${result.code} at ${result.path.join('.')}: ${result.message}`);
  expect(problems).toEqual([]);
}, 60_000);
