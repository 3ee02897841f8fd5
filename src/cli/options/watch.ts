// --watch, --interval and --count, for a command whose resource can be watched (src/cli/watch/),
// and --until and --exec when its declaration has checks (options/checks.ts).
import type { Command } from 'commander';
import type { FieldNames } from '../../render/fields.js';
import { formatDuration } from '../../shared/duration.js';
import { DEFAULT_INTERVAL_MS, MIN_INTERVAL_MS } from '../../shared/limits.js';
import { addUntilOptions } from './checks.js';

export interface WatchOptionWords {
  /** What the watch writes in a pipe: `NDJSON`. */
  pipe: string;
}

export function addWatchOptions(command: Command, model: Pick<FieldNames, 'checks'>, words: WatchOptionWords): Command {
  command
    .option('-w, --watch', `keep polling: a live board on a terminal (q quits), ${words.pipe} in a pipe`)
    .option('--interval <duration>', `with --watch: time between polls, at least ${formatDuration(MIN_INTERVAL_MS)} (default ${formatDuration(DEFAULT_INTERVAL_MS)})`)
    .option('--count <n>', 'with --watch: stop after N polls, failed ones included (exit 0 if the last succeeded, else its error\'s code, e.g. 7)');
  return model.checks === undefined ? command : addUntilOptions(command, model.checks);
}
