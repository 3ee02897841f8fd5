// The watch flags, checked: --interval (clamped to the minimum with a warning), --count, and which
// output to draw. The board needs a terminal that understands cursor control; anywhere else the
// watch writes NDJSON, the one format that streams (a table, JSON document, CSV or TSV cannot grow
// by a poll at a time), so other --format values are refused rather than silently replaced.
import type { QuotesOptions } from '../commands/quotes.js';
import type { Deps } from '../deps.js';
import { parseDuration } from '../../shared/duration.js';
import { parseInteger } from '../../shared/integer.js';
import { UsageError } from '../errors.js';
import { useAscii } from '../charset.js';
import { isColorEnabled } from '../io.js';
import { DEFAULT_INTERVAL_MS, MIN_INTERVAL_MS } from './pace.js';

export interface WatchSettings {
  /** The live board (a terminal) or the NDJSON stream. */
  board: boolean;
  /** TERM=dumb on a terminal, where the board would be: a plain table per poll (plain-output.ts). */
  plain: boolean;
  intervalMs: number;
  /** Stop after this many polls, failed ones included (run-watch.ts says what the exit code is then). */
  count: number | undefined;
  changesOnly: boolean;
  color: boolean;
  /** Plain ASCII on the board (TERM=dumb never gets one; a locale without UTF-8 does). */
  ascii: boolean;
}

export function resolveWatchSettings(deps: Deps, options: QuotesOptions): WatchSettings {
  if (!options.watch) {
    throw new UsageError('--interval, --count and --changes-only only apply with --watch', 'add --watch, e.g. mkt quotes EURUSD --watch --interval 5s');
  }
  if (options.strict) {
    throw new UsageError('--strict cannot be used with --watch: a watch has no single result to judge',
      'for a CI check, run mkt quotes --strict without --watch');
  }
  const format = options.json ? 'json' : options.format;
  const terminal = deps.io.stdoutIsTTY && deps.env.TERM !== 'dumb';
  const plain = deps.io.stdoutIsTTY && deps.env.TERM === 'dumb' && (format === undefined || format === 'table');
  if (format === 'table' && !terminal && !plain) {
    throw new UsageError('--watch --format table needs a terminal: the live board redraws the screen in place',
      'in a pipe or file, --watch writes NDJSON (leave out --format, or use --format ndjson)');
  }
  if (format !== undefined && format !== 'table' && format !== 'ndjson') {
    throw new UsageError(`--watch cannot write ${format}: it streams NDJSON, one quote per line per poll`,
      'leave out --format (a live board on a terminal, NDJSON in a pipe), or use --format ndjson');
  }
  const board = !plain && (format === 'table' || (format === undefined && terminal));

  const intervalText = options.interval ?? `${DEFAULT_INTERVAL_MS}ms`;
  let intervalMs = parseDuration(intervalText, '--interval');
  if (intervalMs < MIN_INTERVAL_MS) {
    deps.io.stderr.write(`warning: --interval ${intervalText.trim()} is below the minimum of 1s (the service allows 60 requests a minute); polling every 1s\n`);
    intervalMs = MIN_INTERVAL_MS;
  }
  const count = options.count === undefined ? undefined : parseInteger(options.count, '--count', { min: 1, max: 1_000_000 });
  return {
    board,
    plain,
    intervalMs,
    count,
    changesOnly: options.changesOnly === true,
    color: isColorEnabled(deps.io.stdoutIsTTY, deps.env, options.color === false),
    ascii: useAscii(deps.env),
  };
}
