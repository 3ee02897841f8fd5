// mkt quotes: the latest quotes as a table, TSV, JSON, NDJSON or CSV; exact prices; says what it
// did not get.
import type { Command } from 'commander';
import { DEFAULT_BATCH_SIZE, DEFAULT_CONCURRENCY, MAX_BATCH_SIZE, MAX_CONCURRENCY } from '../../shared/limits.js';
import { VENUE } from '../../shared/operations.js';
import type { Deps } from '../deps.js';
import { commandOptions } from '../options/command-options.js';
import { parseDuration } from '../../shared/duration.js';
import { parseInteger } from '../../shared/integer.js';
import { UsageError } from '../errors/errors.js';
import { createCommandClient } from '../network/client.js';
import { compileCheckFlags } from '../options/checks.js';
import { addFormatOptions, checkFormatFlags, chooseFormat, parseFields } from '../options/format.js';
import { QUOTE_MODEL } from '../../render/quote-model.js';
import { addNetworkOptions } from '../options/network.js';
import type { QuotesOptions } from '../options/quotes.js';
import { addTargetOptions } from '../options/target.js';
import { addWatchOptions } from '../options/watch.js';
import { quotesExplainer } from '../hints/quotes.js';
import type { RunState } from '../run-state.js';
import { collectSymbols } from '../options/symbols.js';
import { writeQuotes } from '../output/quotes-output.js';
import { runTerminal } from '../output/terminal.js';

export function registerQuotes(program: Command, deps: Deps, state: RunState): void {
  const command = program.command('quotes')
    .description('get the latest quotes: bid, ask, mid and timestamp, with every digit the service sends')
    .argument('[symbol...]', 'symbols, e.g. EURUSD AAPL (or comma-separated)')
    .option('-s, --symbols <list>', 'comma-separated symbols')
    .option('--symbols-file <file>', 'symbols from a file, one per line or comma-separated, # comments; - for stdin')
    .option('--venue <venue>', 'only quotes from this venue or market center, e.g. XNAS');
  addFormatOptions(command, QUOTE_MODEL)
    .option('--strict', 'exit 3 when a symbol is missing, a quote is stale, or a quote cannot be right (a negative price, a mid outside bid..ask, a date that does not exist)')
    .option('--max-age <duration>', 'quotes older than this are stale, e.g. 30s')
    .option('--batch-size <n>', `symbols per request (default ${DEFAULT_BATCH_SIZE})`)
    .option('--concurrency <n>', `requests in flight at once (default ${DEFAULT_CONCURRENCY})`);
  // --- watch mode (src/cli/watch/) ---
  addWatchOptions(command, QUOTE_MODEL, { pipe: 'NDJSON' })
    .option('--changes-only', 'with --watch: only the quotes whose prices changed since the previous poll (the board hides the rest)')
    .addHelpText('after', `
Formats: table (aligned, exact, with spread and age), tsv and csv (symbol, bid, ask, mid,
timestamp), json ({"data": [...], "missing": [...]}, the service's shape), ndjson (a quote per line).

A symbol is 1 to 32 visible ASCII characters, not starting with =, +, - or @: no market's symbol
does, and a spreadsheet runs a CSV cell that does as a formula. Such a symbol is refused (exit 2),
so no CSV or TSV cell mkt writes starts a formula; a negative number is written as the number it is.

Examples:
  $ mkt quotes EURUSD USDJPY AAPL
  $ mkt quotes --symbols EURUSD,GBPUSD --venue EBS --format csv > quotes.csv
  $ mkt quotes EURUSD --json | jq -r '.data[0].mid'
  $ mkt quotes EURUSD AAPL --fields symbol,bid,ask --format csv
  $ mkt quotes --symbols-file watchlist.txt --strict --max-age 30s   # a CI smoke check
  $ mkt quotes EURUSD AAPL --watch                                    # a live board; q quits (interactive)
  $ mkt quotes EURUSD --watch --interval 5s --changes-only | jq -c .  # a line per change (long-running)
  $ mkt quotes EURUSD AAPL --check 'spread_bps < 5' --check 'AAPL.bid >= 100'   # exit 8 if one fails
  $ mkt quotes EURUSD --watch --until 'EURUSD.bid > 1.09' --exec ./notify -- 'EURUSD is up'   # waits for the bid (long-running)`);
  addNetworkOptions(addTargetOptions(command)).action(async (args: string[], _options: QuotesOptions, self: Command) => {
    state.exitCode = await runQuotes(deps, args, commandOptions<QuotesOptions>(self), state);
  });
}

async function runQuotes(deps: Deps, args: string[], options: QuotesOptions, state: RunState): Promise<number> {
  checkFormatFlags(options);
  const symbols = await collectSymbols(deps, { args, symbols: options.symbols, symbolsFile: options.symbolsFile });
  if (symbols.length === 0) {
    throw new UsageError('no symbols given', 'name them as arguments (mkt quotes EURUSD AAPL), with --symbols A,B, or with --symbols-file FILE');
  }
  const maxAgeMs = options.maxAge === undefined ? undefined : parseDuration(options.maxAge, '--max-age');
  const batchSize = options.batchSize === undefined ? undefined : parseInteger(options.batchSize, '--batch-size', { min: 1, max: MAX_BATCH_SIZE });
  const concurrency = options.concurrency === undefined ? undefined : parseInteger(options.concurrency, '--concurrency', { min: 1, max: MAX_CONCURRENCY });
  const venue = options.venue?.trim();
  if (venue !== undefined && !VENUE.pattern.test(venue)) throw new UsageError(`--venue must be ${VENUE.rule}, e.g. ${VENUE.example}`);
  // Its errors in its words: a rate-limit plan counts the symbols asked for.
  state.explain = quotesExplainer(deps, options, symbols.length);
  // --- watch mode: loaded only when asked for, so plain `mkt quotes` starts as fast ---
  if (options.watch || options.interval !== undefined || options.count !== undefined || options.changesOnly) {
    if (!options.watch) {
      throw new UsageError('--interval, --count and --changes-only only apply with --watch', 'add --watch, e.g. mkt quotes EURUSD --watch --interval 5s');
    }
    const { watchQuotes } = await import('../watch/quotes-watch.js');
    return watchQuotes(deps, { symbols, venue, batchSize, concurrency, maxAgeMs }, options, state);
  }
  // The format asked for (--format, --json, MKT_FORMAT, the profile), or the default.
  const { format } = chooseFormat(deps, options);
  const fields = parseFields(options.fields, format, QUOTE_MODEL);
  // --check, before any request (exit 2 for a bad one); decided once the quotes are written.
  const checks = compileCheckFlags(QUOTE_MODEL, options, symbols);

  // Its token source renews a client-credentials token once after a 401, and the request is asked again.
  const { client, progress } = await createCommandClient(deps, options, state, { concurrency: concurrency ?? DEFAULT_CONCURRENCY });
  const result = await client.getQuotes({ symbols, venue, batchSize, concurrency, onProgress: progress.onBatch });
  return writeQuotes(runTerminal(deps, state), result, { ...options, symbols, format, fields, maxAgeMs, checks });
}
