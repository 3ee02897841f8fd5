// mkt status --check: a pre-flight a CI job can trust, as `gh auth status` asks GitHub. One quotes
// request for one symbol proves that the service is reachable, takes the token (minting one with
// MKT_CLIENT_ID and MKT_CLIENT_SECRET if that is how commands would get it) and lets it read the
// organization's quotes; its rate-limit headers give the headroom. It costs one request of the quota.
//
// A pre-flight answers at once: unless --max-wait (or MKT_MAX_WAIT) says how long it may wait, it
// waits at most CHECK_MAX_WAIT_MS in all, enough for the short retries of a network error or a 5xx,
// not for a rate-limit window. A 429 asking for longer is the answer (exit 6), with when it lifts.
import { ApiError, NetworkError, RateLimitError, ResponseError } from '../../api/index.js';
import type { Deps } from '../deps.js';
import { UsageError } from '../errors/errors.js';
import { errorCodeFor, exitCodeFor } from '../errors/exit-codes.js';
import { explainError } from '../errors/explain.js';
import type { Words } from '../hints/words.js';
import { createCommandClient } from '../network/client.js';
import { quotesExplainer } from '../hints/quotes.js';
import type { RunState } from '../run-state.js';
import type { NetworkFlags } from '../options/network.js';
import type { TargetFlags } from '../options/settings.js';
import type { StatusReport } from './status-report.js';
import { scrubSecrets } from '../credentials/secrets.js';
import { normalizeSymbols } from '../options/symbols.js';
import { formatDuration, tryAgainAt } from '../../shared/duration.js';

/** A symbol every Market Data Service lists in its examples. */
export const DEFAULT_CHECK_SYMBOL = 'EURUSD';

/**
 * What the check waits at most, in all, when not told (--max-wait, MKT_MAX_WAIT): the default two
 * retries of a network error or a 5xx back off at most 0.5 s and 1 s, and a rate limit that lifts
 * within these seconds is waited for; a longer wait is not begun.
 */
export const CHECK_MAX_WAIT_MS = 5_000;

/** The flags of `mkt status` that the check reads. */
export interface CheckOptions extends TargetFlags, NetworkFlags {
  checkSymbol?: string;
}

/** Asks the service and records the answer in `report`: `check`, and a problem when it failed. */
export async function checkWithService(deps: Deps, options: CheckOptions, state: RunState, report: StatusReport): Promise<void> {
  const symbols = normalizeSymbols([options.checkSymbol ?? DEFAULT_CHECK_SYMBOL]);
  if (symbols.length !== 1) throw new UsageError('--check-symbol takes one symbol', `for example --check-symbol ${DEFAULT_CHECK_SYMBOL}`);
  const symbol = symbols[0]!;
  // As the client's settings read them: the flag, or a variable that is not empty.
  const waitAsked = options.maxWait !== undefined || Boolean(deps.env.MKT_MAX_WAIT);
  try {
    const command = await createCommandClient(deps, options, state, { concurrency: 1, maxWaitMs: CHECK_MAX_WAIT_MS });
    const result = await command.client.getQuotes({ symbols: [symbol] });
    const limit = result.rateLimit;
    report.check = {
      ok: true, symbol, status: 200, quote_found: result.missing.length === 0, exit_code: 0, error: null,
      rate_limit: limit === undefined ? null : { limit: limit.limit ?? null, remaining: limit.remaining ?? null, reset_seconds: limit.resetSeconds ?? null },
    };
    if (result.missing.length > 0) report.warnings.push(`the service has no quote for ${symbol}; the credentials work, but pick a symbol it lists with --check-symbol`);
  } catch (error) {
    // What the service (or the way to it) answered is the check's result; a local mistake is not.
    if (!(error instanceof ApiError || error instanceof NetworkError || error instanceof ResponseError)) throw error;
    // The service's words, written to stdout in the report: scrubbed as a diagnostic is, and only
    // they (the report's timestamps and ids are left as they are).
    // Worded as `mkt quotes` words the same request.
    const quotesWords = quotesExplainer(deps, options, 1);
    const explained = explainError(error, (failure, names) => (waitAsked ? undefined : notWaitedFor(deps, failure)) ?? quotesWords(failure, names), state.names);
    const scrub = (text: string | undefined) => text === undefined ? undefined : scrubSecrets(deps, text);
    const message = scrubSecrets(deps, explained.message);
    const hint = scrub(explained.hint);
    const requestId = scrub(explained.requestId);
    report.check = {
      ok: false, symbol, status: error instanceof ApiError || error instanceof ResponseError ? error.status : null, quote_found: null, rate_limit: null,
      exit_code: exitCodeFor(error), error: { code: errorCodeFor(error), message, hint: hint ?? null, request_id: requestId ?? null },
    };
    report.usable = false;
    report.problems.push(`the check failed: ${message}${hint ? `; ${hint}` : ''}`);
  }
}

/** A 429 whose wait the check did not begin: when to come back, and how to let the check wait. */
function notWaitedFor(deps: Deps, error: Error): Words | undefined {
  if (!(error instanceof RateLimitError) || error.plan !== undefined) return undefined;
  const waitMs = error.retryAfterMs;
  if (waitMs === undefined || waitMs <= CHECK_MAX_WAIT_MS) return undefined;
  return { hint: `try again after ${tryAgainAt(waitMs, deps)}, or let the check wait for it with --max-wait ${formatDuration(roundUpToTen(waitMs))}` };
}

/** A wait rounded up to whole tens of seconds, as a person would type it for --max-wait. */
function roundUpToTen(ms: number): number {
  return Math.ceil(ms / 10_000) * 10_000;
}
