// The watch flags, checked: --interval (clamped to the minimum with a warning), --count, and which
// output to draw. The format is the one a one-shot run would use, however it was asked for (--format,
// MKT_FORMAT, the profile: options/format.ts). The table is the live board, which needs a terminal
// that understands cursor control; in a pipe the watch writes the formats its resource streams
// (quotes: NDJSON, CSV and TSV, a line per quote per poll, CSV and TSV with their header once), and
// another is refused rather than silently replaced. Asked for nothing, the watch draws the board on
// a terminal and writes the resource's first stream format anywhere else.
import { parseDuration } from '../../shared/duration.js';
import { parseInteger } from '../../shared/integer.js';
import { UsageError } from '../errors/errors.js';
import { DEFAULT_INTERVAL_MS, MAX_WATCH_COUNT, MIN_INTERVAL_MS } from '../../shared/limits.js';
import { parseFields, type FormatChoice } from '../options/format.js';
import type { FieldNames } from '../../render/fields.js';
import type { Format } from '../../render/formats.js';
import type { Terminal } from '../output/terminal.js';

/** The flags every watch takes (options/watch.ts), and the ones it refuses. */
export interface WatchFlags {
  interval?: string;
  count?: string;
  fields?: string;
  strict?: boolean;
}

/** What a resource's watch writes in a pipe, and why it writes nothing else. */
export interface WatchStream {
  /** The formats it can write a poll at a time, the one written when none is asked for first. */
  formats: readonly Format[];
  /** The first one as a message names it: `NDJSON`. */
  name: string;
  /** Why another format cannot be written a poll at a time, and what to use instead. */
  refusal: { reason: string; hint: string };
}

export interface WatchSettings<N extends string = string> {
  /** The live board (a terminal) or a stream. */
  board: boolean;
  /** TERM=dumb on a terminal, where the board would be: a plain table per poll (plain-output.ts). */
  plain: boolean;
  /** What the stream writes (one of the resource's stream formats); `table` for the board or the plain tables. */
  format: Format;
  /** --fields, checked against the format; undefined: the format's own. */
  fields: N[] | undefined;
  intervalMs: number;
  /** Stop after this many polls, failed ones included (run-watch.ts says what the exit code is then). */
  count: number | undefined;
}

/** The watch's settings; colour, characters and width are the terminal's (output/terminal.ts). */
export function resolveWatchSettings<N extends string>(
  terminal: Terminal, model: FieldNames<N>, stream: WatchStream, flags: WatchFlags, chosen: FormatChoice,
): WatchSettings<N> {
  if (flags.strict) {
    throw new UsageError('--strict cannot be used with --watch: a watch has no single result to judge',
      'for a CI check, run the command with --strict, without --watch');
  }
  // A terminal that cannot move its cursor (TERM=dumb) gets plain tables instead of the board.
  const dumb = terminal.stdoutIsTTY && !terminal.cursor;
  const { format } = chosen;
  // TERM=dumb on a terminal, where the board would be: a plain table per poll.
  const plain = dumb && format === 'table';
  // A format that did not come from a flag says where it came from, so the fix is plain.
  const source = chosen.from === undefined || chosen.from.startsWith('--') ? '' : ` (from ${chosen.from})`;
  if (format === 'table' && !terminal.cursor && !plain) {
    throw new UsageError(`--watch --format table needs a terminal${source}: the live board redraws the screen in place`,
      `in a pipe or file, --watch writes ${stream.name} (leave out the format, or use --format ${listed(stream.formats)})`);
  }
  if (format !== 'table' && !stream.formats.includes(format)) {
    throw new UsageError(`--watch cannot write ${format}${source}: ${stream.refusal.reason}`, stream.refusal.hint);
  }
  const board = format === 'table' && !plain;
  const fields = parseFields(flags.fields, format, model);

  const intervalText = flags.interval ?? `${DEFAULT_INTERVAL_MS}ms`;
  let intervalMs = parseDuration(intervalText, '--interval');
  if (intervalMs < MIN_INTERVAL_MS) {
    terminal.diagnostics.warn({
      code: 'watch_interval_raised', message: `--interval ${intervalText.trim()} is below the minimum of 1s (the service allows 60 requests a minute); polling every 1s`,
    });
    intervalMs = MIN_INTERVAL_MS;
  }
  const count = flags.count === undefined ? undefined : parseInteger(flags.count, '--count', { min: 1, max: MAX_WATCH_COUNT });
  return { board, plain, format, fields, intervalMs, count };
}

/** `ndjson, csv or tsv`. */
function listed(formats: readonly Format[]): string {
  return formats.length === 1 ? formats[0]! : `${formats.slice(0, -1).join(', ')} or ${formats.at(-1)}`;
}
