// Target 3 (issue 11; 2.0x since issue 20, docs/benchmarks.md says why): 10,000 symbols from a
// file against the sandbox's synthetic catalogue, on Node 24. `mkt quotes --symbols-file 10k.txt
// --json` against floor-batched.js (same batches of 100, same 4 in flight), then the cost of the
// table: `--format table` minus `--json`, alternated in one series.
import { join } from 'node:path';
import { measured, safely } from '../measure.js';
import { timeRun } from '../processes.js';
import { blockedRow } from '../rows.js';
import { BENCH_DIR } from '../setup.js';

const COUNT = 10_000;

const JSON_VS_FLOOR = { target: '3 10k symbols', what: 'mkt quotes --symbols-file 10k.txt --json vs floor-batched.js', kind: 'ratio', op: '<=', limit: 2.0, unit: 'ms' };
const TABLE = { target: '3 10k symbols', what: 'mkt quotes ... --format table minus ... --json', kind: 'diff', op: '<=', limit: 150, unit: 'ms' };

function checkJson(stdout) {
  const body = JSON.parse(stdout.toString('utf8'));
  if (body.data?.length !== COUNT) throw new Error(`expected ${COUNT} quotes, got ${body.data?.length}`);
}

function checkTable(stdout) {
  const lines = stdout.toString('utf8').split('\n').filter((line) => line.includes('SYN')).length;
  if (lines !== COUNT) throw new Error(`expected ${COUNT} table rows, got ${lines}`);
}

export async function tenK(ctx) {
  const node = ctx.nodes.find((n) => n.major === 24) ?? { label: 'node 24', blocked: 'no Node 24 (--node24 off?)' };
  if (node.blocked) return [JSON_VS_FLOOR, TABLE].map((spec) => blockedRow({ ...spec, node: node.label }, node.blocked));
  const rows = [];
  let env;
  let file;
  try {
    env = await ctx.clientEnv();
    file = ctx.symbolsFile(COUNT);
  } catch (error) {
    return [JSON_VS_FLOOR, TABLE].map((spec) => blockedRow({ ...spec, node: node.label }, error.message.split('\n')[0], 'error'));
  }
  const mktJson = { label: 'mkt quotes --symbols-file 10k.txt --json', file: node.path, args: [ctx.mkt, 'quotes', '--symbols-file', file, '--json'], env, timeoutMs: 120_000, check: checkJson };
  const floor = { label: 'floor-batched.js 10k.txt', file: node.path, args: [join(BENCH_DIR, 'floor-batched.js'), file], env, timeoutMs: 120_000, check: checkJson };
  const mktTable = { label: 'mkt quotes --symbols-file 10k.txt --format table', file: node.path, args: [ctx.mkt, 'quotes', '--symbols-file', file, '--format', 'table'], env, timeoutMs: 120_000, check: checkTable };

  // 30: a 10,000-quote run shares the machine with the sandbox, and its median moves more.
  for (const [spec, commands] of [[JSON_VS_FLOOR, [mktJson, floor]], [TABLE, [mktTable, mktJson]]]) {
    rows.push(await safely(ctx, spec, node, () => measured(ctx, spec, node, commands, timeRun, 30)));
  }
  return rows;
}
