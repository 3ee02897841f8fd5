// The value board on a real pseudo-terminal: the built bin in a tmux pane (its own server socket),
// against the sandbox in this process. When --count ends the watch, the last poll's tables stay on
// the normal screen, each line within the pane's width, with the Change column and the line of the
// total's change; the terminal is given back (alternate screen off, cursor shown). Needs tmux and
// the built dist/.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { baseEnv, mkt, ROOT } from '../../helpers/bin.js';
import { tempDir } from '../../helpers/cli.js';
import { cliLogin } from '../../helpers/sandbox.js';
import { hasTmux, tmuxServer } from '../../helpers/tmux.js';

if (!hasTmux) console.warn('test/cli/watch/value-tty.test.ts skipped: tmux is not installed');

const SOCKET = `mkt-value-test-${process.pid}`;
let sandbox: Sandbox;
let token: string;
let dir: string;

const { tmux, screen, waitFor, close: closeTmux } = tmuxServer(SOCKET, () => baseEnv({ TERM: 'xterm-256color', MKT_BASE_URL: sandbox.url, MKT_ORG: 'org_demo', MKT_TOKEN: token }));

describe.skipIf(!hasTmux)('the value board on a real terminal (tmux)', () => {
  beforeAll(async () => {
    if (!fs.existsSync(path.join(ROOT, 'dist', 'cli', 'main.cjs'))) throw new Error('dist/ is not built: run npm run build (npm test does)');
    sandbox = await startSandbox({ host: '127.0.0.1', port: 0 });
    token = await cliLogin(sandbox.url);
    dir = tempDir('mkt-value-tty-');
  });
  afterAll(async () => {
    await closeTmux();
    await sandbox?.close();
    if (dir !== undefined) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('leaves the last poll\'s tables on the screen when --count ends it, within the width, with the change', async () => {
    const portfolio = path.join(dir, 'portfolio.csv');
    fs.writeFileSync(portfolio, 'symbol,quantity,currency,cost\nAAPL,10,USD,150\nEUR,2500.75,EUR\n');
    const exit = path.join(dir, 'exit');
    const quoted = mkt(['value', portfolio, '--base', 'USD', '--watch', '--interval', '1s', '--count', '2']).flat().map((arg) => `'${arg}'`).join(' ');
    await tmux('new-session', '-d', '-s', 'v', '-x', '100', '-y', '30', '-c', ROOT, 'sh', '-c', `echo BEFORE-WATCH; ${quoted}; echo "EXIT=$?" > '${exit}'; echo AFTER-WATCH; sleep 60`);
    const text = await waitFor('the watch to end', 'v', async () => {
      const shown = await screen('v');
      return shown.includes('AFTER-WATCH') ? shown : undefined;
    }, 15_000);
    expect(fs.readFileSync(exit, 'utf8').trim()).toBe('EXIT=0');
    for (const line of text.split('\n')) expect(line.length).toBeLessThanOrEqual(100);
    expect(text).toMatch(/BEFORE-WATCH\n┌/);
    expect(text).toMatch(/│ Symbol +│[^\n]*│ +Change USD │/);
    expect(text).toMatch(/│ AAPL +│/);
    expect(text).toMatch(/│ all, in USD │/);
    expect(text).toMatch(/\ntotal_base [+-]?[\d.]+ USD [▲▼=] since \d\d:\d\d:\d\d *\n/);
    expect(text).toMatch(/updated \d\d:\d\d:\d\d · poll 2 · every 1s · \d+\/60 left *\nAFTER-WATCH/);
    expect(text).not.toContain('q to quit');
    expect((await tmux('display-message', '-p', '-t', 'v', '#{alternate_on} #{cursor_flag}')).trim()).toBe('0 1');
  });
});
