// `mkt login`'s prompts on a real terminal (the built bin in tmux, against the sandbox in this
// process): after a refused answer the field is empty, so the answer typed next is sent alone, in
// the masked API-key prompt and in the visible organization prompt. Needs tmux and the built dist/.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { MKT_SH, ROOT } from '../../helpers/bin.js';
import { tempDir } from '../../helpers/cli.js';
import { hasTmux, startTmux, tmuxSocket, waitUntil, type TmuxSession } from '../../helpers/tmux.js';

if (!hasTmux) console.warn('test/cli/credentials/prompt-tty.test.ts skipped: tmux is not installed');

let sandbox: Sandbox;
const dirs: string[] = [];
const sessions: Array<{ session: TmuxSession; socket: string }> = [];

/** `mkt login ...args` in a new tmux pane with a fresh config; its exit code lands in a file. */
function login(name: string, args: string, env = '') {
  const config = tempDir('mkt-prompt-');
  dirs.push(config);
  const done = path.join(config, 'exit');
  const socket = `${name}-${process.pid}`;
  const command = `MKT_CONFIG_DIR=${config}/config MKT_BASE_URL=${sandbox.url} ${env} ${MKT_SH} login ${args}; echo $? > ${done}`;
  const session = startTmux(socket, `${command}; sleep 30`, 120, 20);
  sessions.push({ session, socket });
  const exitCode = async () => {
    await waitUntil(() => fs.existsSync(done) && fs.readFileSync(done, 'utf8').trim() !== '', 'mkt login to exit');
    return fs.readFileSync(done, 'utf8').trim();
  };
  /** The screen's last line that holds `question`: the field as the user sees it. */
  const field = (question: string) => session.screen().split('\n').filter((line) => line.includes(question)).at(-1) ?? '';
  return { session, exitCode, field };
}

describe.skipIf(!hasTmux)('a refused answer at the login prompt, on a real terminal (tmux)', () => {
  beforeAll(async () => {
    if (!fs.existsSync(path.join(ROOT, 'dist', 'cli', 'main.cjs'))) throw new Error('dist/ is not built: run npm run build (npm test does)');
    sandbox = await startSandbox({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    for (const { session, socket } of sessions) {
      session.kill();
      fs.rmSync(tmuxSocket(socket), { force: true });
    }
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
    await sandbox?.close();
  });

  it('the masked API key: the field is empty again, and the key typed next logs in (exit 0)', async () => {
    const { session, exitCode, field } = login('mkt-prompt-key', '--org org_demo');
    await waitUntil(() => field('API key:') !== '', 'the prompt');
    session.type('demo');
    await waitUntil(() => field('API key:').includes('****'), 'the masked typo');
    session.press('Enter');
    await waitUntil(() => session.screen().includes('an API key is <client_id>.<client_secret>'), 'the reason for the refusal');
    // Asked again, with nothing in the field.
    await waitUntil(() => /API key: *$/.test(field('API key:')), 'an empty field');
    session.type('demo.demo-secret');
    await waitUntil(() => field('API key:').includes('*'.repeat('demo.demo-secret'.length)), 'the masked key');
    expect(field('API key:')).not.toContain('*'.repeat('demo.demo-secret'.length + 1));
    session.press('Enter');
    expect(await exitCode()).toBe('0');
    expect(session.screen()).toContain('Logged in to');
    expect(session.screen()).not.toContain('demo-secret');
  });

  it('the visible organization: the field is empty again, and the organization typed next is used (exit 0)', async () => {
    const { session, exitCode, field } = login('mkt-prompt-org', '', 'MKT_API_KEY=demo.demo-secret');
    const question = 'Organization (org_<id>):';
    await waitUntil(() => field(question) !== '', 'the prompt');
    session.type('demo');
    await waitUntil(() => field(question).endsWith('demo'), 'the typo');
    session.press('Enter');
    await waitUntil(() => session.screen().includes('an organization is org_<id>'), 'the reason for the refusal');
    await waitUntil(() => field(question).trimEnd().endsWith(question), 'an empty field');
    session.type('org_demo');
    await waitUntil(() => field(question).endsWith('org_demo'), 'the organization');
    expect(field(question)).not.toContain('demoorg_demo');
    session.press('Enter');
    expect(await exitCode()).toBe('0');
    expect(session.screen()).toContain('Logged in to');
    expect(session.screen()).toContain('for org_demo');
  });
});
