// Issue 17 item 4: `--watch` on a terminal that cannot move its cursor (TERM=dumb) draws each poll as
// a plain ASCII table, one after another, instead of the NDJSON of a pipe or the board's escape
// sequences. The built bin on a real pseudo-terminal (util-linux `script`), whose raw bytes the test
// reads, against the sandbox in this process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { baseEnv, HAS_SCRIPT, runOnTerminal } from '../../helpers/bin.js';
import { cliLogin } from '../../helpers/sandbox.js';

if (!HAS_SCRIPT) console.warn('test/cli/watch/dumb.test.ts skipped: util-linux script is not installed');

let sandbox: Sandbox;
let env: Record<string, string>;

/** `mkt quotes ...args` on a 100x30 pseudo-terminal; everything it wrote there, newlines as \n. */
const onTerminal = (args: string[]) => runOnTerminal(['quotes', ...args], { columns: 100, rows: 30, env });

describe.skipIf(!HAS_SCRIPT)('the watch on a dumb terminal', () => {
  beforeAll(async () => {
    sandbox = await startSandbox({ host: '127.0.0.1', port: 0 });
    env = baseEnv({ TERM: 'dumb', MKT_BASE_URL: sandbox.url, MKT_ORG: 'org_demo', MKT_TOKEN: await cliLogin(sandbox.url) });
  });
  afterAll(() => sandbox?.close());

  it.each([[[]], [['--format', 'table']]])('draws each poll as a plain ASCII table, one after another (%j)', async (extra) => {
    const result = await onTerminal(['EURUSD', 'AAPL', '--watch', '--count', '2', '--interval', '1s', ...extra]);
    expect(result.code, result.stdout).toBe(0);
    const text = result.stdout;
    expect(text).not.toContain('\u001b'); // no cursor movement, no alternate screen, no colour
    expect(text).not.toContain('"symbol"'); // not NDJSON
    expect(text).toMatch(/^[\x20-\x7e\n]*$/);
    expect(text.match(/^poll \d \| updated \d\d:\d\d:\d\d \| every 1s \| \d+\/60 left$/gm)).toEqual([
      expect.stringMatching(/^poll 1 /), expect.stringMatching(/^poll 2 /),
    ]);
    expect(text.match(/^\| Symbol +\| Bid +\| Ask +\| Mid +\| Spread +\| +Age \|$/gm)).toHaveLength(2);
    expect(text.match(/^\| EURUSD +\| +\d+\.\d+ +\| +\d+\.\d+ +\|/gm)).toHaveLength(2);
    expect(text.match(/^\| AAPL +\| +\d+\.\d+ +\| +\d+\.\d+ +\|/gm)).toHaveLength(2);
  });
});
