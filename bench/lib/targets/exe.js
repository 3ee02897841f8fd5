// Target 6 (issue 20): the standalone executable, built here by scripts/build-exe.js (x64 only),
// against the floors on the Node inside it (the pinned Node 24 of scripts/exe/, run as plain node):
// `mkt-linux-x64 quotes EURUSD --json` vs floor-quotes.js and `mkt-linux-x64 --version` vs
// `node -e 0`, each at most 1.1x; its peak memory against the floor's; and what the embedded V8
// code cache is worth: the same quotes run of a build without it (--no-code-cache) minus the file.
import { join } from 'node:path';
import { checkQuotes, measured, safely } from '../measure.js';
import { rssRun, timeRun } from '../processes.js';
import { BENCH_DIR } from '../setup.js';

const QUOTES = { target: '6 executable', what: 'mkt-linux-x64 quotes EURUSD --json vs floor-quotes.js', kind: 'ratio', op: '<=', limit: 1.1, unit: 'ms' };
const VERSION = { target: '6 executable', what: 'mkt-linux-x64 --version vs node -e 0', kind: 'ratio', op: '<=', limit: 1.1, unit: 'ms' };
// Reported, with target 2's limit as a guard.
const MEMORY = { target: '6 executable', what: 'peak memory: mkt-linux-x64 quotes EURUSD --json vs floor-quotes.js', kind: 'ratio', op: '<=', limit: 1.3, unit: 'bytes' };
// Reported: the cache stays while it is worth anything at all.
const CODE_CACHE = { target: '6 executable', what: 'mkt-linux-x64 quotes EURUSD --json without the code cache minus with', kind: 'diff', op: '>=', limit: 0, unit: 'ms' };

export async function exe(ctx) {
  const rows = [];
  let built;
  const build = () => (built ??= { whole: ctx.buildExe([]), noCache: ctx.buildExe(['--no-code-cache']) });
  // The Node inside the executable, as a plain node: the floors run on the same version.
  const node = () => ({ label: `Node ${ctx.pinnedNode().version} (pinned, scripts/exe/)`, path: ctx.pinnedNode().path });
  const label = () => node().label;
  const quotes = (file, env) => ({ label: 'mkt-linux-x64 quotes EURUSD --json', file, args: ['quotes', 'EURUSD', '--json'], env, timeoutMs: 30_000, check: checkQuotes });
  const floor = (env) => ({ label: 'floor-quotes.js EURUSD', file: node().path, args: [join(BENCH_DIR, 'floor-quotes.js'), 'EURUSD'], env, timeoutMs: 30_000, check: checkQuotes });

  rows.push(await safely(ctx, QUOTES, { label: 'pinned Node 24' }, async () => {
    build();
    const env = await ctx.clientEnv();
    return measured(ctx, QUOTES, { label: label() }, [quotes(build().whole, env), floor(env)], timeRun, 20);
  }));
  rows.push(await safely(ctx, VERSION, { label: 'pinned Node 24' }, async () => {
    build();
    const env = ctx.env();
    const commands = [
      { label: 'mkt-linux-x64 --version', file: build().whole, args: ['--version'], env, timeoutMs: 30_000, check: (out) => {
        if (!/^\d+\.\d+\.\d+\n$/.test(out.toString('utf8'))) throw new Error(`mkt-linux-x64 --version printed ${JSON.stringify(out.toString('utf8'))}`);
      } },
      { label: 'node -e 0', file: node().path, args: ['-e', '0'], env, timeoutMs: 30_000 },
    ];
    return measured(ctx, VERSION, { label: label() }, commands, timeRun, 20);
  }));
  rows.push(await safely(ctx, MEMORY, { label: 'pinned Node 24' }, async () => {
    build();
    const env = await ctx.clientEnv();
    const method = ctx.rssMethod();
    // The preloaded probe is a node option, which the executable takes as its own argument.
    if (method.kind !== 'gnu-time') throw new Error('needs GNU time (/usr/bin/time) to weigh the executable');
    return measured(ctx, MEMORY, { label: label() }, [quotes(build().whole, env), floor(env)], (cmd) => rssRun(cmd, method), 10);
  }));
  rows.push(await safely(ctx, CODE_CACHE, { label: 'pinned Node 24' }, async () => {
    build();
    const env = await ctx.clientEnv();
    const commands = [{ ...quotes(build().noCache, env), label: 'without the code cache' }, { ...quotes(build().whole, env), label: 'with it' }];
    return measured(ctx, CODE_CACHE, { label: label() }, commands, timeRun, 20);
  }));
  return rows;
}
