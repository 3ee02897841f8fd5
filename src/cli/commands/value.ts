// mkt value: a portfolio valued exactly from live quotes, in its own currencies and in a base
// currency; says what it could not value.
import { Option, type Command } from 'commander';
import { PRICE_RULES, READABLE_RATE_DIGITS } from '../../api/index.js';
import { isPriceFormat, PRICE_FORMATS } from '../../render/price-directives.js';
import { defaultValueFields } from '../../render/value-fields.js';
import { VALUE_MODEL, valueModel } from '../../render/value-model.js';
import { DEFAULT_BATCH_SIZE, DEFAULT_CONCURRENCY } from '../../shared/limits.js';
import { createCommandClient } from '../network/client.js';
import { setOptionValues } from '../completion/candidates.js';
import { currencyValues } from '../completion/currency-values.js';
import type { Deps } from '../deps.js';
import { UsageError } from '../errors/errors.js';
import { compileCheckFlags } from '../options/checks.js';
import { choiceParser } from '../options/choice-parser.js';
import { commandOptions } from '../options/command-options.js';
import { addFormatOptions, checkFormatFlags, chooseFormat, parseFields, type Format } from '../options/format.js';
import { addNetworkOptions } from '../options/network.js';
import { addPrecisionOption, choosePrecision } from '../options/precision.js';
import { addTargetOptions } from '../options/target.js';
import { addWatchOptions } from '../options/watch.js';
import type { RunState } from '../run-state.js';
import { runTerminal } from '../output/terminal.js';
import { prepareValue, valueOnce } from '../value/prepare-value.js';
import { valueExplainer } from '../value/value-explainer.js';
import type { ValueOptions } from '../value/value-options.js';
import { writeValuation } from '../value/value-output.js';

const INPUT_FORMATS = ['csv', 'tsv', 'json'] as const;
const priceRuleNamed = choiceParser(PRICE_RULES, (given, valid) => new UsageError(`--price: unknown rule ${given}`, `the rules are ${valid}: --price side`));
const inputFormatNamed = choiceParser(INPUT_FORMATS, (given, valid) => new UsageError(`--input-format: unknown kind ${given}`, `the kinds are ${valid}: --input-format csv`));

export function registerValue(program: Command, deps: Deps, state: RunState): void {
  const command = program.command('value')
    .description('value a portfolio from live quotes, exactly: each position in its currency and in a base currency, with totals')
    .argument('<file>', 'the positions: CSV (, or ;) or TSV with a header row (symbol,quantity[,currency][,cost|cost_total]), or JSON; - for standard input')
    .addOption(setOptionValues(new Option('--base <currency>', 'the currency to value in (value_base and the totals), e.g. USD; required'), currencyValues))
    .addOption(setOptionValues(new Option('--currency <currency>', 'the currency of positions that give none (without it, such a position is an error)'), currencyValues))
    .addOption(new Option('--price <rule>', 'which price values a position (default mid): the mid, the bid, the ask, or side (a long at the bid, a short at the ask)').choices(PRICE_RULES).argParser(priceRuleNamed))
    .addOption(new Option('--input-format <kind>', 'read FILE as this kind, whatever its name or first character say').choices(INPUT_FORMATS).argParser(inputFormatNamed))
    .option('--columns <mapping>', 'which column holds each field, FIELD=HEADER,... in any case, e.g. \'symbol=Ticker,quantity=Shares,cost=Avg Cost\' (a header holding , or = in double quotes; FIELD= for none)')
    .option('--decimal-comma', 'the file writes 1.000,50 for 1000.50 (in a ;-separated file, 1,5 and 1.000 are refused until this or --no-decimal-comma says which)')
    .option('--no-decimal-comma', 'the file writes 1,000.50 for 1000.50, even separated by ;')
    .option('--encoding <label>', 'the file\'s encoding when it has no byte-order mark (default utf-8): cp1252 for Excel on Windows, latin1, utf-16le...');
  addPrecisionOption(addFormatOptions(command, VALUE_MODEL, PRICE_FORMATS))
    .option('--strict', 'exit 3 when the valuation is incomplete: a symbol with no quote, or a currency with no rate to --base')
    .option('--batch-size <n>', `symbols per request (default ${DEFAULT_BATCH_SIZE})`)
    .option('--concurrency <n>', `requests in flight at once (default ${DEFAULT_CONCURRENCY})`);
  // --- watch mode (src/cli/watch/value-watch.ts) ---
  addWatchOptions(command, VALUE_MODEL, { pipe: 'a JSON document per poll (one per line)' })
    .addHelpText('after', `
The file: a header row naming symbol and quantity, and optionally currency (ISO 4217, or a minor
unit such as GBX for pence) and cost (per unit, in that currency) or cost_total (the lot's); a row
whose symbol is its currency is cash. The kind comes from the extension (.csv, .tsv, .json), else
the first character; the delimiter (, ; or tab) from the header line. A broker's export is read as
it comes: the header is the first line naming a symbol (or ticker) and a quantity (or qty, shares,
units) column, and the lines before it are skipped; so are rows with no quantity that are totals or
notes (Account Total), and columns mkt does not use, each said in a warning. A column named like a
cost (Cost Basis, Avg Cost) is per unit or a total: --columns says which. Numbers: 1,000.50 and
(20) read, -- or N/A for none, a currency sign refused; --decimal-comma for 1.000,50. UTF-8, or
UTF-16 by its byte-order mark, or --encoding. A file mkt cannot use is exit 2, naming each problem
and its line (20 at most), before any request.
A symbol that starts with =, +, - or @ is refused (exit 2): no market's symbol does, and a
spreadsheet would run it as a formula from the CSV or TSV mkt writes.

Rates come from the service's FX pairs at the mid: a direct pair, its inverse, or a cross through
USD. Every figure is computed exactly and rounded once, half-even, where it is written:
--precision minor (each currency's ISO 4217 minor units: the table's default), full (the exact
value, or 34 significant digits: the data formats' default) or N decimal places. A total is the
exact total rounded, not a sum of rounded rows. A quote that cannot be right values nothing: its
positions are unusable, and the totals incomplete.

Formats: table (the positions, then a total per currency and in --base), json ({"base", "positions",
"total_base", "incomplete", "missing", ...}), and csv, tsv, ndjson: a line per position, then a line
per currency (row=total) and one for the whole (row=total_base), status=incomplete where a total
leaves something out.

--check EXPR (repeatable) exits 8 after the data unless it holds: a position's quantity, price,
value, rate, value_base, cost, pnl or pnl_base (SYMBOL.value, or every position's), or a total:
total_base, total_pnl_base, total_<currency> (total_eur). --watch polls: a live board with the
change since the first poll on a terminal, tables one after another on a dumb one, the --json
document per poll on one line in a pipe (csv, tsv, ndjson: each poll's lines). --until EXPR ends it
(exit 0) at the first poll where it holds; --exec PROGRAM then runs a program, no shell, its
arguments after --, the trigger in its environment: MKT_TOTAL_BASE for a total, MKT_SYMBOL,
MKT_VALUE_BASE, MKT_PNL, ... for a position.

Examples:
  $ mkt value portfolio.csv --base USD
  $ mkt value portfolio.csv --base JPY --precision full     # the table with every exact digit
  $ mkt value positions.csv --base USD --currency USD          # a broker's export as it comes
  $ mkt value depot.csv --base EUR --decimal-comma --columns 'symbol=Ticker,quantity=Stück,currency=Währung,cost=Einstandskurs'
  $ mkt value holdings.json --base GBP --currency USD --format csv > valued.csv
  $ mkt value portfolio.csv --base EUR --price side --format tsv --fields row,value_base | awk -F'\\t' '$1 == "total_base" {print $2}'
  $ mkt value portfolio.csv --base USD --json | jq -r '.missing[]'     # the symbols with no quote
  $ mkt value - --base USD --strict < portfolio.tsv        # a cron job: exit 3 if incomplete
  $ mkt value portfolio.csv --base USD --check 'total_base >= 10000' --check 'AAPL.pnl > 0'   # exit 8 if one fails
  $ mkt value portfolio.csv --base USD --watch --interval 30s            # a live board; q quits (interactive)
  $ mkt value portfolio.csv --base USD --watch --count 10 --format tsv --fields row,value_base | awk -F'\\t' '$1 == "total_base" {print $2}'
  $ mkt value portfolio.csv --base EUR --watch --until 'total_base > 1000000' --exec ./notify -- 'rich'   # waits for the total (long-running)`);
  addNetworkOptions(addTargetOptions(command)).action(async (file: string, _options: ValueOptions, self: Command) => {
    state.exitCode = await runValue(deps, file, commandOptions<ValueOptions>(self), state);
  });
}

async function runValue(deps: Deps, file: string, given: ValueOptions, state: RunState): Promise<number> {
  // The prices for the books (--format ledger, beancount): the flag's alone, one run's; the rest of
  // the run reads the options as any resource's.
  const prices = isPriceFormat(given.format) ? given.format : undefined;
  if (prices !== undefined) refusePriceFlags(prices, given);
  const options = { ...given, format: prices === undefined ? given.format as Format | undefined : undefined };
  checkFormatFlags(options);
  let symbolCount = () => 0;
  // Its errors in its words: the file's problems with the flag that helps, its requests as quotes'.
  state.explain = valueExplainer(deps, options, () => symbolCount());
  if (!options.watch && (options.interval !== undefined || options.count !== undefined)) {
    throw new UsageError('--interval and --count only apply with --watch', 'add --watch, e.g. mkt value portfolio.csv --base USD --watch --interval 30s');
  }
  // A watch decides its own output (watch/watch-settings.ts); a single run's is checked first.
  const format = options.watch ? undefined : prices === undefined ? chooseFormat(deps, options).format : 'table';
  // Checked before any request, a watch's too (it writes the board at the table's precision).
  const precision = choosePrecision(deps, options, format ?? 'table');
  const fields = format === undefined ? undefined : parseFields(options.fields, format, VALUE_MODEL) ?? defaultValueFields(format);
  // The file and the flags, checked before any request (a token request included).
  const prepared = await prepareValue(deps, file, options);
  symbolCount = prepared.symbolCount;
  // Its checks know each total_<currency> of the file.
  const model = valueModel(prepared.currencies);
  if (format === undefined) {
    // --- watch mode: loaded only when asked for ---
    const { watchValue } = await import('../watch/value-watch.js');
    return watchValue(deps, prepared, model, options, state);
  }
  // --check, before any request (exit 2 for a bad one); decided once the valuation is written.
  const checks = compileCheckFlags(model, options, options.check === undefined ? undefined : prepared.keys());

  const concurrency = prepared.request.concurrency ?? DEFAULT_CONCURRENCY;
  const { client, progress } = await createCommandClient(deps, options, state, { concurrency });
  // A table's rates have at most 10 significant digits: the valuation is written so.
  const result = await valueOnce(client, prepared, { onProgress: progress.onBatch, precision, rateDigits: format === 'table' ? READABLE_RATE_DIGITS : undefined });
  return writeValuation(runTerminal(deps, state), result, { format, fields, strict: options.strict, checks, prices });
}

/** --format ledger and beancount write the prices of one valuation: no watch, no fields, no JSON. */
function refusePriceFlags(format: string, options: ValueOptions): void {
  const with_ = options.watch ? '--watch' : options.fields !== undefined ? '--fields' : options.json ? '--json' : undefined;
  if (with_ !== undefined) {
    throw new UsageError(`--format ${format} writes the prices one valuation used: it takes no ${with_}`, `for example mkt value portfolio.csv --base USD --format ${format} > prices.${format === 'ledger' ? 'journal' : 'beancount'}`);
  }
}
