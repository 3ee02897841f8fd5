// The batches' quotes put back in the order the symbols were asked for. The service returns quotes
// "for the supported symbols requested" (the spec): a quote for a symbol not asked for is left out
// of the data, its symbol listed in `unasked` for the caller to mention. Then each quote is judged,
// once (quote-checks.ts): those that cannot be right are listed in `unusable`, with what is wrong,
// and so is a symbol sent twice at different prices; sent twice at the same prices, it is one quote.
import { quoteProblems, symbolProblems } from './quote-checks.js';
import type { Quote, QuotesResult, RateLimitInfo, UnusableQuote } from './types.js';

/**
 * Where mergeBatches put each asked symbol's first quote: a valuation's quote book reads it (fx.ts:
 * indexedQuoteBook) rather than putting 10,000 quotes in a map of its own.
 */
export interface QuoteIndex {
  /** Each symbol asked for, upper-cased, and its place among them. */
  place: ReadonlyMap<string, number>;
  /** The first quote of the symbol at each place; undefined for one with none. */
  first: readonly (Quote | undefined)[];
}

export interface BatchResult {
  quotes: Quote[];
  attempts: number;
  rateLimit: RateLimitInfo | undefined;
}

/**
 * Each requested symbol's quotes, in the order asked; the symbols asked for that none came for in
 * `missing`; those of quotes for symbols not asked for in `unasked`, each once, in the order they
 * came. Nearly every symbol gets exactly one quote, so that one goes into its requested place and
 * only a second quote for the same symbol starts a list. Exported for tests; not part of the library.
 */
export function mergeBatches(symbols: readonly string[], batches: readonly BatchResult[], now?: number): QuotesResult {
  return mergeIndexed(symbols, batches, now).result;
}

/** mergeBatches' result, and the index it was put in order by. */
export function mergeIndexed(symbols: readonly string[], batches: readonly BatchResult[], now?: number): { result: QuotesResult; index: QuoteIndex } {
  const asked: string[] = [];
  const place = new Map<string, number>();
  for (const symbol of symbols) {
    const key = symbol.toUpperCase();
    if (!place.has(key)) place.set(key, asked.push(symbol) - 1);
  }
  const first: (Quote | undefined)[] = new Array(asked.length).fill(undefined);
  const more = new Map<number, Quote[]>();
  const unasked = new Map<string, string>();
  for (const batch of batches) {
    for (const quote of batch.quotes) {
      const key = quote.symbol.toUpperCase();
      const at = place.get(key);
      if (at === undefined) {
        if (!unasked.has(key)) unasked.set(key, quote.symbol);
      } else if (first[at] === undefined) {
        first[at] = quote;
      } else {
        const list = more.get(at);
        if (list === undefined) more.set(at, [quote]);
        else list.push(quote);
      }
    }
  }
  const data: Quote[] = [];
  const missing: string[] = [];
  const unusable: UnusableQuote[] = [];
  for (let at = 0; at < asked.length; at++) {
    const quote = first[at];
    if (quote === undefined) {
      missing.push(asked[at]!);
      continue;
    }
    data.push(quote);
    const others = more.get(at);
    if (others !== undefined) data.push(...others);
    const problems = others === undefined ? quoteProblems(quote, now) : symbolProblems(quote, others, now);
    if (problems.length > 0) unusable.push({ symbol: quote.symbol, problems });
  }
  const attempts = batches.reduce((sum, batch) => sum + batch.attempts, 0);
  const result = { data, missing, unasked: [...unasked.values()], unusable, requests: batches.length, attempts, rateLimit: batches.at(-1)?.rateLimit };
  return { result, index: { place, first } };
}
