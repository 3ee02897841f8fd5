// check_quotes: `mkt quotes --check` for an agent. The checks are compiled before any request
// (a malformed one, an unknown field or a symbol not asked for is an error naming it), then decided
// exactly on the quotes by the checks engine (render/checks/): the verdict, each check with the value
// it was decided on for each symbol, and the quotes themselves. A check that does not hold is an
// answer, not an error.
import { unusableBySymbol, type Quote } from '../../api/index.js';
import type { CheckSubject } from '../../render/checks/check-model.js';
import { reportFailures } from '../../render/checks/check-report.js';
import { compileChecks, type CheckSet } from '../../render/checks/compile-checks.js';
import { decideCheck, indexRows, type CheckFailure } from '../../render/checks/evaluate-checks.js';
import { QUOTE_CHECK_MODEL } from '../../render/checks/quote-check-model.js';
import { QUOTE_SENT_FIELDS } from '../../render/quote-fields.js';
import { checkSymbols, checkVenue, QUOTES_INPUTS, quotesDocument } from './get-quotes-tool.js';
import { MISSING, QUOTE, READ_ONLY, SERVICE_TOOL, SYMBOLS, UNASKED, UNUSABLE, VENUE, WARNINGS } from './schemas.js';
import { z, type McpServer } from './sdk.js';
import { answerCall, type McpSession } from './tool-call.js';
import { toolExplainer } from './tool-hints.js';

const FIELDS = QUOTE_CHECK_MODEL.fields.map((field) => field.name);

const RESULT = z.looseObject({
  symbol: z.string().describe('the symbol the check was decided for'),
  held: z.boolean(),
  actual: z.string().nullable().describe('the value it was decided on: a decimal string, or whole milliseconds for age; null when the symbol has no quote or no value'),
  reason: z.enum(['not_met', 'no_row', 'no_value']).optional()
    .describe('why it failed: not_met (the value does not meet the condition), no_row (no quote for the symbol), no_value (the quote has no value for the field)'),
  message: z.string().optional().describe('the failure in words, as mkt quotes --check reports it'),
});

const CHECK = z.looseObject({
  expression: z.string().describe('the check, as given'),
  field: z.string(),
  kind: z.enum(['decimal', 'duration']).describe('decimal: expected and actual are decimal strings; duration: whole milliseconds'),
  op: z.enum(['<', '<=', '>', '>=', '==', '!=']),
  expected: z.string().describe('the value compared with: a decimal string, or whole milliseconds'),
  held: z.boolean().describe('true when it held for every symbol it applies to'),
  results: z.array(RESULT).describe('one per symbol the check applies to, in the order asked'),
});

export function registerCheckQuotes(server: McpServer, session: McpSession): void {
  server.registerTool('check_quotes', {
    title: 'Check quotes',
    description: `Decides conditions on the latest quotes exactly, as \`mkt quotes --check\` does, e.g. "EURUSD.bid > 1.0842", "spread_bps < 5", "age < 30s". A check is [SYMBOL.]FIELD OP VALUE: FIELD one of ${FIELDS.join(', ')} (spread = ask - bid; spread_bps = spread / mid × 10,000, rounded half-even to 20 significant digits; age = now - timestamp), OP one of < <= > >= == !=, VALUE a decimal (a duration with its unit, such as 30s or 500ms, for age). Without SYMBOL, a check applies to every symbol asked for, and fails for one with no quote. Comparisons are exact decimal arithmetic, never floating point. Returns held (true when every check held), each check with the value it was decided on for each symbol, and the quotes. A check that does not hold is an answer (held: false), not an error; a malformed check, an unknown field or a symbol not among those asked for is an error, before any request. ${READ_ONLY}.`,
    inputSchema: z.strictObject({
      symbols: SYMBOLS,
      checks: z.array(z.string()).min(1).describe('the checks, all of which must hold, e.g. ["EURUSD.bid > 1.0842", "spread_bps < 5"]'),
      venue: VENUE,
    }),
    outputSchema: z.looseObject({
      held: z.boolean().describe('the verdict: true when every check held'),
      message: z.string().describe('the verdict in words: "all 2 checks held", "1 of 2 checks failed"'),
      checks: z.array(CHECK).describe('every check, in the order given'),
      data: z.array(QUOTE).describe(`the quotes the checks were decided on, in the order asked: ${QUOTE_SENT_FIELDS.join(', ')}`),
      missing: MISSING,
      unasked: UNASKED,
      unusable: UNUSABLE,
      warnings: WARNINGS,
    }),
    annotations: { title: 'Check quotes', ...SERVICE_TOOL },
  }, (input, extra) => answerCall(session, extra, async (call) => {
    const symbols = checkSymbols(input.symbols);
    const venue = checkVenue(input.venue);
    // Refused before any request, as mkt quotes refuses a --check.
    const set = compileChecks(input.checks, QUOTE_CHECK_MODEL, { flag: 'check', keys: symbols });
    call.state.explain = toolExplainer(call.deps, session.flags, symbols.length, QUOTES_INPUTS);
    const client = await call.client();
    const result = await client.getQuotes({ symbols, venue });
    return { ...verdictOf(set, result.data, symbols, call.deps.now(), unusableBySymbol(result.unusable)), ...quotesDocument(result, QUOTE_SENT_FIELDS, call) };
  }));
}

/** Every check decided on `quotes`: the verdict, and each check with its value for each symbol, in the order asked. */
function verdictOf(set: CheckSet<Quote>, quotes: readonly Quote[], symbols: readonly string[], now: number, unusable: ReadonlyMap<string, string>) {
  const subject: CheckSubject<Quote> = { rows: quotes, keys: symbols, unusable };
  const rowsByKey = indexRows(set, quotes);
  const order = (symbol: string | null) => (symbol === null ? -1 : symbols.indexOf(symbol));
  const report = (failures: CheckFailure<Quote>[], failed: number, total: number) =>
    reportFailures({ failures, failed, total }, { prefix: 'check failed', rowNoun: QUOTE_CHECK_MODEL.rowNoun });
  const all: CheckFailure<Quote>[] = [];
  let failed = 0;
  const checks = set.checks.map((check) => {
    const decided = decideCheck(set, check, subject, rowsByKey, now);
    all.push(...decided.failures);
    if (decided.failures.length > 0) failed++;
    const results = [
      ...decided.held.map((value) => ({ symbol: value.key, held: true, actual: value.actual })),
      ...report(decided.failures, 1, 1).checks.map((failure) => ({
        symbol: failure.symbol ?? '', held: false, actual: failure.actual, reason: failure.reason, message: failure.message,
      })),
    ].sort((a, b) => order(a.symbol) - order(b.symbol));
    const expected = check.bound.kind === 'duration' ? String(check.bound.ms) : check.expected;
    return { expression: check.expression, field: check.field.name, kind: check.bound.kind, op: check.op, expected, held: decided.failures.length === 0, results };
  });
  const total = checks.length;
  const message = failed === 0 ? `${total === 1 ? 'the check' : `all ${total} checks`} held` : report(all, failed, total).message;
  return { held: failed === 0, message, checks };
}
