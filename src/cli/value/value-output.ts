// What `mkt value` writes once the valuation is in: the document in the chosen format and precision
// on stdout (every format says whether the totals are whole), then on stderr what could not be
// valued (the symbols with no quote, the quotes that cannot be right, the currencies with no rate
// and the pairs tried), or under --strict exit 3; then the --check verdict, decided on the exact
// valuation, exit 8 when one failed. When --strict and --check both fail, exit 3 wins, the failed
// checks reported with it, as for quotes (output/quotes-output.ts): a check decided on an incomplete
// valuation is not a verdict on the portfolio.
import { READABLE_RATE_DIGITS, valuationAt, type ExactPosition, type ExactValuation, type NoRoute, type PositionFacts, type Precision, type Valuation, type ValuePortfolioResult } from '../../api/index.js';
import type { CheckSet } from '../../render/checks/compile-checks.js';
import type { ValueFieldName } from '../../render/value-fields.js';
import type { Warning } from '../../shared/warnings.js';
import { renderPrices, type PriceFormat } from '../../render/price-directives.js';
import { VALUE_MODEL } from '../../render/value-model.js';
import { judgeChecks } from '../options/checks.js';
import type { Format } from '../options/format.js';
import { listSome, reportProblems, warnUnasked } from '../output/problems.js';
import type { Terminal } from '../output/terminal.js';
import { writeResource } from '../output/writer.js';

export interface WriteValuationOptions {
  format: Format;
  /** --fields, checked against the format; undefined: the format's own. */
  fields?: readonly ValueFieldName[];
  strict?: boolean;
  /** --check, compiled before any request against the file's currencies (valueModel). */
  checks?: CheckSet<ExactPosition, ExactValuation>;
  /** --format ledger or beancount: the prices the valuation used, instead of the valuation. */
  prices?: PriceFormat;
}

/**
 * Writes the valuation (result.valuation: for the table, asked for with its rates at
 * READABLE_RATE_DIGITS) and returns the exit code (or throws IncompleteError under --strict,
 * CheckFailedError for --check).
 */
export async function writeValuation(terminal: Terminal, result: ValuePortfolioResult, options: WriteValuationOptions): Promise<number> {
  // The exact valuation, for checks and the books' prices, read first: the positions are then
  // valued once, and the document written from it. Without either, `valuation` values and writes
  // each position in one pass, and nothing exact is held.
  const exact = options.checks === undefined && options.prices === undefined ? undefined : result.exact;
  const valued: ValuationOutcome = options.prices === undefined ? result.valuation : exact!;
  if (options.prices === undefined) await writeResource(terminal, VALUE_MODEL, result.valuation, { format: options.format, fields: options.fields });
  else terminal.stdout.write(renderPrices(exact!, result.quotes, options.prices, terminal.now()));
  // Every position has a row, valued or not: a check on one without a quote fails saying so.
  const failedChecks = options.checks === undefined ? undefined : judgeChecks(VALUE_MODEL, options.checks, exact!, undefined, terminal.now());
  warnUnasked(terminal, result.unasked);
  return reportProblems(terminal, valuationProblems(valued), options.strict,
    'the data above values what could be valued; without --strict, symbols with no quote, quotes that cannot be right and currencies with no rate are warnings and exit 0', failedChecks);
}

/** The valuation as a table shows it: at `precision`, its rates with at most 10 significant digits, each rounded from the exact rate. */
export function tableValuation(exact: ExactValuation, precision: Precision): Valuation {
  return valuationAt(exact, precision, { rateDigits: READABLE_RATE_DIGITS });
}

/** What the problems of a valuation, written or exact, are read from. */
type ValuationOutcome = Pick<Valuation, 'missing' | 'no_route' | 'unusable' | 'base'> & { positions: readonly Pick<PositionFacts, 'symbol' | 'currency' | 'status'>[] };

/** The problems of a valuation, in words: no quote, a quote that cannot be right, no rate (with the pairs tried), and what the totals leave out. */
export function valuationProblems(valuation: ValuationOutcome): Warning[] {
  const problems: Warning[] = [];
  if (valuation.missing.length > 0) {
    // The instruments asked for: cash (a row whose symbol is its currency) is not quoted.
    const instruments = valuation.positions.filter((position) => position.symbol !== position.currency && position.symbol.toUpperCase() !== position.currency);
    const symbols = new Set(instruments.map((position) => position.symbol.toUpperCase())).size;
    problems.push({ code: 'no_quote', message: `no quote for ${valuation.missing.length} of ${symbols} symbol${symbols === 1 ? '' : 's'}: ${listSome(valuation.missing)}` });
  }
  if (valuation.unusable.length > 0) {
    const count = valuation.unusable.length;
    problems.push({
      code: 'unusable_quotes',
      message: `${count} quote${count === 1 ? '' : 's'} that cannot be right, so not used: ${listSome(valuation.unusable.map(({ symbol, problems: what }) => `${symbol} (${what.join(', ')})`))}`,
    });
  }
  for (const route of valuation.no_route) problems.push({ code: 'no_rate', message: noRouteWords(route) });
  const left = valuation.positions.filter((position) => position.status !== 'ok').length;
  if (left > 0) {
    problems.push({ code: 'incomplete_totals', message: `the totals in ${valuation.base} are incomplete: they leave out ${left} of ${valuation.positions.length} position${valuation.positions.length === 1 ? '' : 's'}` });
  }
  return problems;
}

/** `no rate from CAD to EUR: tried CADEUR, ...; no quote for CADEUR, ...`. */
function noRouteWords(route: NoRoute): string {
  return `no rate from ${route.currency} to ${route.to}: tried ${route.tried.join(', ')}; no quote for ${route.missing.join(', ')}`;
}
