// What a watch without a board says to people, the stream in a pipe and the tables on a dumb
// terminal alike: a warning on stderr for each new thing, not one per poll. Symbols not asked for
// once (a service that sends them tends to at every poll), missing symbols when the set changes,
// what else the resource warns of when that changes, one line per throttling episode, one per
// failed poll; each with its code (src/shared/warnings.ts), and a JSON line under a JSON format, as
// the run's diagnostics say everything (output/diagnostics.ts).
import { pairSpellingNote } from '../../shared/pair-spelling.js';
import { printable } from '../../shared/text.js';
import type { Warning, WarningCode } from '../../shared/warnings.js';
import { formatClock } from '../../shared/time.js';
import type { Terminal } from '../output/terminal.js';
import type { RateLimitInfo } from '../../api/index.js';
import type { WatchOutput } from './watch-output.js';

/** What a poll says that people are warned about, whatever the resource. */
export interface PollNews {
  /** The symbols asked for that have no quote (quotes: the result's missing; value: positions without a quote). */
  missing: readonly string[];
  /** The symbols of quotes the service sent unasked, which the watch left out. */
  ignored: readonly string[];
  rateLimit: RateLimitInfo | undefined;
  throttledUntil: number | undefined;
  /** What else the resource's one-shot run warns of (a valuation's quotes that cannot be right, currencies with no rate, incomplete totals). */
  problems?: readonly Warning[];
}

export type WatchWarnings = Pick<WatchOutput<unknown>, 'rateLimited' | 'failed'> & {
  afterPoll(poll: PollNews): void;
};

export function createWatchWarnings(terminal: Pick<Terminal, 'diagnostics'>): WatchWarnings {
  let missingBefore = '';
  let problemsBefore = new Set<string>();
  let throttled = false;
  let warnedIgnored = false;
  const warn = (code: WarningCode, message: string) => terminal.diagnostics.warn({ code, message });
  return {
    afterPoll({ missing: missingNow, ignored, rateLimit, throttledUntil, problems = [] }) {
      if (ignored.length > 0 && !warnedIgnored) {
        warnedIgnored = true;
        warn('unasked_quotes', `the service sent quotes for symbols not asked for (${listSome(ignored)}); the watch leaves them out`);
      }
      const missing = missingNow.map((symbol) => printable(symbol)).join(', ');
      const spelling = pairSpellingNote(missingNow);
      if (missing !== missingBefore && missing !== '') warn('no_quote', `no quote for ${missing}${spelling === undefined ? '' : ` (${spelling})`}`);
      missingBefore = missing;
      // Each said again only when it changes: a problem the last poll had too is not news.
      const problemsNow = new Set(problems.map((problem) => `${problem.code} ${problem.message}`));
      for (const problem of problems) if (!problemsBefore.has(`${problem.code} ${problem.message}`)) terminal.diagnostics.warn(problem);
      problemsBefore = problemsNow;
      if (throttledUntil !== undefined && !throttled) {
        const left = rateLimit?.remaining ?? 0;
        warn('watch_throttled', `close to the rate limit (${left} request${left === 1 ? '' : 's'} left); throttled until ${formatClock(throttledUntil)}`);
      }
      throttled = throttledUntil !== undefined;
    },
    rateLimited(until) {
      warn('watch_rate_limited', `rate limited by the service; throttled until ${formatClock(until)}`);
      throttled = true;
    },
    failed(error, retryAt, failures) {
      warn('watch_poll_failed', `${printable(error.message)}; retrying at ${formatClock(retryAt)}${failures > 1 ? ` (${failures} failures in a row)` : ''}`);
    },
  };
}

function listSome(symbols: readonly string[]): string {
  const shown = symbols.slice(0, 5).map((symbol) => printable(symbol)).join(', ');
  return symbols.length > 5 ? `${shown} and ${symbols.length - 5} more` : shown;
}
