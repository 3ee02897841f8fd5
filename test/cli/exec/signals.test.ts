// mkt interrupted while its --exec program runs, as a process: the built bin, real signals, and a
// real program (a shell script) that says which signal reached it and writes its pid and its
// background job's. The signal mkt got is passed on to the program's process group, mkt ends with
// exit 130 saying what became of the program, and nothing of the group is left (read from /proc).
// A program that ignores the signal is killed at a second one, without waiting out the grace
// period; the grace period itself, on an injected wait, is test/cli/exec/run-program.test.ts's and
// this file's last case's (in-process).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { InterruptSignal } from '../../../src/cli/deps.js';
import type { Quote } from '../../../src/api/index.js';
import { baseEnv, collect, mkt, type BinResult } from '../../helpers/bin.js';
import { runCli, tempDir } from '../../helpers/cli.js';
import { sendTheseQuotes, useServers, type FaultServer } from '../../helpers/fault-server.js';
import { eventually, groupMembers, hasProc, isAlive, killAll } from '../../helpers/processes.js';

const servers = useServers();
const cleanup: Array<() => void> = [];
afterEach(() => {
  for (const step of cleanup.splice(0).reverse()) step();
});

const TIMESTAMP = '2026-01-05T14:30:15.250Z';
const QUOTES: Quote[] = [{ symbol: 'EURUSD', bid: '1.08501', ask: '1.08511', mid: '1.08506', timestamp: TIMESTAMP }];
const WATCH = ['quotes', 'EURUSD', '--watch', '--until', 'EURUSD.bid > 1'];

interface Program {
  dir: string;
  file: string;
  /** The program's pid and its background job's, once it has written them. */
  pids: () => { program: number; job: number } | undefined;
  /** What its traps wrote. */
  log: () => string;
}

/**
 * `notify` in a directory of its own: `body` (its traps), then a background job, `ready` on stdout,
 * its pids written (the sign that it is ready), and `end` (a wait for the job). Whatever the test's outcome, nothing of it is left.
 */
function program(body: string, job = 'sleep 1000 > /dev/null 2>&1 &', end = 'wait'): Program {
  const dir = tempDir('mkt-exec-signals-');
  const file = path.join(dir, 'notify');
  const pidsFile = path.join(dir, 'pids');
  const logFile = path.join(dir, 'log');
  fs.writeFileSync(file, `#!/bin/sh\nLOG="${logFile}"\n${body}\n${job}\necho ready\necho "$$ $!" > "${pidsFile}.tmp" && mv "${pidsFile}.tmp" "${pidsFile}"\n${end}\n`, { mode: 0o755 });
  const pids = () => {
    if (!fs.existsSync(pidsFile)) return undefined;
    const [first = 0, second = 0] = fs.readFileSync(pidsFile, 'utf8').trim().split(' ').map(Number);
    return { program: first, job: second };
  };
  cleanup.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  cleanup.push(() => {
    const known = pids();
    if (known !== undefined) killAll([known.program, known.job].filter((pid) => pid > 0));
  });
  return { dir, file, pids, log: () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '') };
}

/** Each of the four signals, trapped: written to LOG, then exit 0. */
const TRAPS = ['INT', 'TERM', 'HUP', 'QUIT'].map((name) => `trap 'echo ${name} >> "$LOG"; exit 0' ${name}`).join('\n');

async function quotesServer(): Promise<FaultServer> {
  return servers.start((req, res) => sendTheseQuotes(req, res, QUOTES));
}

/** The built mkt watching until the condition holds, then running `notify`; resolves once the program has written its pids. */
async function startWatch(server: FaultServer, notify: Program, extra: string[] = []): Promise<{ child: ChildProcess; done: Promise<BinResult>; program: number; job: number }> {
  const child = spawn(...mkt([...WATCH, ...extra, '--exec', notify.file]), {
    cwd: notify.dir, env: baseEnv({ MKT_BASE_URL: server.url, MKT_TOKEN: 'scripted-token', MKT_ORG: 'org_demo', MKT_CONFIG_DIR: path.join(notify.dir, 'config') }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  cleanup.push(() => void child.kill('SIGKILL'));
  const done = collect(child, performance.now(), undefined, 20_000);
  let exited = false;
  void done.finally(() => (exited = true));
  await eventually(() => notify.pids() !== undefined || exited, 'the program writing its pids');
  const pids = notify.pids();
  if (pids === undefined) throw new Error(`mkt ended before the program ran: ${JSON.stringify(await done)}`);
  return { child, done, ...pids };
}

/** Nothing of the program's group, nor the program, is left. */
async function expectNothingLeft(program: number, job: number): Promise<void> {
  await eventually(() => groupMembers(program).length === 0 && !isAlive(job), `the end of process group ${program}`);
}

describe.runIf(process.platform !== 'win32' && hasProc)('a signal to mkt while its --exec program runs (issue 36 item 3)', () => {
  it.each(['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'] as const)('%s is passed on as it is; mkt exits 130 saying so, and nothing of the group is left', async (signal) => {
    const server = await quotesServer();
    const notify = program(TRAPS);
    const { child, done, program: pid, job } = await startWatch(server, notify);
    child.kill(signal);
    const result = await done;
    expect(result.stderr).toBe(`error: interrupted by ${signal}: --exec ${notify.file}, passed the ${signal}, exited with status 0\n`);
    expect(result.code).toBe(130);
    expect(result.stdout).toMatch(/^\{"symbol":"EURUSD"[^\n]*\}\nready\n$/);
    // Only the signal mkt got: SIGINT stays SIGINT, where it once became SIGTERM.
    expect(notify.log()).toBe(`${signal.slice(3)}\n`);
    await expectNothingLeft(pid, job);
  });

  it('a program that ignores SIGTERM and holds a job: a second SIGTERM kills its group at once (it is not left under PID 1), exit 130', async () => {
    const server = await quotesServer();
    // It says when the SIGTERM passed on reached it, and goes on; its job ignores SIGTERM too.
    const notify = program(`trap 'echo TERM >> "$LOG"' TERM`, `(trap '' TERM; exec sleep 1000) > /dev/null 2>&1 &`, 'while :; do sleep 1; done');
    const { child, done, program: pid, job } = await startWatch(server, notify);
    child.kill('SIGTERM');
    await eventually(() => notify.log().includes('TERM'), 'the SIGTERM passed on reaching the program');
    child.kill('SIGTERM');
    const result = await done;
    // After what the program's own shell said of its `sleep 1` ended by the SIGTERM ("Terminated").
    expect(result.stderr.split('\n').slice(-2)).toEqual([`error: interrupted by SIGTERM, then SIGTERM: mkt killed --exec ${notify.file} and its process group (SIGKILL) at the second signal`, '']);
    expect(result.code).toBe(130);
    await expectNothingLeft(pid, job);
  });

  it('under --format ndjson, the report is the JSON error object: INTERRUPTED, exit_code 130, what became of the program', async () => {
    const server = await quotesServer();
    const notify = program(TRAPS);
    const { child, done, program: pid, job } = await startWatch(server, notify, ['--format', 'ndjson']);
    child.kill('SIGINT');
    const result = await done;
    expect(result.code).toBe(130);
    expect(JSON.parse(result.stderr)).toEqual({
      error: {
        code: 'INTERRUPTED', message: `interrupted by SIGINT: --exec ${notify.file}, passed the SIGINT, exited with status 0`, status: null, exit_code: 130, hint: null, request_id: null,
      },
    });
    await expectNothingLeft(pid, job);
  });

  it('in-process, on the run\'s own wait: a program that ignores SIGTERM is killed with its group when the grace period (5 s, not sat through) runs out', async () => {
    const server = await quotesServer();
    const notify = program(`trap '' TERM`, 'sleep 1000 &');
    const stop = new AbortController();
    const sleeps: number[] = [];
    const run = runCli([...WATCH, '--exec', notify.file], {
      env: { PATH: process.env.PATH, MKT_BASE_URL: server.url, MKT_TOKEN: 'scripted-token', MKT_ORG: 'org_demo' },
      signal: stop.signal,
      // The watch's poll needs no wait; the grace period's runs out at once.
      sleep: async (ms) => void sleeps.push(ms),
    });
    await eventually(() => notify.pids() !== undefined, 'the program writing its pids');
    stop.abort(new InterruptSignal('SIGTERM'));
    const result = await run;
    expect(result.stderr).toBe(`error: interrupted by SIGTERM: --exec ${notify.file} did not end within 5s of the SIGTERM passed on to it, so mkt killed its process group (SIGKILL)\n`
      + 'hint: a program has 5s to end once mkt passes a signal on; one that must outlive mkt can leave its process group (setsid)\n');
    expect(result.code).toBe(130);
    expect(sleeps).toEqual([5000]);
    const { program: pid, job } = notify.pids()!;
    await expectNothingLeft(pid, job);
  });
});
