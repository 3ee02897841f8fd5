// Forms both the client and the sandbox check, so that they agree on what is valid.

/** `org_` and 1 to 64 of A-Z, a-z, 0-9, _ or -: wide enough for real ids, narrow enough to log safely. */
export const ORGANIZATION_PATTERN = /^org_[A-Za-z0-9_-]{1,64}$/;

/** How ORGANIZATION_PATTERN reads in a message. */
export const ORGANIZATION_FORM = 'org_<id>, <id> being 1 to 64 of A-Z, a-z, 0-9, _ or -';

/** The most characters in one symbol. */
export const MAX_SYMBOL_LENGTH = 32;

/**
 * What a spreadsheet takes for the start of a formula in a cell (OWASP's "CSV injection"; tab and
 * carriage return, which OWASP also lists, are no visible ASCII): no market's symbol starts with one,
 * so mkt refuses such a symbol wherever it reads one, and no CSV or TSV cell of its can start so.
 */
export const FORMULA_START = /^[=+\-@]/;

/** FORMULA_START as a rule, in words. */
export const FORMULA_RULE = 'no market\'s symbol starts with =, +, - or @';

/**
 * A symbol: 1 to 32 visible ASCII characters (no spaces, controls, or invisible Unicode), the first
 * not one of FORMULA_START's. The client, the CLI, the MCP tools and the sandbox all check it.
 */
export const SYMBOL_PATTERN = /^(?![=+\-@])[\x21-\x7e]{1,32}$/;

/** SYMBOL_PATTERN in words, after "a symbol is". */
export const SYMBOL_RULE = '1 to 32 visible ASCII characters (letters, digits and punctuation, no spaces), not starting with =, +, - or @';

/** Why `symbol`, which SYMBOL_PATTERN refuses, is no symbol, in words after "is not a symbol: ". */
export function symbolRule(symbol: string): string {
  return FORMULA_START.test(symbol) ? FORMULA_RULE : '1 to 32 visible ASCII characters, no spaces';
}

/** A venue or market center: 1 to 64 visible ASCII characters. */
export const VENUE_PATTERN = /^[\x21-\x7e]{1,64}$/;

/** An API key: `<client_id>.<client_secret>`, both parts non-empty, no spaces. */
export const API_KEY_PATTERN = /^[^.\s]+\.\S+$/;

/** A bearer token is visible ASCII (RFC 6750 §2.1): anything else would break the header, or a terminal. */
export const BEARER_TOKEN_PATTERN = /^[\x21-\x7e]+$/;
