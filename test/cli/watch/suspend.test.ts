// Ctrl-Z on the live board with a real shell's job control: the built bin run from an interactive
// bash in a tmux pane (its own server socket), against the sandbox in this process. Suspended (the
// Ctrl-Z key, or SIGTSTP sent), the shell's prompt is on the normal screen with the cursor shown;
// after `fg` the board is back, and a single q (no Enter: raw mode again) quits with exit 0, leaving
// the terminal's modes as they were. Needs tmux, bash and the built dist/ (npm test builds it).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { baseEnv, mkt, ROOT } from '../../helpers/bin.js';
import { tempDir } from '../../helpers/cli.js';
import { cliLogin } from '../../helpers/sandbox.js';
import { hasTmux, tmuxServer } from '../../helpers/tmux.js';

const hasBash = (() => {
  try {
    execFileSync('bash', ['-c', 'true'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
if (!hasTmux || !hasBash) console.warn('test/cli/watch/suspend.test.ts skipped: it needs tmux and bash');

const SOCKET = `mkt-suspend-${process.pid}`;
let sandbox: Sandbox;
let token: string;
let dir: string;
let sessions = 0;

const { tmux, screen, waitFor, close: closeTmux } = tmuxServer(SOCKET, () => tmuxEnv());
// The prompt shows the last exit code: `[0] PROMPT$ `.
const tmuxEnv = () => baseEnv({ TERM: 'xterm-256color', MKT_BASE_URL: sandbox.url, MKT_ORG: 'org_demo', MKT_TOKEN: token, PS1: '[$?] PROMPT$ ' });

/** `alternate screen on` and `cursor shown`, as tmux sees the pane. */
const modes = async (session: string) => {
  const [alternate, cursor] = (await tmux('display-message', '-p', '-t', session, '#{alternate_on} #{cursor_flag}')).trim().split(' ');
  return { alternate: alternate === '1', cursor: cursor === '1' };
};
const pollNumber = (text: string) => Number(/poll (\d+)/.exec(text)?.[1] ?? 0);
const quote = (arg: string) => `'${arg.replaceAll("'", "'\\''")}'`;

/** The shell waiting at its prompt: the screen's last line is the bare prompt; returns the exit code it shows. */
async function atPrompt(session: string): Promise<string | undefined> {
  const last = (await screen(session)).trimEnd().split('\n').at(-1) ?? '';
  return /^\[(\d+)\] PROMPT\$$/.exec(last)?.[1];
}

/** An interactive bash in a new 100x30 pane. */
async function startShell() {
  const session = `s${++sessions}`;
  const file = (name: string) => path.join(dir, `${session}.${name}`);
  await tmux('new-session', '-d', '-s', session, '-x', '100', '-y', '30', '-c', ROOT, 'bash', '--norc', '--noprofile', '-i');
  await waitFor('the prompt', session, () => atPrompt(session));
  const typeLine = async (line: string) => {
    await tmux('send-keys', '-t', session, '-l', line);
    await tmux('send-keys', '-t', session, 'Enter');
  };
  /** The text of file `name` once a line of it is written. */
  const readFile = (name: string) => waitFor(`${name} to be written`, session, async () => {
    const text = fs.existsSync(file(name)) ? fs.readFileSync(file(name), 'utf8') : '';
    return text.endsWith('\n') ? text : undefined;
  });
  /** The terminal's modes as the shell gives them to a command (`stty -g`). */
  const stty = async (name: string) => {
    await typeLine(`stty -g > ${quote(file(name))}`);
    return readFile(name);
  };
  return { session, file, typeLine, readFile, stty };
}

/** Starts the board from the shell; its pid is written first (`exec` keeps it the job's pid). */
async function startBoard(shell: Awaited<ReturnType<typeof startShell>>) {
  await shell.stty('stty-before');
  const [file, args] = mkt(['quotes', 'EURUSD', '--watch', '--interval', '1s']);
  await shell.typeLine(`sh -c 'echo $$ > "$1"; shift; exec "$@"' sh ${[shell.file('pid'), file, ...args].map(quote).join(' ')}`);
  const pid = Number((await shell.readFile('pid')).trim());
  const shown = await waitForBoard(shell.session, 0);
  return { pid, shown };
}

/** The board up on the alternate screen, cursor hidden, at a poll after `after`; returns its poll number. */
function waitForBoard(session: string, after: number) {
  return waitFor(`the board past poll ${after}`, session, async () => {
    const text = await screen(session);
    const { alternate, cursor } = await modes(session);
    const poll = pollNumber(text);
    return alternate && !cursor && /EURUSD +\d+\.\d+ +\d+\.\d+/.test(text) && poll > after ? poll : undefined;
  });
}

/** Stopped: the shell says so, on the normal screen, with the cursor shown; nothing of the board. */
async function expectStopped(shell: Awaited<ReturnType<typeof startShell>>) {
  const text = await waitFor('the shell to report the stopped job', shell.session, async () => {
    const shown = await screen(shell.session);
    return /\[1\]\+ +Stopped/.test(shown) && (await atPrompt(shell.session)) !== undefined ? shown : undefined;
  });
  expect(text).not.toContain('q to quit');
  expect(await modes(shell.session)).toEqual({ alternate: false, cursor: true });
}

/** `fg`, the board back and polling, then one q (no Enter) ends it with exit 0, the tty as before. */
async function expectResumesAndQuits(shell: Awaited<ReturnType<typeof startShell>>, pollBefore: number) {
  await shell.typeLine('fg');
  await waitForBoard(shell.session, pollBefore);
  await tmux('send-keys', '-t', shell.session, 'q');
  expect(await waitFor('the prompt after q', shell.session, () => atPrompt(shell.session))).toBe('0');
  expect(await modes(shell.session)).toEqual({ alternate: false, cursor: true });
  expect(await shell.stty('stty-after')).toBe(await shell.readFile('stty-before'));
}

describe.skipIf(!hasTmux || !hasBash)('Ctrl-Z on the live board, in bash on a real terminal (tmux)', () => {
  beforeAll(async () => {
    if (!fs.existsSync(path.join(ROOT, 'dist', 'cli', 'main.cjs'))) throw new Error('dist/ is not built: run npm run build (npm test does)');
    sandbox = await startSandbox({ host: '127.0.0.1', port: 0 });
    token = await cliLogin(sandbox.url);
    dir = tempDir('mkt-suspend-');
  });
  afterAll(async () => {
    // The shells end with the server, and anything left in them.
    await closeTmux();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    await sandbox?.close();
  });

  it('Ctrl-Z suspends to the prompt; fg brings the board back and q quits with exit 0', async () => {
    const shell = await startShell();
    const { shown } = await startBoard(shell);
    await tmux('send-keys', '-t', shell.session, 'C-z');
    await expectStopped(shell);
    await expectResumesAndQuits(shell, shown);
  });

  it('kill -TSTP does the same', async () => {
    const shell = await startShell();
    const { pid, shown } = await startBoard(shell);
    process.kill(pid, 'SIGTSTP');
    await expectStopped(shell);
    await expectResumesAndQuits(shell, shown);
  });

  it('after kill -STOP (which cannot be caught), fg still gives the board raw mode: one q quits', async () => {
    const shell = await startShell();
    const { pid, shown } = await startBoard(shell);
    process.kill(pid, 'SIGSTOP');
    await waitFor('the shell to report the stopped job', shell.session, async () => (/\[1\]\+ +Stopped/.test(await screen(shell.session)) ? true : undefined));
    await expectResumesAndQuits(shell, shown);
  });
});
