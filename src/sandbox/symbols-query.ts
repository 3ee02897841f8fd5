// The query of a data route that takes symbols (quotes): `symbols` (required, at most maxSymbols),
// and the optional parameters the route allows, read by parseListQuery (list-query.ts).
import { FORMULA_RULE, FORMULA_START, MAX_SYMBOL_LENGTH } from '../shared/patterns.js';
import { parseListQuery } from './list-query.js';

export { MAX_SYMBOL_LENGTH };

/**
 * A symbol is 1 to 32 visible ASCII characters, not starting with =, +, - or @ (the client's rule,
 * shared/patterns.ts); the reason it is not, or undefined.
 */
function symbolProblem(symbol: string, position: number): string | undefined {
  if (symbol.length > MAX_SYMBOL_LENGTH) return `symbol ${position} is longer than ${MAX_SYMBOL_LENGTH} characters`;
  if (FORMULA_START.test(symbol)) return `symbol ${position} starts with ${symbol[0]}: ${FORMULA_RULE}`;
  for (let i = 0; i < symbol.length; i++) {
    const c = symbol.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return `symbol ${position} contains a control character`;
    if (c > 0x7e || c === 0x20) return `symbol ${position} contains a character other than visible ASCII`;
  }
  return undefined;
}

/** `symbols` and the `optional` parameters of `query`; a Reject (400) for the first problem. */
export function parseSymbolsQuery<O extends string = never>(query: string, maxSymbols: number, optional: readonly O[] = []): { symbols: string[]; params: Partial<Record<O, string>> } {
  const { items, params } = parseListQuery(query, {
    name: 'symbols', required: true, maxItems: maxSymbols, noun: 'symbol', example: 'EURUSD,AAPL', item: symbolProblem, optional,
  });
  return { symbols: items, params };
}
