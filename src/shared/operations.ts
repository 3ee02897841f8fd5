// The service's data operations as the library and the sandbox both read them, one descriptor each:
// the path and method, the scope a token needs, the list the operation takes (the rule an item
// must meet, and whether no list at all means every item or is refused), its other parameters and
// their rules, and what one item of its answer is called. The sandbox reads a request's query by it
// (src/sandbox/list-query.ts) and has a route for each (src/sandbox/market-routes.ts, which the
// compiler holds to this list); the library checks a call's input and builds its request by it, and
// binds it to the reader of its items and to the types docs/openapi.yaml gives them
// (src/api/data-operation.ts). test/shared/operations.test.ts holds each one to the document.
import { FORMULA_RULE, FORMULA_START, MAX_SYMBOL_LENGTH, SYMBOL_PATTERN, SYMBOL_RULE, VENUE_PATTERN } from './patterns.js';

/** What one value of a parameter, or one item of a list, must be: as a check, and in words. */
export interface ValueRule {
  /** One value, in messages: `symbol`, `venue`. Its plural adds an s. */
  noun: string;
  pattern: RegExp;
  /** The rule in words, after "a symbol is": `1 to 32 visible ASCII characters`. */
  rule: string;
  /** A value for the example in a message: `EURUSD`. */
  example: string;
  /** What the library's message for a bad value suggests; `a <noun> is <rule>` when not given. */
  hint?: string;
  /**
   * Why `value` breaks the rule, after its name (`contains a control character`), or undefined when
   * it does not: what `pattern` decides, in the words a 400 gives.
   */
  problem(value: string): string | undefined;
}

/** The list an operation takes: `symbols=EURUSD,AAPL`, an array in the library. */
interface ListParameter {
  /** The query parameter, and the library's input: `symbols`. */
  name: string;
  items: ValueRule;
  /**
   * What no list means, or an empty one (`venues=`, `[]`): every item there is (`all`), or nothing
   * to answer, a 400 from the service and an OptionsError from the library before any request
   * (`refused`).
   */
  empty: 'all' | 'refused';
  /** The most distinct items one request may name. */
  maxItems: number;
  /** The parameter's value in a message's example: `EURUSD,AAPL`. */
  example: string;
}

export interface DataOperation {
  method: 'GET';
  /** From the service's root: `/v1/market/quotes`. */
  path: string;
  /** The scope a token needs. */
  scope: string;
  /** One item of the answer's `data`, in messages: `quote`. */
  noun: string;
  list: ListParameter;
  /** Its other query parameters, one value each, every one optional. */
  params: Readonly<Record<string, ValueRule>>;
}

/**
 * A rule of 1 to `max` visible ASCII characters, as `pattern` says; problem() names the first thing
 * wrong (the length, then a control or another character).
 */
function visibleAscii(rule: Pick<ValueRule, 'noun' | 'pattern' | 'example' | 'hint'>, max: number): ValueRule {
  return {
    ...rule,
    rule: `1 to ${max} visible ASCII characters`,
    problem(value) {
      if (value === '') return 'is empty';
      if (value.length > max) return `is longer than ${max} characters`;
      for (let i = 0; i < value.length; i++) {
        const c = value.charCodeAt(i);
        if (c < 0x20 || c === 0x7f) return 'contains a control character';
        if (c > 0x7e || c === 0x20) return 'contains a character other than visible ASCII';
      }
      return undefined;
    },
  };
}

const asciiSymbol = visibleAscii({ noun: 'symbol', pattern: /^[\x21-\x7e]{1,32}$/, example: 'EURUSD' }, MAX_SYMBOL_LENGTH);

/** A symbol: 1 to 32 visible ASCII characters, not starting with =, +, - or @ (patterns.ts: SYMBOL_PATTERN). */
export const SYMBOL: ValueRule = {
  ...asciiSymbol,
  pattern: SYMBOL_PATTERN,
  rule: SYMBOL_RULE,
  problem(value) {
    if (value.length > MAX_SYMBOL_LENGTH) return asciiSymbol.problem(value);
    return FORMULA_START.test(value) ? `starts with ${value[0]}: ${FORMULA_RULE}` : asciiSymbol.problem(value);
  },
};

/**
 * A venue or market center: 1 to 64 visible ASCII characters. The one venue rule, the library's
 * and the sandbox's: which venues exist is the service's to say (the sandbox answers from its
 * catalogue), not a pattern's.
 */
export const VENUE = visibleAscii({ noun: 'venue', pattern: VENUE_PATTERN, example: 'XNAS' }, 64);

/** Every data operation, by its operationId in docs/openapi.yaml. */
export const DATA_OPERATIONS = {
  getQuotes: {
    method: 'GET', path: '/v1/market/quotes', scope: 'market.read', noun: 'quote',
    // Nothing to quote without symbols: the service has no "every quote".
    list: { name: 'symbols', items: SYMBOL, empty: 'refused', maxItems: 100, example: 'EURUSD,AAPL' },
    params: { venue: VENUE },
  },
} as const satisfies Record<string, DataOperation>;

export type DataOperations = typeof DATA_OPERATIONS;
export type DataOperationId = keyof DataOperations;
