// Targets 1 and 2 (issue 11): `mkt quotes EURUSD --json` against the running sandbox, wall time and
// peak memory, each against floor-quotes.js; `mkt --version` against `node -e 0`. On every Node
// binary found (this one, 22 and 24).
import { join } from 'node:path';
import { checkQuotes, measured, safely } from '../measure.js';
import { rssRun, timeRun } from '../processes.js';
import { BENCH_DIR } from '../setup.js';


function quotesCommands(ctx, node, env) {
  return [
    { label: 'mkt quotes EURUSD --json', file: node.path, args: [ctx.mkt, 'quotes', 'EURUSD', '--json'], env, timeoutMs: 30_000, check: checkQuotes },
    { label: 'floor-quotes.js EURUSD', file: node.path, args: [join(BENCH_DIR, 'floor-quotes.js'), 'EURUSD'], env, timeoutMs: 30_000, check: checkQuotes },
  ];
}

// Node 20 has no compile cache and is no longer the line mkt is tuned for (issue 11): a looser limit.
const QUOTES = { target: '1 wall time', what: 'mkt quotes EURUSD --json vs floor-quotes.js', kind: 'ratio', op: '<=', limit: 1.2, unit: 'ms' };
const quotesSpec = (node) => (node.major < 22 ? { ...QUOTES, limit: 1.7 } : QUOTES);
const VERSION = { target: '1 wall time', what: 'mkt --version vs node -e 0', kind: 'ratio', op: '<=', limit: 1.3, unit: 'ms' };
const MEMORY = { target: '2 peak memory', what: 'mkt quotes EURUSD --json vs floor-quotes.js', kind: 'ratio', op: '<=', limit: 1.3, unit: 'bytes' };

export async function startup(ctx) {
  const rows = [];
  for (const node of ctx.nodes) {
    const spec = quotesSpec(node);
    rows.push(await safely(ctx, spec, node, async () => {
      const env = await ctx.clientEnv();
      return measured(ctx, spec, node, quotesCommands(ctx, node, env), timeRun, 20);
    }));
    rows.push(await safely(ctx, VERSION, node, async () => {
      const env = ctx.env();
      const commands = [
        { label: 'mkt --version', file: node.path, args: [ctx.mkt, '--version'], env, timeoutMs: 30_000, check: (out) => {
          if (!/\d+\.\d+\.\d+/.test(out.toString('utf8'))) throw new Error(`mkt --version printed ${JSON.stringify(out.toString('utf8'))}`);
        } },
        { label: 'node -e 0', file: node.path, args: ['-e', '0'], env, timeoutMs: 30_000 },
      ];
      return measured(ctx, VERSION, node, commands, timeRun, 20);
    }));
  }
  return rows;
}

export async function memory(ctx) {
  const rows = [];
  for (const node of ctx.nodes) {
    rows.push(await safely(ctx, MEMORY, node, async () => {
      const env = await ctx.clientEnv();
      const method = ctx.rssMethod();
      return measured(ctx, MEMORY, node, quotesCommands(ctx, node, env), (cmd) => rssRun(cmd, method), 10);
    }));
  }
  return rows;
}
