// Target 7 (issue 27): `mkt value`, on Node 24 as target 3, against the same sandbox (its 10,000
// synthetic symbols, limits no run reaches). Three comparisons:
//   - 10,000 positions on 10,000 distinct symbols (priced in USD) valued in USD, and valued in EUR
//     (every value converted at the exact inverse 1/EURUSD and written at 34 significant digits, and
//     two more symbols asked), each against `mkt quotes --json` of the same 10,000 symbols: at most
//     1.3x in USD and 1.4x in EUR (issue 34);
//   - 100,000 lots over 1,000 symbols against 10,000 lots over the same 1,000: ten times the rows.
//     Start-up and the ten requests are the same on both sides, so a linear valuation gives well
//     under 10x, and a step quadratic in the rows about 100x: at most 12x.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { measured, safely } from '../measure.js';
import { timeRun } from '../processes.js';
import { blockedRow } from '../rows.js';

const COUNT = 10_000;
const LOT_SYMBOLS = 1_000;

const VS_QUOTES = { target: '7 value', what: 'mkt value 10k-positions.csv --base USD --json vs mkt quotes --symbols-file 10k.txt --json', kind: 'ratio', op: '<=', limit: 1.3, unit: 'ms' };
const CONVERTED = { target: '7 value', what: 'the same --base EUR (every value converted at the exact 1/EURUSD) vs mkt quotes', kind: 'ratio', op: '<=', limit: 1.4, unit: 'ms' };
const LOTS = { target: '7 value', what: 'mkt value of 100,000 lots vs 10,000 lots (1,000 symbols, --format csv)', kind: 'ratio', op: '<=', limit: 12, unit: 'ms' };

const symbol = (i) => `SYN${String(i + 1).padStart(5, '0')}`;

/** `rows` positions in USD over `symbols` symbols, round-robin, with costs on every other lot. */
function positionsFile(path, rows, symbols) {
  const lines = ['symbol,quantity,currency,cost'];
  for (let i = 0; i < rows; i++) lines.push(`${symbol(i % symbols)},${(i % 97) + 1}.${i % 10}5,USD,${i % 2 === 0 ? `${(i % 300) + 1}.25` : ''}`);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

function checkValuation(stdout) {
  const text = stdout.toString('utf8');
  const body = JSON.parse(text);
  if (body.positions?.length !== COUNT) throw new Error(`expected ${COUNT} valued positions, got ${body.positions?.length}`);
  if (body.incomplete !== false) throw new Error(`the valuation is incomplete: ${text.slice(-300)}`);
}

function checkQuotes(stdout) {
  const body = JSON.parse(stdout.toString('utf8'));
  if (body.data?.length !== COUNT) throw new Error(`expected ${COUNT} quotes, got ${body.data?.length}`);
}

/** The CSV's lines: a header, the lots, a total for USD and one in EUR, the last one whole. */
const checkLots = (rows) => (stdout) => {
  const lines = stdout.toString('utf8').trimEnd().split('\r\n');
  if (lines.length !== rows + 3) throw new Error(`expected ${rows + 3} lines, got ${lines.length}`);
  if (!/^total_base,.*,ok,,$/.test(lines.at(-1))) throw new Error(`the last line is not a whole total: ${lines.at(-1)}`);
};

export async function value(ctx) {
  const node = ctx.nodes.find((n) => n.major === 24) ?? { label: 'node 24', blocked: 'no Node 24 (--node24 off?)' };
  if (node.blocked) return [VS_QUOTES, CONVERTED, LOTS].map((spec) => blockedRow({ ...spec, node: node.label }, node.blocked));
  let env;
  let files;
  try {
    env = await ctx.clientEnv();
    const dir = ctx.tmpDir();
    files = {
      symbols: ctx.symbolsFile(COUNT),
      positions: positionsFile(join(dir, '10k-positions.csv'), COUNT, COUNT),
      lots10k: positionsFile(join(dir, 'lots-10k.csv'), 10_000, LOT_SYMBOLS),
      lots100k: positionsFile(join(dir, 'lots-100k.csv'), 100_000, LOT_SYMBOLS),
    };
  } catch (error) {
    return [VS_QUOTES, CONVERTED, LOTS].map((spec) => blockedRow({ ...spec, node: node.label }, error.message.split('\n')[0], 'error'));
  }
  const run = (label, args, check) => ({ label, file: node.path, args: [ctx.mkt, ...args], env, timeoutMs: 120_000, check });
  const valued = run('mkt value 10k-positions.csv --base USD --json', ['value', files.positions, '--base', 'USD', '--json'], checkValuation);
  const converted = run('mkt value 10k-positions.csv --base EUR --json', ['value', files.positions, '--base', 'EUR', '--json'], checkValuation);
  const quotes = run('mkt quotes --symbols-file 10k.txt --json', ['quotes', '--symbols-file', files.symbols, '--json'], checkQuotes);
  const lots100k = run('mkt value lots-100k.csv --base EUR --format csv', ['value', files.lots100k, '--base', 'EUR', '--format', 'csv'], checkLots(100_000));
  const lots10k = run('mkt value lots-10k.csv --base EUR --format csv', ['value', files.lots10k, '--base', 'EUR', '--format', 'csv'], checkLots(10_000));
  const rows = [];
  for (const [spec, commands, runs] of [[VS_QUOTES, [valued, quotes], 30], [CONVERTED, [converted, quotes], 30], [LOTS, [lots100k, lots10k], 10]]) {
    rows.push(await safely(ctx, spec, node, () => measured(ctx, spec, node, commands, timeRun, runs)));
  }
  return rows;
}
