// The live board on a real pseudo-terminal: the built bin in a tmux pane (its own server socket),
// against the sandbox in this process. What only a real terminal shows: the board is drawn and
// updated on the alternate screen, it reflows on resize, and q / Ctrl-C / a 401 put the screen,
// the cursor and the tty modes back; when --count ends it, its last quotes stay on the screen.
// Needs tmux and the built dist/ (npm test builds it first).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { baseEnv, mkt, ROOT } from '../../helpers/bin.js';
import { tempDir } from '../../helpers/cli.js';
import { cliLogin } from '../../helpers/sandbox.js';
import { hasTmux, tmuxServer } from '../../helpers/tmux.js';

if (!hasTmux) console.warn('test/cli/watch/tty.test.ts skipped: tmux is not installed');

const SOCKET = `mkt-test-${process.pid}`;
let sandbox: Sandbox;
let token: string;
let dir: string;
let sessions = 0;

const { tmux, screen, waitFor, close: closeTmux } = tmuxServer(SOCKET, () => tmuxEnv());
const tmuxEnv = (extra: Record<string, string> = {}) => baseEnv({ TERM: 'xterm-256color', MKT_BASE_URL: sandbox.url, MKT_ORG: 'org_demo', MKT_TOKEN: token, ...extra });

const flags = async (session: string) => (await tmux('display-message', '-p', '-t', session, '#{alternate_on} #{cursor_flag}')).trim();
const pollNumber = (text: string) => Number(/poll (\d+)/.exec(text)?.[1] ?? 0);

/** Runs the watch in a new 100x30 pane, between markers, recording the exit code and tty modes. */
async function startWatch(args: string[], env: Record<string, string> = {}) {
  const session = `s${++sessions}`;
  const files = { exit: path.join(dir, `${session}.exit`), before: path.join(dir, `${session}.stty-before`), after: path.join(dir, `${session}.stty-after`) };
  const quoted = mkt(['quotes', ...args]).flat().map((arg) => `'${arg}'`).join(' ');
  const script = `echo BEFORE-WATCH; stty -g > '${files.before}'; ${quoted}; echo "EXIT=$?" > '${files.exit}'; stty -g > '${files.after}'; echo AFTER-WATCH; sleep 60`;
  const envArgs = Object.entries(env).flatMap(([name, value]) => ['-e', `${name}=${value}`]);
  await tmux('new-session', '-d', '-s', session, '-x', '100', '-y', '30', '-c', ROOT, ...envArgs, 'sh', '-c', script);
  const exited = () => waitFor('the watch to exit', session, async () => (fs.existsSync(files.exit) ? fs.readFileSync(files.exit, 'utf8').trim() : undefined));
  const ttyRestored = () => fs.readFileSync(files.before, 'utf8') === fs.readFileSync(files.after, 'utf8');
  return { session, exited, ttyRestored };
}

// The tests run at once, each in a session of its own: most of their time is the watch's 1 s polls.
describe.skipIf(!hasTmux).concurrent('the live board on a real terminal (tmux)', () => {
  beforeAll(async () => {
    if (!fs.existsSync(path.join(ROOT, 'dist', 'cli', 'main.cjs'))) throw new Error('dist/ is not built: run npm run build (npm test does)');
    sandbox = await startSandbox({ host: '127.0.0.1', port: 0 });
    token = await cliLogin(sandbox.url);
    dir = tempDir('mkt-tty-');
  });
  afterAll(async () => {
    await closeTmux();
    await sandbox?.close();
  });

  it('draws the board, updates it, reflows on resize, and restores the terminal on q', async () => {
    const { session, exited, ttyRestored } = await startWatch(['EURUSD', 'AAPL', '--watch', '--interval', '1s']);
    const first = await waitFor('the first quotes', session, async () => {
      const text = await screen(session);
      return /EURUSD +\d+\.\d+ +\d+\.\d+/.test(text) && /AAPL +\d+\.\d+/.test(text) && pollNumber(text) >= 1 ? text : undefined;
    });
    expect(first).toMatch(/^Symbol +Bid +Ask +Mid +Spread +Age +Trend/m);
    expect(first).toMatch(/updated \d\d:\d\d:\d\d · poll \d+ · every 1s · \d+\/60 left · q to quit/);
    expect(first).not.toContain('BEFORE-WATCH'); // on the alternate screen
    expect(await flags(session)).toBe('1 0'); // alternate screen on, cursor hidden

    const seen = pollNumber(first);
    await waitFor('a later poll', session, async () => (pollNumber(await screen(session)) > seen ? true : undefined));

    await tmux('resize-window', '-t', session, '-x', '60', '-y', '30');
    const narrow = await waitFor('the board at 60 columns', session, async () => {
      const text = await screen(session);
      return /^Symbol/m.test(text) && !text.includes('Trend') ? text : undefined;
    });
    for (const line of narrow.split('\n')) expect(line.length).toBeLessThanOrEqual(60);

    await tmux('send-keys', '-t', session, 'q');
    expect(await exited()).toBe('EXIT=0');
    const after = await waitFor('the shell again', session, async () => {
      const text = await screen(session);
      return text.includes('AFTER-WATCH') ? text : undefined;
    });
    expect(after).toContain('BEFORE-WATCH');
    expect(after).not.toContain('EURUSD'); // the board went with the alternate screen
    expect(await flags(session)).toBe('0 1');
    expect(ttyRestored()).toBe(true); // raw mode undone
  });

  it('leaves the last quotes on the screen when --count ends the watch', async () => {
    const { session, exited, ttyRestored } = await startWatch(['EURUSD', 'AAPL', '--watch', '--interval', '1s', '--count', '2']);
    expect(await exited()).toBe('EXIT=0');
    const text = await waitFor('the shell again', session, async () => {
      const shown = await screen(session);
      return shown.includes('AFTER-WATCH') ? shown : undefined;
    });
    // On the normal screen, below what was there before, above what comes after.
    expect(text).toMatch(/BEFORE-WATCH\nSymbol +Bid +Ask +Mid +Spread +Age +Trend *\nEURUSD +\d+\.\d+ +\d+\.\d+ [^\n]*\nAAPL +\d+\.\d+ +\d+\.\d+ [^\n]*\n/);
    expect(text).toMatch(/\nupdated \d\d:\d\d:\d\d · poll 2 · every 1s · \d+\/60 left *\nAFTER-WATCH/);
    expect(text).not.toContain('q to quit');
    expect(await flags(session)).toBe('0 1');
    expect(ttyRestored()).toBe(true);
  });

  it('quits with exit 0 on Ctrl-C, restoring the terminal', async () => {
    const { session, exited, ttyRestored } = await startWatch(['EURUSD', '--watch', '--interval', '1s']);
    await waitFor('the first quotes', session, async () => (/EURUSD +\d/.test(await screen(session)) ? true : undefined));
    await tmux('send-keys', '-t', session, 'C-c');
    expect(await exited()).toBe('EXIT=0');
    expect(await flags(session)).toBe('0 1');
    expect(ttyRestored()).toBe(true);
  });

  it('draws in plain ASCII under LC_ALL=C', async () => {
    const { session, exited } = await startWatch(['EURUSD', 'AAPL', '--watch', '--interval', '1s'], { LC_ALL: 'C' });
    const text = await waitFor('the second poll', session, async () => {
      const shown = await screen(session);
      return pollNumber(shown) >= 2 ? shown : undefined;
    });
    expect(text).toMatch(/updated \d\d:\d\d:\d\d \| poll \d+ \| every 1s \| \d+\/60 left \| q to quit/);
    expect(text).toMatch(/^[\x20-\x7e\n]*$/);
    await tmux('send-keys', '-t', session, 'q');
    expect(await exited()).toBe('EXIT=0');
  });

  it('stops with exit 4 on a 401, with the message on the restored screen', async () => {
    const { session, exited, ttyRestored } = await startWatch(['EURUSD', '--watch'], { MKT_TOKEN: 'not-a-valid-token' });
    expect(await exited()).toBe('EXIT=4');
    const text = await waitFor('the shell again', session, async () => {
      const shown = await screen(session);
      return shown.includes('AFTER-WATCH') ? shown : undefined;
    });
    expect(text).toMatch(/BEFORE-WATCH\nerror: not authenticated \(401/);
    expect(await flags(session)).toBe('0 1');
    expect(ttyRestored()).toBe(true);
  });
});
