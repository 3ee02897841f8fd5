// One SIGINT, one outcome: a login interrupted anywhere around its end either stored its token and
// says so (exit 0, "Logged in") or stored nothing and exits 130; never both, never a death by the
// signal after the token was written. Real processes, the signal sent at a sweep of moments after the
// sandbox sent the token.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, collect, type BinResult, mkt } from '../helpers/bin.js';
import { tempDir } from '../helpers/cli.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sandbox: TestSandbox;
/** Called when the sandbox has sent the answer to a login. */
let onAnswered: () => void = () => {};
beforeAll(async () => {
  sandbox = await startTestSandbox();
  sandbox.sandbox.server.on('request', (req, res) => {
    if (req.url?.startsWith('/auth/cli-login')) res.once('finish', () => onAnswered());
  });
});
afterAll(() => sandbox.close());

interface Login {
  run: BinResult;
  dir: string;
  /** From the start to the sandbox's answer. */
  answeredAfterMs: number;
}

/** `mkt login`, with SIGINT sent that long after the start or after the sandbox's answer (or never). */
async function login(signal: { afterStartMs: number } | { afterAnswerMs: number } | undefined): Promise<Login> {
  const dir = tempDir();
  const started = performance.now();
  const child = spawn(...mkt(['login', '--org', 'org_demo']), {
    env: baseEnv({ MKT_CONFIG_DIR: dir, MKT_BASE_URL: sandbox.url, MKT_API_KEY: 'demo.demo-secret' }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const timers: NodeJS.Timeout[] = [];
  const interrupt = (ms: number) => timers.push(setTimeout(() => child.kill('SIGINT'), ms));
  let answeredAfterMs = NaN;
  onAnswered = () => {
    answeredAfterMs = performance.now() - started;
    if (signal && 'afterAnswerMs' in signal) interrupt(signal.afterAnswerMs);
  };
  if (signal && 'afterStartMs' in signal) interrupt(signal.afterStartMs);
  try {
    return { run: await collect(child, started, undefined, 20_000), dir, answeredAfterMs };
  } finally {
    onAnswered = () => {};
    timers.forEach(clearTimeout);
  }
}

/** 'stored', 'interrupted', or what else happened. */
function outcomeOf({ run, dir }: Login): string {
  const file = path.join(dir, 'config.json');
  const token = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')).profiles?.default?.token : undefined;
  const said = run.stderr.includes('Logged in to');
  const leftovers = fs.readdirSync(dir).filter((name) => name !== 'config.json');
  if (leftovers.length > 0) return `left ${leftovers.join(', ')}`;
  if (run.code === 0 && run.signal === null && said && typeof token?.access_token === 'string') return 'stored';
  // A signal before mkt's handler is installed kills the process: the shell sees 130 either way.
  if ((run.code === 130 || run.signal === 'SIGINT') && !said && token === undefined) return 'interrupted';
  return `exit ${run.code}, signal ${run.signal}, ${said ? 'said "Logged in"' : 'said nothing of a login'}, token ${token ? 'stored' : 'not stored'}`;
}

describe('SIGINT around the end of a login', () => {
  it('has one outcome per signal: stored with exit 0, or nothing stored with exit 130', async () => {
    // Two logins without a signal: the second (its code cache written) says when the answer comes.
    const plain = [await login(undefined), await login(undefined)];
    expect(plain.map(outcomeOf)).toEqual(['stored', 'stored']);
    const answer = Math.min(...plain.map((run) => run.answeredAfterMs));
    // Three early in the start-up (5%, 15% and 25% of the time to the answer): before the answer
    // even if these logins run much faster than the two above did on a busy machine. Then from 40%
    // up to the answer, in 12 steps; then every millisecond for 40 ms after the answer, while the
    // token is stored and the process ends.
    const signals = [
      ...[0.05, 0.15, 0.25].map((share) => ({ afterStartMs: Math.round(answer * share) })),
      ...Array.from({ length: 12 }, (_, i) => ({ afterStartMs: Math.round(answer * (0.4 + i / 20)) })),
      ...Array.from({ length: 41 }, (_, i) => ({ afterAnswerMs: i })),
    ];
    const outcomes: Record<string, number> = {};
    for (const signal of signals) {
      const outcome = outcomeOf(await login(signal));
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    }
    const { stored = 0, interrupted = 0, ...others } = outcomes;
    expect(others, `of ${signals.length} signals: ${JSON.stringify(outcomes)}`).toEqual({});
    expect(stored + interrupted).toBe(signals.length);
    expect(interrupted, `signals before the answer interrupted nothing, the sweep missed (answer after ${Math.round(answer)} ms): ${JSON.stringify(outcomes)}`).toBeGreaterThan(0);
  }, 120_000);
});
