// What only a real process shows: exit codes, stdin, a real terminal, parallel writers, signals,
// and that secrets stay out of every stream.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { ROOT, baseEnv, collect, runBin, startSandboxProcess, type SandboxProcess, mkt, MKT_SH } from '../helpers/bin.js';
import { hasTmux, startTmux, waitUntil } from '../helpers/tmux.js';

let sandbox: SandboxProcess;
beforeAll(async () => {
  sandbox = await startSandboxProcess(['--per-minute', '1000', '--synthetic', '2000']);
});
afterAll(() => sandbox.stop());

describe('the built bin', () => {
  it('prints its version and help, exit 0', async () => {
    const version = await runBin(['--version']);
    expect(version).toMatchObject({ code: 0, stderr: '' });
    expect(version.stdout).toBe(`${JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version}\n`);
    const help = await runBin(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: mkt');
    for (const command of ['login', 'token', 'logout', 'status', 'config', 'quotes', 'sandbox']) expect(help.stdout).toContain(command);
  });

  it('documents the exit codes and the environment', async () => {
    const codes = await runBin(['help', 'exit-codes']);
    expect(codes.code).toBe(0);
    for (const code of [0, 1, 2, 3, 4, 5, 6, 7, 130]) expect(codes.stdout).toMatch(new RegExp(`^ +${code}  \\S`, 'm'));
    expect((await runBin(['help', 'environment'])).stdout).toContain('MKT_CONFIG_DIR');
    expect((await runBin(['help', 'quotes'])).stdout).toContain('--symbols-file');
  });

  it.each([
    [['frobnicate'], /error: unknown command 'frobnicate'/],
    [['quotes', '--frobnicate'], /error: unknown option '--frobnicate'/],
    [['quotes', '--format'], /argument missing/],
    [['help', 'nothing'], /no help topic or command "nothing"/],
  ])('exits 2 on usage errors: %j', async (args, message) => {
    const result = await runBin(args, { env: { MKT_CONFIG_DIR: tempDir() } });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('logs in through piped stdin and gets quotes, with the exit codes of the contract', async () => {
    const config = tempDir();
    const env = { MKT_CONFIG_DIR: config, MKT_BASE_URL: sandbox.url };
    const login = await runBin(['login', '--with-api-key', '--org', 'org_demo'], { env, input: 'demo.demo-secret\n' });
    expect(login.code).toBe(0);
    const quotes = await runBin(['quotes', 'EURUSD', 'AAPL', '--json'], { env });
    expect(quotes.code).toBe(0);
    expect(JSON.parse(quotes.stdout).data).toHaveLength(2);
    expect((await runBin(['quotes', 'EURUSD', 'NOPE', '--strict'], { env })).code).toBe(3);
    expect((await runBin(['quotes', 'EURUSD'], { env: { ...env, MKT_TOKEN: 'bogus' } })).code).toBe(4);
    expect((await runBin(['quotes', 'EURUSD'], { env: { ...env, MKT_ORG: 'org_nope' } })).code).toBe(5);
    expect((await runBin(['quotes', 'EURUSD', '--retries', '0'], { env: { ...env, MKT_BASE_URL: 'http://127.0.0.1:9', MKT_TOKEN: 'x' } })).code).toBe(7);
  });

  it('a pipe that closes early is not an error', async () => {
    const config = tempDir();
    const env = { MKT_CONFIG_DIR: config, MKT_BASE_URL: sandbox.url, MKT_API_KEY: 'demo.demo-secret' };
    expect((await runBin(['login', '--org', 'org_demo'], { env })).code).toBe(0);
    const errors = path.join(config, 'stderr.txt');
    const status = path.join(config, 'status.txt');
    const symbols = Array.from({ length: 2000 }, (_, i) => `SYN${String(i + 1).padStart(5, '0')}`).join(',');
    // Run without blocking this process (a synchronous run held the test's own event loop for the
    // whole of mkt's 20 requests); mkt's own exit status is kept, since the pipeline's is head's.
    const child = spawn('sh', ['-c', `{ ${MKT_SH} quotes --json --symbols ${symbols} 2>"${errors}"; echo $? > "${status}"; } | head -c 10`], {
      env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    const result = await collect(child, performance.now(), undefined, 25_000);
    expect(result.code).toBe(0);
    expect(fs.readFileSync(errors, 'utf8')).not.toMatch(/EPIPE|\n\s+at /);
    expect(fs.readFileSync(status, 'utf8')).toBe('0\n');
    expect(result.stdout).toBe('{\n  "data"');
  });

  it('a stdout that cannot be written (a full disk) is exit 1 with a message, not silence', async () => {
    const errors = path.join(tempDir(), 'stderr.txt');
    const status = execFileSync('sh', ['-c', `${MKT_SH} help exit-codes > /dev/full 2>"${errors}"; echo $?`]).toString().trim();
    expect(status).toBe('1');
    expect(fs.readFileSync(errors, 'utf8')).toMatch(/^error: cannot write to standard output: ENOSPC/);
  });

  it('`mkt --version` to a stdout that cannot be written is exit 1 with one line, not a stack trace', async () => {
    const errors = path.join(tempDir(), 'stderr.txt');
    const status = execFileSync('sh', ['-c', `${MKT_SH} --version > /dev/full 2>"${errors}"; echo $?`]).toString().trim();
    expect(status).toBe('1');
    expect(fs.readFileSync(errors, 'utf8')).toBe('error: cannot write to standard output: ENOSPC: no space left on device, write\n');
  });

  it('`mkt --version` into a pipe already closed is not an error', async () => {
    const child = spawn(...mkt(['--version']), { env: baseEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.destroy();
    const result = await collect(child, performance.now(), undefined, 20_000);
    expect(result).toMatchObject({ code: 0, stderr: '' });
  });

  it('`mkt --version` is answered before anything else loads: it needs no bundle', async () => {
    const copy = tempDir();
    fs.cpSync(path.join(ROOT, 'bin'), path.join(copy, 'bin'), { recursive: true });
    fs.mkdirSync(path.join(copy, 'dist', 'cli'), { recursive: true });
    fs.copyFileSync(path.join(ROOT, 'dist', 'cli', 'launch.cjs'), path.join(copy, 'dist', 'cli', 'launch.cjs'));
    fs.writeFileSync(path.join(copy, 'package.json'), '{"type": "module"}');
    const child = spawn(process.execPath, [path.join(copy, 'bin', 'mkt.cjs'), '--version'], { env: baseEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    const result = await collect(child, performance.now(), undefined, 20_000);
    expect(result).toMatchObject({ code: 0, stderr: '', stdout: `${JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version}\n` });
  });

  it('20 parallel `mkt token` runs leave a valid, private config file', async () => {
    const config = tempDir();
    const env = { MKT_CONFIG_DIR: config, MKT_BASE_URL: sandbox.url, MKT_CLIENT_ID: 'demo', MKT_CLIENT_SECRET: 'demo-secret', MKT_ORG: 'org_demo' };
    const runs = await Promise.all(Array.from({ length: 20 }, (_, i) => runBin(['token', '--profile', `p${i % 4}`], { env, timeoutMs: 60_000 })));
    expect(runs.map((run) => run.code)).toEqual(Array(20).fill(0));
    const file = path.join(config, 'config.json');
    const data = JSON.parse(fs.readFileSync(file, 'utf8'));
    // Every writer's profile is there: the lock keeps parallel read-modify-writes from losing any.
    expect(Object.keys(data.profiles).sort()).toEqual(['p0', 'p1', 'p2', 'p3']);
    for (const profile of Object.values(data.profiles) as Array<{ token: { access_token: string } }>) expect(profile.token.access_token).toMatch(/\S{20,}/);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(config)).toEqual(['config.json']);
  });

  it('keeps secrets out of every stream, and the token only in the config file', async () => {
    const config = tempDir();
    const apiKey = 'demo.demo-secret';
    const env = { MKT_CONFIG_DIR: config, MKT_BASE_URL: sandbox.url };
    const outputs: string[] = [];
    const record = async (args: string[], extra: Record<string, string> = {}, input?: string) => {
      const result = await runBin(args, { env: { ...env, ...extra }, input });
      outputs.push(result.stdout, result.stderr);
      return result;
    };
    expect((await record(['login', '--verbose', '--org', 'org_demo'], { MKT_API_KEY: apiKey })).code).toBe(0);
    expect((await record(['login', '--with-api-key', '--org', 'org_demo'], { MKT_DEBUG: '1' }, apiKey)).code).toBe(0);
    expect((await record(['quotes', 'EURUSD', '--verbose'])).code).toBe(0);
    expect((await record(['quotes', 'EURUSD', '--json'], { MKT_DEBUG: '1' })).code).toBe(0);
    expect((await record(['status'])).code).toBe(0);
    expect((await record(['status', '--json'], { MKT_DEBUG: '1' })).code).toBe(0);
    expect((await record(['config', 'list', '--all'])).code).toBe(0);
    expect((await record(['token', '--verbose', '--client-id', 'demo'], { MKT_CLIENT_SECRET: 'demo-secret' })).code).toBe(0);
    expect((await record(['login', '--org', 'org_demo'], { MKT_API_KEY: 'demo.wrong-secret-123', MKT_DEBUG: '1' })).code).toBe(4);
    expect((await record(['logout'])).code).toBe(0);
    const everything = outputs.join('\n');
    expect(everything).toContain('[redacted]');
    expect(everything).not.toContain('demo-secret');
    expect(everything).not.toContain('wrong-secret-123');
    // The last login's token was stored; logout removed the file's token after the fact, so check
    // a fresh one: it is in the config file and nowhere else.
    const again = await record(['login', '--org', 'org_demo', '--verbose'], { MKT_API_KEY: apiKey });
    expect(again.code).toBe(0);
    const token = JSON.parse(fs.readFileSync(path.join(config, 'config.json'), 'utf8')).profiles.default.token.access_token as string;
    expect((await record(['quotes', 'EURUSD', '--verbose'])).code).toBe(0);
    expect((await record(['status', '--json'])).code).toBe(0);
    expect(outputs.join('\n')).not.toContain(token);
  });

  it('mkt sandbox prints the base URL first, the demo credentials after, and stops cleanly on SIGTERM and SIGINT', async () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const own = await startSandboxProcess();
      expect(own.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(own.output()).toContain(`export MKT_BASE_URL=${own.url}`);
      expect(own.output()).toContain('MKT_API_KEY=demo.demo-secret mkt login --org org_demo');
      expect(await own.stop(signal)).toBe(0);
    }
  });

  it('npm run demo prints the quotes as a table and exits 0', async () => {
    const child = spawn(process.execPath, [path.join(ROOT, 'scripts/demo.js')], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', HOME: tempDir() } });
    const result = await collect(child, performance.now(), undefined, 30_000);
    expect(result.code).toBe(0);
    for (const symbol of ['EURUSD', 'USDJPY', 'AAPL', 'MSFT', 'SPY']) expect(result.stdout).toMatch(new RegExp(`│ ${symbol} +│ +\\d+\\.\\d+`));
    expect(result.stdout).toContain('Spread');
  });
});

describe('a real terminal', () => {
  /** `mkt login --org org_demo` at a prompt in tmux; its exit code lands in a file. */
  function loginInTerminal(name: string) {
    const config = tempDir();
    const done = path.join(config, 'exit');
    const command = `MKT_CONFIG_DIR=${config} MKT_BASE_URL=${sandbox.url} ${MKT_SH} login --org org_demo; echo $? > ${done}`;
    const session = startTmux(`${name}-${process.pid}`, `${command}; sleep 5`);
    const exitCode = async () => {
      await waitUntil(() => fs.existsSync(done) && fs.readFileSync(done, 'utf8').trim() !== '', 'mkt login to exit');
      return fs.readFileSync(done, 'utf8').trim();
    };
    return { config, session, exitCode };
  }

  it.runIf(hasTmux)('prompts for the API key without echoing it, and logs in', async () => {
    const { session, exitCode } = loginInTerminal('mkt-login');
    try {
      await waitUntil(() => session.screen().includes('API key'), 'the prompt');
      session.type('demo.demo-secret');
      await waitUntil(() => session.screen().includes('****'), 'the masked key');
      expect(session.screen()).not.toContain('demo-secret');
      session.press('Enter');
      expect(await exitCode()).toBe('0');
      expect(session.screen()).toContain('Logged in to');
    } finally {
      session.kill();
    }
  });

  it.runIf(hasTmux)('Ctrl-C at the prompt exits 130 and stores nothing', async () => {
    const { config, session, exitCode } = loginInTerminal('mkt-prompt-int');
    try {
      await waitUntil(() => session.screen().includes('API key'), 'the prompt');
      session.type('demo.de');
      session.press('C-c');
      expect(await exitCode()).toBe('130');
      expect(session.screen()).toContain('error: interrupted');
      expect(fs.existsSync(path.join(config, 'config.json'))).toBe(false);
    } finally {
      session.kill();
    }
  });
});
