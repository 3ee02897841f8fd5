// The watch on a terminal that cannot move its cursor (TERM=dumb: Emacs's shell, some CI consoles):
// each poll drawn as the plain ASCII table of a one-shot `mkt quotes`, under a line saying which
// poll it is, one after another; no cursor movement, no alternate screen, no key reading (Ctrl-C
// ends it). What the board would show in its status lines (throttling, errors, missing symbols) is
// a warning on stderr, as in the NDJSON stream (watch-warnings.ts); when --until held, a line says so
// below the last table.
import { renderQuoteTable } from '../../render/quote-table.js';
import { formatDuration } from '../../shared/duration.js';
import { formatClock } from '../../shared/time.js';
import type { QuoteFieldName } from '../../render/quote-fields.js';
import type { Terminal } from '../output/terminal.js';
import type { WatchTerminal } from './terminal.js';
import type { QuotePoll, WatchOutput } from './watch-output.js';
import { createWatchWarnings } from './watch-warnings.js';

export interface PlainOutputOptions {
  intervalMs: number;
  maxAgeMs: number | undefined;
  /** Draw only the quotes whose prices moved at the latest poll (all of them at the first). */
  changesOnly: boolean;
  /** --fields: the table's columns and their order; undefined: the table's own. */
  fields: readonly QuoteFieldName[] | undefined;
}

/** `screen`: the run's terminal (colour, stdout, stderr); `terminal`: its width at each poll. */
export function createPlainOutput(screen: Terminal, terminal: WatchTerminal, options: PlainOutputOptions): WatchOutput<QuotePoll> {
  const warnings = createWatchWarnings(screen);
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
        ? renderQuoteTable(data, { color: screen.color, now: at, maxAgeMs: options.maxAgeMs, unusable: result.unusable, columns: screen.widthOf(terminal.size().columns), ascii: true, fields: options.fields })
        : 'no price changed at the latest poll\n';
      screen.stdout.write(`${polls > 1 ? '\n' : ''}${heading.join(' | ')}\n${table}`);
      warnings.afterPoll({ missing: result.missing, ignored, rateLimit: result.rateLimit, throttledUntil });
    },
    rateLimited: warnings.rateLimited,
    failed: warnings.failed,
    stop(finished, ending) {
      // Below the last table, as on the board: why the watch ended (--until held).
      if (finished && ending !== undefined) screen.stdout.write(`${ending}\n`);
    },
  };
}
