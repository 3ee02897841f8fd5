// Issue 13 item 7, one-shot output: a standard output that cannot be written (/dev/full, a full disk)
// ends every command with exit 1 and one clear message, in the error format the command writes,
// whatever its own exit code would have been. Only a real process has a real stdout.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, runBin, MKT_SH } from '../helpers/bin.js';
import { tempDir } from '../helpers/cli.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sandbox: TestSandbox;
let env: Record<string, string>;
beforeAll(async () => {
  sandbox = await startTestSandbox();
  env = { MKT_CONFIG_DIR: path.join(tempDir(), 'cfg'), MKT_BASE_URL: sandbox.url };
  expect((await runBin(['login', '--org', 'org_demo'], { env: { ...env, MKT_API_KEY: 'demo.demo-secret' } })).code).toBe(0);
});
afterAll(() => sandbox.close());

/** Runs mkt with stdout on /dev/full (not blocking: the sandbox answers in this process); its exit code and stderr. */
async function toDevFull(args: string[], extra: Record<string, string> = {}): Promise<{ code: number; stderr: string }> {
  const errors = path.join(tempDir(), 'stderr.txt');
  const quoted = args.map((arg) => `'${arg}'`).join(' ');
  const { stdout } = await promisify(execFile)('sh', ['-c', `${MKT_SH} ${quoted} > /dev/full 2>"${errors}"; echo $?`], {
    env: baseEnv({ ...env, ...extra }), timeout: 20_000,
  });
  return { code: Number(stdout.trim()), stderr: fs.readFileSync(errors, 'utf8') };
}

const ONE_MESSAGE = /^error: cannot write to standard output: ENOSPC[^\n]*\nhint: check where standard output goes[^\n]*\n$/;

describe.skipIf(!fs.existsSync('/dev/full'))('a standard output that cannot be written', () => {
  it.each([
    [['quotes', 'EURUSD']],
    [['quotes', 'EURUSD', 'AAPL', '--format', 'csv']],
    [['status']],
    [['status', '--check']],
    [['config', 'get', 'org']],
    [['help', 'environment']],
  ])('mkt %j: exit 1, one message', async (args) => {
    const result = await toDevFull(args);
    expect(result.stderr).toMatch(ONE_MESSAGE);
    expect(result.code).toBe(1);
  });

  it('mkt status, whose own exit code is 4 without credentials: still exit 1, one message', async () => {
    const result = await toDevFull(['status'], { MKT_CONFIG_DIR: path.join(tempDir(), 'empty') });
    expect(result.stderr).toMatch(ONE_MESSAGE);
    expect(result.code).toBe(1);
  });

  it('with --json, the message is one JSON object', async () => {
    const result = await toDevFull(['quotes', 'EURUSD', '--json']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stderr).error).toMatchObject({ code: 'OUTPUT', exit_code: 1 });
  });

  it('a command that already failed says so once, not twice', async () => {
    const result = await toDevFull(['quotes', 'EURUSD'], { MKT_TOKEN: 'garbage-token-value', MKT_ORG: 'org_demo' });
    expect(result.code).toBe(4);
    expect(result.stderr.match(/^error: /gm)).toHaveLength(1);
  });
});

describe('a standard error whose reader has gone', () => {
  it('mkt quotes --bogus 2>&1 | true: the usage error it cannot print is still exit 2, not a crash', async () => {
    const { stdout } = await promisify(execFile)('bash', ['-c', `set -o pipefail; ${MKT_SH} quotes --bogus 2>&1 | true; echo "\${PIPESTATUS[0]}"`], {
      env: baseEnv(env), timeout: 20_000,
    });
    expect(stdout.trim()).toBe('2');
  });
});
