// Client.valuePortfolio: positions valued against live quotes in one call. Round 1 asks for every
// instrument and both direct pairs of each foreign currency (valuation-plan.ts), and the symbols a
// caller names in `prefetch` (the cross legs an earlier valuation of the same positions needed: a
// watch fetches each later poll in one round); only when a currency still has no rate, round 2 asks
// for the legs of a cross through USD. Both rounds
// are getQuotes calls (batches, pacing, retries) that share one wait budget, so maxWaitMs bounds
// the whole valuation's waiting, and the client's one signal; then the positions are valued.
import { checkNumber, invalid } from './check-options.js';
import type { ClientOptions } from './options.js';
import { checkPositions, type Position } from './positions.js';
import type { QuoteIndex } from './merge-quotes.js';
import { fetchQuotes } from './quotes.js';
import type { Transport } from './transport.js';
import type { Quote, QuotesResult, RateLimitInfo } from './types.js';
import { createQuoteBook, indexedQuoteBook } from './fx.js';
import { checkPrecision, type Precision } from './precision.js';
import { checkValuationOptions, valuationAt, valueCheckedPositions, valueWritten, type ExactValuation, type PriceRule, type Valuation } from './valuation.js';
import { planValuation } from './valuation-plan.js';
import { createWaitBudget } from './wait-budget.js';
import { DEFAULT_MAX_WAIT_MS, MAX_BATCH_SIZE, MAX_CONCURRENCY } from '../shared/limits.js';
import { FULL_DIGITS } from '../shared/figure.js';

/** Client.valuePortfolio's input. */
export interface ValuePortfolioInput {
  /** The lots to value (parsePositions, positionsFromObjects), in the order the result lists them. */
  positions: readonly Position[];
  /** The currency of value_base and the totals: an ISO 4217 code (or a minor unit). */
  base: string;
  /** Which price values an instrument: mid (the default), bid, ask, or side. */
  price?: PriceRule;
  /** How `valuation`'s figures are written: `full` (the default), `minor`, or a number of decimal places. `exact` has them all. */
  precision?: Precision;
  /** `valuation`'s rates with at most this many significant digits, where the precision would write more (a table's: READABLE_RATE_DIGITS, 10). */
  rateDigits?: number;
  /** Symbols per request, as getQuotes takes it. */
  batchSize?: number;
  /** Requests in flight at once, as getQuotes takes it. */
  concurrency?: number;
  /**
   * Symbols to ask for in round 1 as well: the `cross` of an earlier valuation of the same
   * positions, so that valuing them again takes one round instead of two.
   */
  prefetch?: readonly string[];
  /** Called after each request completes: requests done, and known so far (round 2's are known once round 1 is in). */
  onProgress?: (done: number, total: number) => void;
  /** The call's own token and organization; without them, createClient's. */
  accessToken?: string;
  organizationId?: string;
}

/** What valuePortfolio returns: the valuation, and what it took. */
export interface ValuePortfolioResult {
  /**
   * The valuation document (valuePositions' result) at the precision asked for, as `mkt value --json`
   * writes it. It, `exact` and `quotes` are each worked out when first read, from the same quotes and
   * the same list of positions, and are the same object after that (a position object or a quote
   * changed in between is read as it is then): the positions are valued once for whichever is read
   * first, and `valuation` read after `exact` is written from it.
   */
  readonly valuation: Valuation;
  /**
   * The same valuation, every figure exact: valuationAt(exact, precision) writes it at any other
   * precision. A caller that only writes `valuation` never holds every position's exact figures.
   */
  readonly exact: ExactValuation;
  /** The quotes the valuation used: each instrument's, and each pair a rate came from, in the order they came. */
  readonly quotes: Quote[];
  /** Symbols the service sent quotes for without being asked, each once. */
  unasked: string[];
  /** Requests sent (one per batch, both rounds), and attempts including retries. */
  requests: number;
  attempts: number;
  /** As the last answer left it. */
  rateLimit: RateLimitInfo | undefined;
  /** Rounds of requests: 0 (nothing to fetch: cash in the base currency), 1, or 2 (a cross needed legs round 1 did not ask for). */
  rounds: number;
  /** Round 2's symbols (the legs of crosses through USD), empty without one: the `prefetch` of a next valuation. */
  cross: string[];
}

const OPERATION = 'valuePortfolio';

/** Client.valuePortfolio: the checks, at most two rounds of quotes on one wait budget, then the valuation. */
export async function valuePortfolio(options: ClientOptions & Transport, input: ValuePortfolioInput): Promise<ValuePortfolioResult> {
  if (input === null || typeof input !== 'object') throw invalid('valuePortfolio needs { positions, base }', { option: 'input', operation: OPERATION });
  const { positions, base, price } = input;
  // Everything a request would depend on is checked before the first is sent.
  const baseUnit = checkValuationOptions({ base, price }, OPERATION);
  checkPositions(positions);
  if (input.precision !== undefined) checkPrecision(input.precision, OPERATION);
  checkNumber('rateDigits', input.rateDigits, 1, FULL_DIGITS, true, OPERATION);
  checkNumber('batchSize', input.batchSize, 1, MAX_BATCH_SIZE, true, OPERATION);
  checkNumber('concurrency', input.concurrency, 1, MAX_CONCURRENCY, true, OPERATION);
  if (input.prefetch !== undefined && (!Array.isArray(input.prefetch) || !input.prefetch.every((symbol) => typeof symbol === 'string'))) {
    throw invalid('prefetch must be an array of symbols', { option: 'prefetch', operation: OPERATION, expected: 'an array of strings' });
  }
  if (input.onProgress !== undefined && typeof input.onProgress !== 'function') {
    throw invalid('onProgress must be a function', { option: 'onProgress', operation: OPERATION, expected: 'a function' });
  }

  const rule = price ?? 'mid';
  const waitBudget = options.waitBudget ?? createWaitBudget(options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS, options.now);
  const shared = { ...options, waitBudget };
  const rounds: QuotesResult[] = [];
  const indexes: QuoteIndex[] = [];
  let before = { done: 0, total: 0 };
  const fetch = async (symbols: string[]) => {
    if (symbols.length === 0) return;
    const earlier = before;
    const { result, index } = await fetchQuotes(shared, {
      symbols,
      batchSize: input.batchSize,
      concurrency: input.concurrency,
      accessToken: input.accessToken,
      organizationId: input.organizationId,
      onProgress: (done, total) => {
        before = { done: earlier.done + done, total: earlier.total + total };
        input.onProgress?.(before.done, before.total);
      },
    });
    rounds.push(result);
    indexes.push(index);
  };

  const plan = planValuation(positions, baseUnit.major);
  // A watch's next poll asks for the last one's cross legs up front: those round 1 does not ask already.
  const prefetched: string[] = [];
  if (input.prefetch !== undefined && input.prefetch.length > 0) {
    const asked = new Set(plan.first);
    for (const symbol of input.prefetch) {
      const key = symbol.toUpperCase();
      if (!asked.has(key)) prefetched.push(key);
      asked.add(key);
    }
  }
  await fetch(prefetched.length === 0 ? plan.first : [...plan.first, ...prefetched]);
  // The quotes as getQuotes judged them, once: a quote that cannot be right values nothing. Round
  // 1's book says what round 2 needs, and values the positions when no round 2 is needed (nearly always).
  const gathered = () => {
    const unusable = rounds.flatMap((round) => round.unusable);
    // One round (nearly always): the book reads the merge's index of its quotes.
    if (rounds.length === 1) return { fetched: rounds[0]!.data, book: indexedQuoteBook(indexes[0]!, unusable) };
    const quotes = rounds.flatMap((round) => round.data);
    return { fetched: quotes, book: createQuoteBook(quotes, unusable) };
  };
  let { fetched, book } = gathered();
  const cross = plan.cross(book).filter((symbol) => !prefetched.includes(symbol));
  await fetch(cross);
  if (cross.length > 0) ({ fetched, book } = gathered());
  // Each valuation is worked out when first read, from the list as it was fetched for (a caller's
  // push or splice afterwards is not in it): a caller that writes `valuation` values the positions
  // once, writing each as it goes; one that reads `exact` (a watch, the books' prices) values them
  // once, and writes `valuation` from it only if it reads that too.
  const valued = positions.slice();
  const precision = input.precision ?? 'full';
  const rates = { rateDigits: input.rateDigits };
  let valuation: Valuation | undefined;
  let exact: ExactValuation | undefined;
  let quotes: Quote[] | undefined;
  const written = () => (valuation ??= exact === undefined ? valueWritten(valued, book, base, baseUnit, rule, precision, rates) : valuationAt(exact, precision, rates));
  return {
    get valuation() {
      return written();
    },
    get exact() {
      return (exact ??= valueCheckedPositions(valued, book, base, baseUnit, rule));
    },
    // Prefetched symbols are pairs: kept among the quotes only where a rate came from them (either valuation's rates name them).
    get quotes() {
      return (quotes ??= usedQuotes(valuation ?? exact ?? written(), fetched, new Set([...plan.pairs, ...prefetched, ...cross])));
    },
    unasked: [...new Set(rounds.flatMap((round) => round.unasked))],
    requests: rounds.reduce((sum, round) => sum + round.requests, 0),
    attempts: rounds.reduce((sum, round) => sum + round.attempts, 0),
    rateLimit: rounds.at(-1)?.rateLimit,
    rounds: rounds.length,
    cross,
  };
}

/**
 * The fetched quotes the valuation read: every instrument's (each was asked for a position), and the
 * pairs its rates came from; not a second quote for a symbol (it follows the first: mergeBatches).
 */
function usedQuotes(valuation: { fx: readonly { pairs: readonly string[] }[] }, fetched: readonly Quote[], pairs: ReadonlySet<string>): Quote[] {
  const used = new Set<string>();
  for (const rate of valuation.fx) for (const pair of rate.pairs) used.add(pair);
  let previous = '';
  return fetched.filter((quote) => {
    const key = quote.symbol.toUpperCase();
    const first = key !== previous;
    previous = key;
    return first && (!pairs.has(key) || used.has(key));
  });
}
