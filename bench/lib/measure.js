// One comparison of a target, measured side by side and judged, and the guard that turns a failure
// to measure into a row that says so. Shared by the targets that time or weigh processes.
import { alternate } from './series.js';
import { blockedRow, judge } from './rows.js';

/** Alternates `commands` (A first, then B), records every series and judges A against B by `spec`. */
export function measured(ctx, spec, node, commands, measure, defaultRuns) {
  ctx.log(`${spec.target}: ${spec.what} [${node.label}]`);
  const { series, stoppedEarly } = alternate({ commands, measure, log: ctx.log, ...ctx.series(defaultRuns) });
  ctx.record(`${spec.target} ${spec.what} [${node.label}]`, series, spec.unit);
  return judge({ ...spec, node: node.label, a: series[0], b: series[1], note: stoppedEarly ? `${series[0].n} runs (time budget)` : undefined });
}

/** `fn`'s row, or a blocked row when the Node is missing or an error one when measuring failed. */
export async function safely(ctx, spec, node, fn) {
  if (node.blocked) return blockedRow({ ...spec, node: node.label }, node.blocked);
  try {
    return await fn();
  } catch (error) {
    ctx.log(`  error: ${error.message}`);
    return blockedRow({ ...spec, node: node.label }, error.message.split('\n')[0], 'error');
  }
}

/** The checked warm-up run of a one-quote command: a quote for EURUSD. */
export function checkQuotes(stdout) {
  const body = JSON.parse(stdout.toString('utf8'));
  if (body.data?.[0]?.symbol !== 'EURUSD') throw new Error(`expected a quote for EURUSD, got ${stdout.toString('utf8').slice(0, 200)}`);
}
