// value_portfolio: `mkt value --json` for an agent. Positions as objects, read digit for digit by
// the library (positionsFromObjects), valued against live quotes in a base currency: the document
// `mkt value --json` writes, member for member and in its order (through the valuation's one
// declaration, render/value-model.ts), every amount a decimal string.
import { MAX_PRECISION_PLACES, positionsFromObjects, PRICE_RULES, valuationSymbols, type PriceRule } from '../../api/index.js';
import { fieldsOf } from '../../render/fields.js';
import { defaultValueFields } from '../../render/value-fields.js';
import { VALUE_MODEL } from '../../render/value-model.js';
import { jsonDocument } from './json-document.js';
import { MAX_POSITIONS } from '../../shared/limits.js';
import { decimal, READ_ONLY, SERVICE_TOOL } from './schemas.js';
import { z, type McpServer } from './sdk.js';
import { answerCall, type McpSession } from './tool-call.js';
import { toolExplainer } from './tool-hints.js';

/**
 * A quantity or a cost: a decimal string, or an integer. Any other JSON number is refused: the
 * request's JSON has been read into doubles on the way (1.084150000000000001 arrives as 1.08415).
 */
const AMOUNT = z.union([z.string(), z.number().int()], {
  // Said by what was given: none at all, a number a double may have rounded, or something else.
  error: (issue) => (issue.input === undefined
    ? 'required: a decimal string, such as "10.5"'
    : typeof issue.input === 'number'
      ? 'give a decimal string, such as "0.25": a JSON number with a fraction, or past 2^53, may have lost digits to a double on the way'
      : 'must be a decimal string, such as "0.25", or a whole JSON number'),
});

const POSITION = z.strictObject({
  symbol: z.string().describe('the instrument, e.g. AAPL, or a currency code equal to `currency` for cash'),
  quantity: AMOUNT.describe('a decimal string such as "10.5" (negative: a short); a whole number may be a JSON integer'),
  currency: z.string().optional().describe('the currency the instrument is quoted in: an ISO 4217 code, or GBX (pence) and the other minor units; default: the call\'s currency'),
  cost: AMOUNT.optional().describe('the average cost per unit, in `currency`, as a decimal string'),
  cost_total: AMOUNT.optional().describe('instead of cost: the lot\'s total cost (a broker\'s cost basis), in `currency`; its cost per unit is cost_total / quantity'),
});

const NULLABLE = (description: string) => decimal(description).nullable();

const VALUED = z.looseObject({
  symbol: z.string(),
  quantity: decimal('the quantity, as given'),
  currency: z.string(),
  price: NULLABLE('the price used (1 for cash); null with no quote'),
  value: NULLABLE('price × quantity, in currency, at the precision; null with no quote'),
  value_base: NULLABLE('value × the rate of currency in the base (fx), at the precision; null with no quote or no route'),
  cost: NULLABLE('the cost per unit, as given, or cost_total / quantity; null when none was'),
  cost_total: NULLABLE('the lot\'s total cost, as given; null when none was'),
  pnl: NULLABLE('(price - cost) × quantity, in currency; null with no cost or no quote'),
  pnl_base: NULLABLE('pnl × the rate of currency in the base; null with no cost, no quote or no route'),
  status: z.enum(['ok', 'missing', 'no_route', 'unusable']).describe('ok; missing: no quote for the symbol; no_route: no FX rate from its currency to the base; unusable: its quote, or the quote of the FX pair its rate comes from, cannot be right (see reason)'),
  timestamp: z.string().nullable().describe('the timestamp of the instrument\'s quote, as the service wrote it; null for cash and with no quote'),
  reason: z.string().nullable().describe('for unusable: which quote cannot be right, and why; null otherwise'),
});

const VALUATION = z.looseObject({
  base: z.string().describe('the base currency'),
  price: z.enum(PRICE_RULES as [PriceRule, ...PriceRule[]]).describe('the price rule used'),
  precision: z.union([z.enum(['minor', 'full']), z.number().int()]).describe('how the computed figures are written: full (exact, or 34 significant digits), minor (each currency\'s ISO 4217 minor units), or that many decimal places'),
  as_of: z.string().nullable().describe('the oldest timestamp of a quote the valuation used, as the service wrote it; null when it used none'),
  positions: z.array(VALUED).describe('one per input position, in input order'),
  total_base: decimal('the exact sum of every value_base, rounded once at the precision: the portfolio in the base currency'),
  total_pnl_base: NULLABLE('the exact sum of every pnl_base, rounded once at the precision; null when no P&L is known'),
  incomplete: z.boolean().describe('true when a position has no quote, no route or an unusable quote: the totals leave it out'),
  missing: z.array(z.string()).describe('symbols with no quote: their positions are left out of the totals'),
  no_route: z.array(z.looseObject({ currency: z.string(), to: z.string(), tried: z.array(z.string()), missing: z.array(z.string()) }))
    .describe('currencies with no FX rate to the base, and the pairs tried'),
  unusable: z.array(z.looseObject({ symbol: z.string(), problems: z.array(z.string()) }))
    .describe('quotes the valuation needed that cannot be right, and why: the positions priced or converted by them are not valued'),
  totals: z.array(z.looseObject({
    currency: z.string(),
    positions: z.number().int(),
    value: decimal('the sum of the values in this currency'),
    value_base: NULLABLE('the sum of their value_base; null with no route to the base'),
    pnl: decimal('the sum of their pnl').optional(),
    pnl_base: NULLABLE('the sum of their pnl_base').optional(),
    incomplete: z.boolean().describe('true when a position in this currency is left out'),
  })).describe('one per currency, in the order first seen'),
  fx: z.array(z.looseObject({
    from: z.string(), to: z.string(), rate: decimal('one `from` in `to`'), method: z.enum(['direct', 'inverse', 'cross']),
    pairs: z.array(z.string()), timestamps: z.array(z.string()).describe('each pair\'s quote\'s timestamp, in the order of pairs'),
    formula: z.string(), rounded: z.boolean().describe('true when the rate written is not the exact rate: rounded at the precision'),
  })).describe('the FX rates used, from the pairs\' mids'),
});

/** The members of a position `mkt value --json` writes (no `rate`: fx and totals give each currency's). */
const POSITION_FIELDS = fieldsOf(VALUE_MODEL, defaultValueFields('json')!);

export function registerValuePortfolio(server: McpServer, session: McpSession): void {
  server.registerTool('value_portfolio', {
    title: 'Value a portfolio',
    description: `Values positions exactly in a base currency from live quotes, as \`mkt value --json\` does: each position's price (mid, bid, ask, or side: a long at the bid and a short at the ask), value (price × quantity), value_base (converted at the mid of an FX pair such as EURUSD: direct, inverse, or a cross through USD), and P&L where a cost is given; totals per currency, and total_base. Every amount is a decimal string, computed exactly (an inverse or cross FX rate is an exact quotient) and rounded once, half-even, where it is written: at precision full by default (the exact value, or 34 significant digits), minor (each currency's ISO 4217 minor units: USD 2, JPY 0), or a number of decimal places; a total is the exact total rounded once, not a sum of rounded rows. Positions with no quote are listed in missing, currencies with no route to the base in no_route, quotes that cannot be right in unusable (their positions are not valued); then incomplete is true and the totals leave them out. It asks the service for every symbol and FX pair needed, once. ${READ_ONLY}.`,
    inputSchema: z.strictObject({
      positions: z.array(POSITION).min(1).max(MAX_POSITIONS).describe('the positions, as mkt value reads a JSON file: [{"symbol": "AAPL", "quantity": "10", "currency": "USD", "cost": "150.25"}]; several for one symbol are separate lots'),
      base: z.string().describe('the currency to value in, e.g. USD, EUR, GBP'),
      price: z.enum(PRICE_RULES as [PriceRule, ...PriceRule[]]).optional().describe('which price values an instrument (default mid)'),
      currency: z.string().optional().describe('the currency of positions that name none; without it, each position needs its own'),
      precision: z.union([z.enum(['minor', 'full']), z.number().int().min(0).max(MAX_PRECISION_PLACES)]).optional()
        .describe(`how the computed figures are written: full (the default, as mkt value --json), minor (each currency's minor units), or 0 to ${MAX_PRECISION_PLACES} decimal places`),
    }),
    outputSchema: VALUATION,
    annotations: { title: 'Value a portfolio', ...SERVICE_TOOL },
  }, (input, extra) => answerCall(session, extra, async (call) => {
    const inputs = 'the positions\' symbols and the base argument';
    // Read and checked before any request, as mkt value reads a file; its refusals in the tool's words too.
    call.state.explain = toolExplainer(call.deps, session.flags, input.positions.length, inputs);
    const positions = positionsFromObjects(input.positions, { source: 'positions', defaultCurrency: input.currency });
    call.state.explain = toolExplainer(call.deps, session.flags, valuationSymbols(positions, input.base).length, inputs);
    const { valuation } = await (await call.client()).valuePortfolio({ positions, base: input.base, price: input.price, precision: input.precision ?? 'full' });
    return jsonDocument(valuation, VALUE_MODEL.document, POSITION_FIELDS, call.deps.now());
  }));
}

