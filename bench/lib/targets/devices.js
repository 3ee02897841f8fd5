// What each start-up device of the CLI is worth today (issue 11, docs/benchmarks.md): `mkt quotes
// EURUSD --json` of a build without the device against the whole build, side by side, on every
// Node. A device stays while the difference of the medians is at least its limit; a failed row says
// that the device can go. Built-time devices are left out by `scripts/build.js --without NAME`; the
// compile cache by NODE_DISABLE_COMPILE_CACHE=1.
import { checkQuotes, measured, safely } from '../measure.js';
import { timeRun } from '../processes.js';

const DEVICES = [
  { name: 'compile-cache', env: { NODE_DISABLE_COMPILE_CACHE: '1' }, applies: (node) => node.major >= 22 },
  // The launcher's comment: it stays while it saves 20 ms on Node 22 and 24.
  { name: 'wasm-budget', build: true, limit: (node) => (node.major >= 22 ? 20 : 5) },
  { name: 'undici-alias', build: true },
  { name: 'lazy-http2', build: true },
];


export async function devices(ctx) {
  const rows = [];
  for (const device of DEVICES) {
    let variant;
    for (const node of ctx.nodes) {
      if (device.applies && !device.applies(node)) continue;
      const spec = { target: '5 devices', what: `mkt quotes EURUSD --json without ${device.name} minus whole`, kind: 'diff', op: '>=', limit: device.limit?.(node) ?? 5, unit: 'ms' };
      rows.push(await safely(ctx, spec, node, async () => {
        const env = await ctx.clientEnv();
        variant ??= device.build ? ctx.buildWithout(device.name) : ctx.mkt;
        const commands = [
          { label: `without ${device.name}`, file: node.path, args: [variant, 'quotes', 'EURUSD', '--json'], env: { ...env, ...device.env }, timeoutMs: 30_000, check: checkQuotes },
          { label: 'whole build', file: node.path, args: [ctx.mkt, 'quotes', 'EURUSD', '--json'], env, timeoutMs: 30_000, check: checkQuotes },
        ];
        return measured(ctx, spec, node, commands, timeRun, 20);
      }));
    }
  }
  return rows;
}
