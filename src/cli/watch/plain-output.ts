// The watch on a terminal that cannot move its cursor (TERM=dumb: Emacs's shell, some CI consoles):
// each poll drawn as the plain ASCII table of a one-shot `mkt quotes`, under a line saying which
// poll it is, one after another; no cursor movement, no alternate screen, no key reading (Ctrl-C
// ends it). What the board would show in its status lines (throttling, errors, missing symbols) is
// a warning on stderr, as in the NDJSON stream (watch-warnings.ts).
import { renderTable } from '../../render/table.js';
import { formatDuration } from '../../shared/duration.js';
import { formatClock } from '../../shared/time.js';
import type { FieldName } from '../../render/fields.js';
import type { Deps } from '../deps.js';
import { terminalColumns } from '../io.js';
import type { WatchTerminal } from './terminal.js';
import type { WatchOutput } from './watch-output.js';
import { createWatchWarnings } from './watch-warnings.js';

export interface PlainOutputOptions {
  color: boolean;
  intervalMs: number;
  maxAgeMs: number | undefined;
  /** Draw only the quotes whose prices moved at the latest poll (all of them at the first). */
  changesOnly: boolean;
  /** --fields: the table's columns and their order; undefined: the table's own. */
  fields: readonly FieldName[] | undefined;
}

export function createPlainOutput(deps: Deps, terminal: WatchTerminal, options: PlainOutputOptions): WatchOutput {
  const warnings = createWatchWarnings(deps);
  return {
    start() {},
    update({ result, ignored, changes, polls, at, throttledUntil }) {
      const left = result.rateLimit?.remaining;
      const limit = result.rateLimit?.limit;
      const heading = [`poll ${polls}`, `updated ${formatClock(at)}`, `every ${formatDuration(options.intervalMs)}`];
      if (left !== undefined) heading.push(limit === undefined ? `${left} requests left` : `${left}/${limit} left`);
      const data = options.changesOnly && polls > 1 ? result.data.filter((_quote, index) => changes[index]?.changed) : result.data;
      // One write per poll, a blank line between polls.
      const table = data.length > 0 || result.data.length === 0
        ? renderTable(data, { color: options.color, now: at, maxAgeMs: options.maxAgeMs, columns: terminalColumns(terminal.size().columns, deps.env), ascii: true, fields: options.fields })
        : 'no price changed at the latest poll\n';
      deps.io.stdout.write(`${polls > 1 ? '\n' : ''}${heading.join(' | ')}\n${table}`);
      warnings.afterPoll({ result, ignored, throttledUntil });
    },
    rateLimited: warnings.rateLimited,
    failed: warnings.failed,
    stop() {},
  };
}
