// The watch flags, checked: --interval (clamped to the minimum with a warning), --count, and which
// output to draw. The format is the one a one-shot run would use, however it was asked for (--format,
// MKT_FORMAT, the profile: options/format.ts). The table is the live board, which needs a terminal
// that understands cursor control; NDJSON, CSV and TSV stream, a line per quote per poll (CSV and
// TSV with their header once); a JSON document cannot grow by a poll at a time and is refused rather
// than silently replaced. Asked for nothing, the watch draws the board on a terminal and writes
// NDJSON anywhere else.
import type { QuotesOptions } from '../options/quotes.js';
import { parseDuration } from '../../shared/duration.js';
import { parseInteger } from '../../shared/integer.js';
import { UsageError } from '../errors.js';
import { DEFAULT_INTERVAL_MS, MAX_WATCH_COUNT, MIN_INTERVAL_MS } from '../../shared/limits.js';
import { parseFields, type FormatChoice } from '../options/format.js';
import { renderersFor, type Format } from '../../render/formats.js';
import type { QuoteFieldName } from '../../render/quote-fields.js';
import { QUOTE_MODEL } from '../../render/quote-model.js';
import type { Terminal } from '../terminal.js';

export interface WatchSettings {
  /** The live board (a terminal) or a stream. */
  board: boolean;
  /** TERM=dumb on a terminal, where the board would be: a plain table per poll (plain-output.ts). */
  plain: boolean;
  /** What the stream writes (ndjson, csv or tsv); `table` for the board or the plain tables. */
  format: Format;
  /** --fields, checked against the format; undefined: the format's own. */
  fields: QuoteFieldName[] | undefined;
  intervalMs: number;
  /** Stop after this many polls, failed ones included (run-watch.ts says what the exit code is then). */
  count: number | undefined;
  changesOnly: boolean;
}

/** The watch's settings; colour, characters and width are the terminal's (terminal.ts). */
export function resolveWatchSettings(terminal: Terminal, options: QuotesOptions, chosen: FormatChoice | undefined): WatchSettings {
  if (!options.watch) {
    throw new UsageError('--interval, --count and --changes-only only apply with --watch', 'add --watch, e.g. mkt quotes EURUSD --watch --interval 5s');
  }
  if (options.strict) {
    throw new UsageError('--strict cannot be used with --watch: a watch has no single result to judge',
      'for a CI check, run mkt quotes --strict without --watch');
  }
  // A terminal that cannot move its cursor (TERM=dumb) gets plain tables instead of the board.
  const dumb = terminal.stdoutIsTTY && !terminal.cursor;
  const format = chosen?.format ?? (terminal.stdoutIsTTY ? 'table' : 'ndjson');
  // TERM=dumb on a terminal, where the board would be: a plain table per poll.
  const plain = dumb && format === 'table';
  // A format that did not come from a flag says where it came from, so the fix is plain.
  const source = chosen === undefined || chosen.from.startsWith('--') ? '' : ` (from ${chosen.from})`;
  if (format === 'table' && !terminal.cursor && !plain) {
    throw new UsageError(`--watch --format table needs a terminal${source}: the live board redraws the screen in place`,
      'in a pipe or file, --watch writes NDJSON (leave out the format, or use --format ndjson, csv or tsv)');
  }
  if (format !== 'table' && renderersFor(QUOTE_MODEL)[format].stream === undefined) {
    throw new UsageError(`--watch cannot write ${format}${source}: a JSON document cannot grow by a poll at a time`,
      'use --format ndjson (a JSON object per quote per line), csv or tsv');
  }
  const board = format === 'table' && !plain;
  const fields = parseFields(options.fields, format, QUOTE_MODEL);

  const intervalText = options.interval ?? `${DEFAULT_INTERVAL_MS}ms`;
  let intervalMs = parseDuration(intervalText, '--interval');
  if (intervalMs < MIN_INTERVAL_MS) {
    terminal.stderr.write(`warning: --interval ${intervalText.trim()} is below the minimum of 1s (the service allows 60 requests a minute); polling every 1s\n`);
    intervalMs = MIN_INTERVAL_MS;
  }
  const count = options.count === undefined ? undefined : parseInteger(options.count, '--count', { min: 1, max: MAX_WATCH_COUNT });
  return {
    board,
    plain,
    format,
    fields,
    intervalMs,
    count,
    changesOnly: options.changesOnly === true,
  };
}
