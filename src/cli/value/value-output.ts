// What `mkt value` writes once the valuation is in: the document in the chosen format on stdout
// (every format says whether the totals are whole), then on stderr what could not be valued (the
// symbols with no quote, the currencies with no rate and the pairs tried), or under --strict exit 3;
// then the --check verdict, exit 8 when one failed. When --strict and --check both fail, exit 3
// wins, the failed checks reported with it, as for quotes (quotes-output.ts): a check decided on
// an incomplete valuation is not a verdict on the portfolio.
import type { NoRoute, Valuation, ValuePortfolioResult } from '../../api/index.js';
import type { CheckSet } from '../../render/checks/compile-checks.js';
import type { ValueFieldName, ValueRow } from '../../render/value-fields.js';
import type { Warning } from '../../shared/warnings.js';
import { VALUE_MODEL } from '../../render/value-model.js';
import { judgeChecks } from '../options/checks.js';
import type { Format } from '../options/format.js';
import { listSome, reportProblems, warnUnasked } from '../problems.js';
import type { Terminal } from '../terminal.js';
import { writeResource } from '../writer.js';

export interface WriteValuationOptions {
  format: Format;
  /** --fields, checked against the format; undefined: the format's own. */
  fields?: readonly ValueFieldName[];
  strict?: boolean;
  /** --check, compiled before any request against the file's currencies (valueModel). */
  checks?: CheckSet<ValueRow, Valuation>;
}

/** Writes the valuation and returns the exit code (or throws IncompleteError under --strict, CheckFailedError for --check). */
export async function writeValuation(terminal: Terminal, result: ValuePortfolioResult, options: WriteValuationOptions): Promise<number> {
  const { valuation } = result;
  await writeResource(terminal, VALUE_MODEL, valuation, { format: options.format, fields: options.fields });
  // Every position has a row, valued or not: a check on one without a quote fails saying so.
  const failedChecks = judgeChecks(VALUE_MODEL, options.checks, valuation, undefined, terminal.now());
  warnUnasked(terminal, result.unasked);
  return reportProblems(terminal, valuationProblems(result), options.strict,
    'the data above values what could be valued; without --strict, symbols with no quote and currencies with no rate are warnings and exit 0', failedChecks);
}

/** The problems of a valuation, in words: no quote, no rate (with the pairs tried), and what the totals leave out. */
function valuationProblems({ valuation }: Pick<ValuePortfolioResult, 'valuation'>): Warning[] {
  const problems: Warning[] = [];
  if (valuation.missing.length > 0) {
    // The instruments asked for: cash (a row whose symbol is its currency) is not quoted.
    const instruments = valuation.positions.filter((position) => position.symbol !== position.currency && position.symbol.toUpperCase() !== position.currency);
    const symbols = new Set(instruments.map((position) => position.symbol.toUpperCase())).size;
    problems.push({ code: 'no_quote', message: `no quote for ${valuation.missing.length} of ${symbols} symbol${symbols === 1 ? '' : 's'}: ${listSome(valuation.missing)}` });
  }
  for (const route of valuation.no_route) problems.push({ code: 'no_rate', message: noRouteWords(route) });
  const left = valuation.positions.filter((position) => position.status !== 'ok').length;
  if (left > 0) {
    problems.push({ code: 'incomplete_totals', message: `the totals in ${valuation.base} are incomplete: they leave out ${left} of ${valuation.positions.length} position${valuation.positions.length === 1 ? '' : 's'}` });
  }
  return problems;
}

/** `no rate from CAD to EUR: tried CADEUR, ...; no usable quote for CADEUR, ...` (a usable quote has a mid above zero). */
function noRouteWords(route: NoRoute): string {
  return `no rate from ${route.currency} to ${route.to}: tried ${route.tried.join(', ')}; no usable quote for ${route.missing.join(', ')}`;
}
