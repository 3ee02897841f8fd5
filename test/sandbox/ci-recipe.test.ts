// docs/ci.md's shell steps, run as written with bash: the recipe, its two failures (a sandbox that
// exits at start, one that never gets ready) ending within bounded time, the GitHub Actions job's
// `run:` steps in order, with $GITHUB_ENV and $GITHUB_PATH as the runner handles them, and the price
// checks (a spread and a band) after the recipe and as a step of the job, passing and, with a band
// the prices leave, failing with exit 8. `mkt` on PATH is the built bin; each run has its own
// directory and home, and stops what it started.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { MKT_SH } from '../helpers/bin.js';
import { tempDir } from '../helpers/cli.js';

const DOC = fs.readFileSync(new URL('../../docs/ci.md', import.meta.url), 'utf8');

/** The first fenced block of `language` after `heading`. */
function block(heading: string, language: string): string {
  const section = DOC.slice(DOC.indexOf(`\n${heading}\n`));
  const match = new RegExp('```' + language + '\\n([\\s\\S]*?)\\n```').exec(section);
  if (match === null) throw new Error(`docs/ci.md has no ${language} block under ${heading}`);
  return match[1]!;
}

const cleanup: Array<() => void> = [];
afterEach(() => {
  for (const step of cleanup.splice(0).reverse()) step();
});

interface Workspace {
  dir: string;
  env: Record<string, string>;
}

/** A directory to run in, a home of its own, and `mkt` on PATH: the built bin, optionally with `extra` arguments or replaced by `command`. */
function workspace(options: { extra?: string; command?: string } = {}): Workspace {
  const dir = tempDir('mkt-ci-recipe-');
  const bin = path.join(dir, 'bin');
  fs.mkdirSync(bin);
  // `mkt sandbox` notes its PID in sandbox.pid, for the test to see that it stopped.
  const command = options.command ?? `[ "$1" = sandbox ] && echo $$ > sandbox.pid\nexec ${MKT_SH} "$@" ${options.extra ?? ''}`;
  fs.writeFileSync(path.join(bin, 'mkt'), `#!/bin/sh\n${command}\n`, { mode: 0o755 });
  cleanup.push(() => {
    // Whatever a run left running, then the directory.
    const pidFile = path.join(dir, 'sandbox.pid');
    const pid = fs.existsSync(pidFile) ? fs.readFileSync(pidFile, 'utf8').trim() : undefined;
    if (pid !== undefined && pid !== '') {
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const env = {
    PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    HOME: dir,
    XDG_CONFIG_HOME: path.join(dir, 'config'),
    LANG: 'C.UTF-8',
    TMPDIR: process.env.TMPDIR ?? '/tmp',
  };
  return { dir, env };
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `script` in bash as GitHub runs a step (`bash --noprofile --norc -eo pipefail`); killed after `timeoutMs`, so a hang fails the test. */
function bash(script: string, cwd: string, env: Record<string, string>, timeoutMs = 20_000): Promise<Run> {
  const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    // 'exit', not 'close': a sandbox left in the background keeps the pipes open.
    child.on('exit', (code) => {
      clearTimeout(timer);
      setImmediate(() => resolve({ code, stdout, stderr }));
    });
  });
}

async function gone(pid: number, timeoutMs = 5000): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      process.kill(pid, 0);
    } catch {
      return true;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

describe('docs/ci.md: the recipe', () => {
  const recipe = block('## The recipe', 'bash');

  it('starts the sandbox, waits for it, runs the example commands against it, and stops it', async () => {
    const { dir, env } = workspace();
    const run = await bash(recipe, dir, env);
    expect(run.stderr).not.toContain('mkt sandbox');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/EURUSD/);
    expect(run.stdout).toMatch(/AAPL/);
    // The trap stopped it: it logged its requests, said it was stopping, and removed its ready file.
    const log = fs.readFileSync(path.join(dir, 'sandbox.log'), 'utf8');
    expect(log).toMatch(/ POST \/auth\/cli-login 200 demo /);
    expect(log).toMatch(/ GET \/v1\/market\/quotes 200 demo /);
    expect(await gone(Number(fs.readFileSync(path.join(dir, 'sandbox.pid'), 'utf8')))).toBe(true);
    expect(fs.existsSync(path.join(dir, 'sandbox.env'))).toBe(false);
  });

  it('ends at once, with the sandbox\'s error, when the sandbox exits before it is ready', async () => {
    const { dir, env } = workspace({ extra: '--clients /nonexistent/clients.json' });
    const run = await bash(recipe, dir, env);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('mkt sandbox exited before it was ready');
    expect(run.stderr).toContain('cannot read clients file /nonexistent/clients.json');
  });

  it('gives up after SANDBOX_WAIT_SECONDS when the sandbox never gets ready, and stops it', async () => {
    const { dir, env } = workspace({ command: 'echo $$ > never.pid; exec sleep 60' });
    const run = await bash(recipe, dir, { ...env, SANDBOX_WAIT_SECONDS: '1' });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('mkt sandbox was not ready within 1 s');
    expect(await gone(Number(fs.readFileSync(path.join(dir, 'never.pid'), 'utf8')))).toBe(true);
  });
});

interface Step { name?: string; uses?: string; run?: string; if?: string }

/** What only GitHub's runner or the reader's own project can run. */
const NOT_RUN_HERE = new Set(['Install dependencies', 'Your tests']);

/**
 * The `run:` steps in order, as the runner runs them: each in bash, skipped or run by its `if:`,
 * with the variables earlier steps added to $GITHUB_ENV and the directories to $GITHUB_PATH.
 */
async function runSteps(steps: readonly Step[], { dir, env }: Workspace): Promise<{ ran: string[]; runs: Map<string, Run>; pid: number | undefined }> {
  const githubEnv = path.join(dir, 'github.env');
  const githubPath = path.join(dir, 'github.path');
  fs.writeFileSync(githubEnv, '');
  fs.writeFileSync(githubPath, '');
  let failed = false;
  const ran: string[] = [];
  const runs = new Map<string, Run>();
  let pid: number | undefined;
  for (const step of steps) {
    if (step.run === undefined || NOT_RUN_HERE.has(step.name ?? '')) continue;
    const condition = step.if ?? 'success()';
    if (condition === 'success()' ? failed : condition === 'failure()' ? !failed : condition !== 'always()') continue;
    const added = Object.fromEntries(fs.readFileSync(githubEnv, 'utf8').split('\n').filter(Boolean).map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));
    const paths = fs.readFileSync(githubPath, 'utf8').split('\n').filter(Boolean).reverse();
    const run = await bash(step.run, dir, { ...env, ...added, GITHUB_ENV: githubEnv, GITHUB_PATH: githubPath, PATH: [...paths, env.PATH].join(':') });
    ran.push(`${step.name}: ${run.code}`);
    runs.set(step.name ?? '', run);
    if (run.code !== 0) failed = true;
    pid ??= added.MKT_SANDBOX_PID === undefined ? undefined : Number(added.MKT_SANDBOX_PID);
  }
  return { ran, runs, pid };
}

describe('docs/ci.md: the GitHub Actions job', () => {
  const workflow = YAML.parse(block('## GitHub Actions', 'yaml')) as { jobs: { test: { 'timeout-minutes': number; steps: Step[] } } };
  const { steps } = workflow.jobs.test;

  it('is bounded in time, and stops the sandbox and shows its log whatever failed', () => {
    expect(workflow.jobs.test['timeout-minutes']).toBeGreaterThan(0);
    expect(steps.find((step) => step.name === 'Stop the sandbox')?.if).toBe('always()');
    expect(steps.find((step) => step.name === 'Show the sandbox\'s log')?.if).toBe('failure()');
  });

  it('runs its steps: the sandbox starts, answers, and stops', async () => {
    const { ran, runs, pid } = await runSteps(steps, workspace());
    expect(ran).toEqual([
      'Put the project\'s tools on PATH: 0',
      'Start the sandbox: 0',
      'Check the sandbox answers: 0',
      'Stop the sandbox: 0',
    ]);
    const answers = runs.get('Check the sandbox answers')!;
    expect(answers.stdout).toContain('{"status":"ok"}');
    expect(answers.stdout).toMatch(/EURUSD[\s\S]*AAPL/);
    expect(pid).toBeGreaterThan(0);
    expect(await gone(pid!)).toBe(true);
  });
});

describe('docs/ci.md: checking prices, a spread and a price band', () => {
  const HEADING = '## Checking prices: a spread and a price band';
  const checks = block(HEADING, 'bash');
  const recipe = block('## The recipe', 'bash');
  const jobSteps = (YAML.parse(block('## GitHub Actions', 'yaml')) as { jobs: { test: { steps: Step[] } } }).jobs.test.steps;
  const checkStep = (YAML.parse(block(HEADING, 'yaml')) as Step[])[0]!;
  /** The band with a bound the sandbox's AAPL (near 227) is never under. */
  const leftBand = (text: string) => {
    const changed = text.replace("'AAPL.ask <= 400'", "'AAPL.ask <= 100'");
    expect(changed).not.toBe(text);
    return changed;
  };
  /** AAPL's ask as mkt wrote it to quotes.tsv. */
  const aaplAsk = (dir: string) => {
    const [header, ...rows] = fs.readFileSync(path.join(dir, 'quotes.tsv'), 'utf8').trim().split('\n').map((line) => line.split('\t'));
    return rows.find((row) => row[0] === 'AAPL')![header!.indexOf('ask')]!;
  };

  it('after the recipe: the checks hold, exit 0', async () => {
    const { dir, env } = workspace();
    const run = await bash(`${recipe}\n${checks}`, dir, env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('prices within bounds');
    expect(aaplAsk(dir)).toMatch(/^\d+\.\d+$/);
    expect(await gone(Number(fs.readFileSync(path.join(dir, 'sandbox.pid'), 'utf8')))).toBe(true);
  });

  it('a band the prices leave: the script ends with exit 8, the failed check named with the price written', async () => {
    const { dir, env } = workspace();
    const run = await bash(`${recipe}\n${leftBand(checks)}`, dir, env);
    expect(run.code).toBe(8);
    expect(run.stderr).toContain(`check failed: AAPL.ask is ${aaplAsk(dir)}, not <= 100\n`);
    expect(run.stderr).toContain('error: 1 of 5 checks failed\n');
    expect(run.stderr).toContain('a price check failed (the lines above say which)');
    expect(await gone(Number(fs.readFileSync(path.join(dir, 'sandbox.pid'), 'utf8')))).toBe(true);
  });

  it('as a step of the GitHub Actions job: the same checks as the script\'s', () => {
    const flags = (text: string) => [...text.matchAll(/--check '([^']*)'/g)].map((match) => match[1]);
    expect(checkStep.name).toBe('Check the prices');
    expect(flags(checkStep.run!)).toEqual(flags(checks));
    expect(flags(checks)).toHaveLength(5);
  });

  it('as a step after "Start the sandbox", with a band the prices leave: the step fails with exit 8, the sandbox is stopped and its log shown', async () => {
    const at = jobSteps.findIndex((step) => step.name === 'Check the sandbox answers');
    const steps = [...jobSteps.slice(0, at + 1), { ...checkStep, run: leftBand(checkStep.run!) }, ...jobSteps.slice(at + 1)];
    const { ran, runs, pid } = await runSteps(steps, workspace());
    expect(ran).toEqual([
      'Put the project\'s tools on PATH: 0',
      'Start the sandbox: 0',
      'Check the sandbox answers: 0',
      'Check the prices: 8',
      'Stop the sandbox: 0',
      'Show the sandbox\'s log: 0',
    ]);
    expect(runs.get('Check the prices')!.stderr).toMatch(/^check failed: AAPL\.ask is \d+\.\d+, not <= 100\n/m);
    expect(await gone(pid!)).toBe(true);
  });
});
