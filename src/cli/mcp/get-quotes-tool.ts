// get_quotes: `mkt quotes --json` for an agent. The quotes in the order asked, with the fields asked
// for (read through quotes' one declaration, render/quote-fields.ts), every price a decimal string.
import type { Quote, QuotesResult } from '../../api/index.js';
import { QUOTE_FIELDS, QUOTE_SENT_FIELDS, type QuoteFieldName } from '../../render/quote-fields.js';
import { VENUE_PATTERN } from '../../shared/patterns.js';
import { UsageError } from '../errors/errors.js';
import { normalizeSymbols } from '../options/symbols.js';
import { MISSING, QUOTE, QUOTE_FIELD, READ_ONLY, SERVICE_TOOL, SYMBOLS, UNASKED, UNUSABLE, VENUE, WARNINGS } from './schemas.js';
import { z, type McpServer } from './sdk.js';
import { answerCall, type McpSession, type ToolCall } from './tool-call.js';
import { toolExplainer } from './tool-hints.js';

export function registerGetQuotes(server: McpServer, session: McpSession): void {
  server.registerTool('get_quotes', {
    title: 'Get quotes',
    description: `The latest quotes (bid, ask, mid, timestamp) from the Market Data Service, as \`mkt quotes --json\` gets them, with every digit the service sent: each price is a decimal string ("1.084150000000000001"), never rounded; compare and compute with prices as decimals, not floats. Returns the quotes in the order asked (data), the symbols the service has no quote for (missing), the symbols it answered for without being asked (unasked, left out of data), and the quotes that cannot be right (unusable: a price not above zero or out of range, a mid outside bid..ask, a timestamp that is impossible or ahead of the clock, a symbol sent twice at different prices), which stay in data as sent and should not be used. Each call spends one request of the organization's rate limit per 100 symbols. ${READ_ONLY}.`,
    inputSchema: z.strictObject({
      symbols: SYMBOLS,
      venue: VENUE,
      fields: z.array(QUOTE_FIELD).min(1).optional()
        .describe(`the fields of each quote, in this order (default: all of ${QUOTE_SENT_FIELDS.join(', ')})`),
    }),
    outputSchema: z.looseObject({
      data: z.array(QUOTE).describe('the quotes, in the order asked, each with the fields asked for'),
      missing: MISSING,
      unasked: UNASKED,
      unusable: UNUSABLE,
      warnings: WARNINGS,
    }),
    annotations: { title: 'Get quotes', ...SERVICE_TOOL },
  }, (input, extra) => answerCall(session, extra, async (call) => {
    const symbols = checkSymbols(input.symbols);
    const venue = checkVenue(input.venue);
    const fields = checkFields(input.fields as QuoteFieldName[] | undefined);
    call.state.explain = toolExplainer(call.deps, session.flags, symbols.length, QUOTES_INPUTS);
    const client = await call.client();
    const result = await client.getQuotes({ symbols, venue });
    return quotesDocument(result, fields, call);
  }));
}

/** What a 400 from the service may be about, in a quotes tool's arguments. */
export const QUOTES_INPUTS = 'the symbols and venue arguments';

/** The symbols as `mkt quotes` reads its arguments: split at commas, trimmed, upper-cased, each once, checked. */
export function checkSymbols(raw: readonly string[]): string[] {
  const symbols = normalizeSymbols(raw.flatMap((item) => item.split(',')));
  if (symbols.length === 0) throw new UsageError('no symbols given', 'name them in symbols, e.g. ["EURUSD", "AAPL"]');
  return symbols;
}

export function checkVenue(raw: string | undefined): string | undefined {
  const venue = raw?.trim();
  if (venue !== undefined && !VENUE_PATTERN.test(venue)) throw new UsageError('venue must be 1 to 64 visible ASCII characters, e.g. XNAS');
  return venue;
}

function checkFields(fields: readonly QuoteFieldName[] | undefined): readonly QuoteFieldName[] {
  if (fields === undefined) return QUOTE_SENT_FIELDS;
  const twice = fields.find((field, i) => fields.indexOf(field) !== i);
  if (twice !== undefined) throw new UsageError(`fields: ${twice} is given twice`, `valid fields: ${QUOTE_SENT_FIELDS.join(', ')}`);
  return fields;
}

/**
 * What `mkt quotes --json` writes, and the symbols not asked for; each quote with `fields`, in order.
 * The symbols not asked for are the one text the service chooses freely here (the data's symbols are
 * those asked for, its timestamps instants by form, its prices numbers, never scanned): one that holds
 * a credential of the call's (a service that echoes the bearer token as a symbol) is withheld, and
 * counted in `warnings`, since a result lands in the agent's context.
 */
export function quotesDocument(result: QuotesResult, fields: readonly QuoteFieldName[], call: Pick<ToolCall, 'deps' | 'holdsSecret' | 'warn'>) {
  const now = call.deps.now();
  const pick = (quote: Quote) => Object.fromEntries(fields.map((name) => [name, QUOTE_FIELDS[name].read(quote, now)]));
  const unusable = result.unusable.map(({ symbol, problems }) => ({ symbol, problems: [...problems] }));
  const sent = result.unasked ?? [];
  const unasked = sent.filter((symbol) => !call.holdsSecret(symbol));
  const withheld = sent.length - unasked.length;
  if (withheld === 0) return { data: result.data.map(pick), missing: [...result.missing], unasked, unusable };
  const warning = `${withheld} unasked symbol${withheld === 1 ? '' : 's'} withheld: ${withheld === 1 ? 'it holds' : 'they hold'} the credential`;
  call.warn(warning);
  return { data: result.data.map(pick), missing: [...result.missing], unasked, unusable, warnings: [warning] };
}
