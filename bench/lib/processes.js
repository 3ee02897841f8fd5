// Child processes for the benchmark: servers that must never outlive the run, and the timed runs
// of mkt and the floor scripts. Every wait here has a time limit.
/* global fetch */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const live = new Set();

/** Kills every server still running; safe to call more than once and from an 'exit' handler. */
function killAll() {
  for (const child of live) {
    try {
      child.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
  live.clear();
}

let cleanupInstalled = false;
/** Servers die with the run: on a normal exit, an uncaught error, Ctrl-C or SIGTERM. */
export function installCleanup(extra = () => {}) {
  if (cleanupInstalled) return;
  cleanupInstalled = true;
  process.on('exit', () => {
    killAll();
    extra();
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.once(signal, () => {
      killAll();
      extra();
      // Die of the same signal, so the shell sees why (the default action, now that we are done).
      process.kill(process.pid, signal);
    });
  }
}

/**
 * Starts a server process whose first stdout line is its base URL (mkt sandbox, fixed-server.js),
 * or, with `url` given, one that says nothing useful and is polled until it answers (Prism).
 */
export async function startServer({ name, file, args, env, url, readyPath = '/', timeoutMs = 30_000 }) {
  const child = spawn(file, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(child);
  let output = '';
  const keep = (chunk) => {
    output = (output + chunk).slice(-4000);
  };
  child.stderr.setEncoding('utf8').on('data', keep);
  child.stdout.setEncoding('utf8');
  const exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
    child.once('error', (error) => resolve({ error }));
  });
  exited.then(() => live.delete(child));
  const how = ({ code, signal, error }) => (error ? `could not be run: ${error.message}` : `exited with ${signal ?? `code ${code}`}`);

  const failed = (why) => {
    child.kill('SIGKILL');
    return new Error(`${name} did not start: ${why}${output.trim() ? `\n${output.trim().split('\n').slice(-8).join('\n')}` : ''}`);
  };

  let base = url;
  const deadline = Date.now() + timeoutMs;
  if (base === undefined) {
    base = await new Promise((resolve, reject) => {
      let buffer = '';
      const timer = setTimeout(() => reject(failed(`no URL on stdout within ${timeoutMs} ms`)), timeoutMs);
      let settled = false;
      const onData = (chunk) => {
        buffer += chunk;
        const newline = buffer.indexOf('\n');
        if (newline === -1) return;
        settled = true;
        clearTimeout(timer);
        child.stdout.off('data', onData);
        child.stdout.on('data', keep);
        resolve(buffer.slice(0, newline).trim());
      };
      child.stdout.on('data', onData);
      exited.then((result) => {
        if (settled) return;
        clearTimeout(timer);
        reject(failed(how(result)));
      });
    });
  } else {
    child.stdout.on('data', keep);
  }

  // Ready means answering HTTP, whatever the status (Prism prints its banner before it listens).
  let exitedEarly;
  exited.then((result) => {
    exitedEarly = result;
  });
  for (;;) {
    if (exitedEarly) throw failed(how(exitedEarly));
    try {
      const response = await fetch(new URL(readyPath, base), { signal: AbortSignal.timeout(2000) });
      await response.arrayBuffer();
      break;
    } catch (error) {
      if (Date.now() > deadline) throw failed(`no HTTP answer at ${base} within ${timeoutMs} ms (${error.message})`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  return {
    url: base,
    pid: child.pid,
    /** SIGTERM, then SIGKILL if it has not exited within 3 s. */
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(timer);
    },
  };
}

function describe(cmd) {
  return [cmd.file, ...cmd.args].map((part) => (/\s/.test(part) ? JSON.stringify(part) : part)).join(' ');
}

function check(cmd, result, extra = '') {
  if (result.error) throw new Error(`${cmd.label}: ${result.error.code === 'ETIMEDOUT' ? `timed out after ${cmd.timeoutMs} ms` : result.error.message}\n  ${describe(cmd)}`);
  if (result.status !== 0) {
    const stderr = result.stderr.toString('utf8').trim().split('\n').slice(-6).join('\n  ');
    throw new Error(`${cmd.label}: exited with ${result.signal ?? `code ${result.status}`}${extra}\n  ${describe(cmd)}\n  ${stderr}`);
  }
}

const spawnOptions = (cmd) => ({
  env: cmd.env,
  stdio: ['ignore', 'pipe', 'pipe'],
  maxBuffer: 1024 * 1024 * 1024,
  timeout: cmd.timeoutMs,
  killSignal: 'SIGKILL',
});

/**
 * Wall time of one run, in ms: from just before the spawn to the child's exit with its stdout
 * drained into a pipe. spawnSync keeps the bench process out of the way while the child runs.
 */
export function timeRun(cmd) {
  const started = process.hrtime.bigint();
  const result = spawnSync(cmd.file, cmd.args, spawnOptions(cmd));
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  check(cmd, result);
  return { value: ms, stdout: result.stdout };
}

/**
 * How peak memory is measured: GNU time's %M, which is the kernel's ru_maxrss of the child as
 * reported by wait4() when it exits (Linux: KiB), or, without GNU time, the child's own
 * process.resourceUsage().maxRSS written at its 'exit' by a preloaded module.
 */
export function detectRssMethod(tmpDir) {
  const out = join(tmpDir, 'rss-probe.txt');
  const probe = spawnSync('/usr/bin/time', ['-f', '%M', '-o', out, process.execPath, '-e', '0'], { stdio: 'ignore', timeout: 10_000 });
  if (!probe.error && probe.status === 0) {
    try {
      const kib = Number(readFileSync(out, 'utf8').trim().split('\n').pop());
      if (Number.isInteger(kib) && kib > 1000) return { kind: 'gnu-time', tmpDir, describe: 'GNU time -f %M (kernel ru_maxrss of the child, via wait4)' };
    } catch {
      // fall through
    }
  }
  return { kind: 'preload', tmpDir, describe: 'process.resourceUsage().maxRSS at exit, via a preloaded module (no GNU time here)' };
}

let rssCounter = 0;
/** Peak resident memory of one run, in bytes (see detectRssMethod). Only for node commands. */
export function rssRun(cmd, method) {
  const out = join(method.tmpDir, `rss-${process.pid}-${rssCounter++}.txt`);
  let result;
  if (method.kind === 'gnu-time') {
    result = spawnSync('/usr/bin/time', ['-f', '%M', '-o', out, cmd.file, ...cmd.args], spawnOptions(cmd));
  } else {
    const preload = new URL('./maxrss-preload.js', import.meta.url).href;
    result = spawnSync(cmd.file, ['--import', preload, ...cmd.args], { ...spawnOptions(cmd), env: { ...cmd.env, MKT_BENCH_MAXRSS_FILE: out } });
  }
  check(cmd, result, ' (under the peak-memory probe)');
  const kib = Number(readFileSync(out, 'utf8').trim().split('\n').pop());
  rmSync(out, { force: true });
  if (!Number.isFinite(kib) || kib <= 0) throw new Error(`${cmd.label}: could not read its peak memory`);
  return { value: kib * 1024, stdout: result.stdout };
}
