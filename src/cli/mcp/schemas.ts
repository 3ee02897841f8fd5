// What the tools' schemas share: prices and amounts as decimal strings, quotes, the symbols asked
// for, and the read-only promise in each tool's annotations. Output objects are loose (members may
// be added later, as `mkt status --json`'s are), input objects strict (a misspelt argument is
// refused, not ignored).
import { QUOTE_SENT_FIELDS } from '../../render/quote-fields.js';
import { z, type ToolAnnotations } from './sdk.js';

/** A decimal in JSON's number syntax, as the service sends prices and as mkt computes amounts. */
const DECIMAL_TEXT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** An exact decimal as a string: no JSON reader rounds it to a double. */
export function decimal(description: string) {
  return z.string().regex(DECIMAL_TEXT).describe(`${description}; a decimal string, exact (compare and compute it as a decimal, not a float)`);
}

/** A quote, with the fields asked for (all five unless `fields` says). */
export const QUOTE = z.looseObject({
  symbol: z.string().optional(),
  bid: decimal('the bid, every digit as the service sent it').optional(),
  ask: decimal('the ask, every digit as the service sent it').optional(),
  mid: decimal('the mid, every digit as the service sent it').optional(),
  timestamp: z.string().describe('when the service priced it, ISO 8601 as sent').optional(),
});

export const SYMBOLS = z.array(z.string()).min(1)
  .describe('the symbols, e.g. ["EURUSD", "AAPL"]: FX pairs as six letters, equities by ticker; case does not matter, repeats are asked once');

export const VENUE = z.string().optional().describe('only quotes from this venue or market center, e.g. XNAS (1 to 64 visible ASCII characters)');

/** The fields every format of `mkt quotes` writes: the ones the service sends. */
export const QUOTE_FIELD = z.enum(QUOTE_SENT_FIELDS as [string, ...string[]], {
  error: (issue) => `unknown field ${JSON.stringify(issue.input)}; valid fields: ${QUOTE_SENT_FIELDS.join(', ')}`,
});

/** Symbols the service answered for without being asked: left out of the quotes, as mkt quotes leaves them out. */
export const UNASKED = z.array(z.string()).describe('symbols the service sent quotes for without being asked (left out of data)');
export const MISSING = z.array(z.string()).describe('symbols asked for that the service sent no quote for');
export const UNUSABLE = z.array(z.strictObject({ symbol: z.string(), problems: z.array(z.string()) }))
  .describe('quotes that cannot be right, each with what is wrong: they stay in data as sent, and a check on one fails');
/** What a result leaves out, and why; present only when it leaves something out. */
export const WARNINGS = z.array(z.string()).optional()
  .describe('what the result leaves out, and why: "1 unasked symbol withheld: it holds the credential" (text from the service that holds the token is never passed on)');

/** A tool that asks the Market Data Service, and changes nothing. */
export const SERVICE_TOOL: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, openWorldHint: true };
/** A tool that reads mkt's settings on this machine, sends nothing, and changes nothing. */
export const LOCAL_TOOL: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, openWorldHint: false };

/** The read-only promise, in every tool's description. */
export const READ_ONLY = 'Read-only: it never logs in, logs out or changes mkt\'s settings';
