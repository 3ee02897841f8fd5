// The words for what goes wrong with `mkt quotes` (and `mkt status --check`, one quotes request):
// a rate-limit plan in symbols and --max-wait, a request too long for --batch-size, symbols the
// service rejected; the refusals of its credentials (./credentials.ts).
import { ApiError, InvalidRequestError, RateLimitError, ResponseError, type RateLimitPlan } from '../../api/index.js';
import { DEFAULT_BATCH_SIZE } from '../../shared/limits.js';
import { formatDuration, formatWait, perWindow } from '../../shared/duration.js';
import type { Deps } from '../deps.js';
import type { TargetFlags } from '../options/settings.js';
import { credentialsExplainer } from './credentials.js';
import { baseUrlWords } from './library-errors.js';
import type { Explainer, Words } from './words.js';

/** For a quotes request of `symbolCount` symbols, made with `flags`' credentials. */
export function quotesExplainer(deps: Deps, flags: TargetFlags, symbolCount: number): Explainer {
  const credentials = credentialsExplainer(deps, flags, 'the symbols and the venue');
  return (error, names) => {
    if (error instanceof RateLimitError && error.plan !== undefined) return explainPlan(error, symbolCount);
    if (error instanceof ResponseError) {
      const base = baseUrlWords(names);
      if (error.problem === 'too-large') return { hint: `request fewer symbols per call (a smaller --batch-size), or check that ${base} points at the Market Data Service` };
      if (error.problem === 'unexpected') return { hint: `the service sent quotes the client cannot read; check ${base}, or report it to the service` };
      return undefined;
    }
    if (!(error instanceof ApiError)) return undefined;
    if (error.status === 414) return { hint: `the request was too long for the service: use a smaller --batch-size (the default is ${DEFAULT_BATCH_SIZE})` };
    if (error.status === 429 && error.retryAfterMs === undefined) return { hint: 'wait a minute, or send fewer requests (a larger --batch-size, a lower --concurrency)' };
    const most = error instanceof InvalidRequestError ? error.maxSymbols : undefined;
    if (most !== undefined) return { hint: `the service takes at most ${most} symbols in one request: use --batch-size ${most} (or less)` };
    return credentials(error, names);
  };
}

/** RateLimitError.plan: set by the library when it foresaw, before spending the quota, that the work would not fit. */
function explainPlan(error: RateLimitError, symbolCount: number): Words | undefined {
  const plan = error.plan;
  if (plan === undefined || !(plan.limit > 0) || !(plan.windowMs > 0) || !(plan.requests > 0)) return undefined;
  // The time to send them all at the service's rate, as a person would reckon it.
  // Never less than the plan's own wait: a huge limit with none left in this window still waits for
  // its reset (RateLimit-Limit: 4294967296, Remaining: 0, Reset: 59 once read "about 0s").
  const needMs = Math.max(plan.waitMs, Math.round((plan.requests / plan.limit) * plan.windowMs));
  const count = (n: number, what: string) => `${n.toLocaleString('en-US')} ${what}${n === 1 ? '' : 's'}`;
  const work = `${count(symbolCount, 'symbol')} ${symbolCount === 1 ? 'needs' : 'need'} ${count(plan.requests, 'request')}`;
  const suggestion = suggestedMaxWait(plan);
  return {
    message: `${work}; at ${plan.limit.toLocaleString('en-US')} ${perWindow(plan.windowMs)} that is about ${formatWait(needMs)}, longer than --max-wait ${formatDuration(plan.maxWaitMs)}`,
    hint: `use --max-wait ${suggestion} (or MKT_MAX_WAIT=${suggestion}), or ask for fewer symbols at a time`,
  };
}

/** The --max-wait that fits `plan`'s work, rounded up to what a person would type (`2m`). */
export function suggestedMaxWait(plan: RateLimitPlan): string {
  const needMs = Math.max(plan.waitMs, Math.round((plan.requests / plan.limit) * plan.windowMs));
  return formatDuration(roundUp(Math.max(needMs, plan.waitMs, plan.maxWaitMs + 1)));
}

/** A duration rounded up to what a person would type: 10 s steps under a minute, then minutes, then hours. */
function roundUp(ms: number): number {
  if (ms <= 60_000) return Math.max(10_000, Math.ceil(ms / 10_000) * 10_000);
  if (ms <= 3_600_000) return Math.ceil(ms / 60_000) * 60_000;
  return Math.ceil(ms / 3_600_000) * 3_600_000;
}
