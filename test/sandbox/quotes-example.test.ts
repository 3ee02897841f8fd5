// docs/sandbox.md's quotes example, run as written with bash against a sandbox on port 0: it gets
// its own token ($TOKEN) and then the quotes, as someone pasting it would. It uses curl and jq, which
// the docs already use.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const DOC = fs.readFileSync(new URL('../../docs/sandbox.md', import.meta.url), 'utf8');

/** The first fenced `sh` block after `heading`. */
function block(heading: string): string {
  const at = DOC.indexOf(`\n${heading}\n`);
  if (at < 0) throw new Error(`docs/sandbox.md has no heading ${heading}`);
  const match = /```sh\n([\s\S]*?)\n```/.exec(DOC.slice(at));
  if (match === null) throw new Error(`docs/sandbox.md has no sh block under ${heading}`);
  return match[1]!;
}

let server: TestSandbox;
beforeAll(async () => {
  server = await startTestSandbox();
});
afterAll(async () => {
  await server.close();
});

it('the GET /v1/market/quotes example, pasted into a shell with only MKT_BASE_URL set, prints the quotes', async () => {
  const script = block('## GET /v1/market/quotes');
  // Not spawnSync: the sandbox answers from this process's event loop.
  const run = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8', MKT_BASE_URL: server.url },
      encoding: 'utf8',
      timeout: 20_000,
    }, (error, stdout, stderr) => resolve({ code: error === null ? 0 : (typeof error.code === 'number' ? error.code : null), stdout, stderr }));
  });
  expect(run).toMatchObject({ code: 0, stderr: '' });
  const body = JSON.parse(run.stdout) as { data?: Array<{ symbol: string }> };
  expect(body.data?.map((quote) => quote.symbol), run.stdout).toEqual(['EURUSD', 'AAPL']);
});
