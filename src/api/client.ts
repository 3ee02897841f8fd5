// The typed client for the Market Data Service, for programs and for mkt itself.
//
//   import { createClient } from 'mkt';
//   const client = createClient({ baseUrl: 'http://127.0.0.1:4010' });
//   const token = await client.cliLogin({ apiKey: 'demo.demo-secret', organizationId: 'org_demo' });
//   const { data } = await client.getQuotes({ symbols: ['EURUSD'], accessToken: token.accessToken, organizationId: 'org_demo' });
//
// Each method is its operation's function (auth.ts, quotes.ts, value-portfolio.ts), which checks its input and holds the
// token guard; this file only binds them to one set of options, handed on whole. It exports the
// client and every shape its methods take and return, and nothing else: index.ts passes all of it on.
import { cliLogin, clientCredentials, type CliLoginInput } from './auth.js';
import { checkClientOptions } from './check-options.js';
import type { ClientOptions } from './options.js';
import { getQuotes, type GetQuotesInput } from './quotes.js';
import { seams } from './seam.js';
import type { ClientCredentialsInput, QuotesResult, TokenResponse } from './types.js';
import { valuePortfolio, type ValuePortfolioInput, type ValuePortfolioResult } from './value-portfolio.js';

export type { CliLoginInput, GetQuotesInput, ValuePortfolioInput, ValuePortfolioResult };
export type { ClientOptions, HookRequest, HookResponse, Hooks, TokenContext, TokenSource, WaitEvent } from './options.js';
export type { ClientCredentialsInput, Quote, QuotesResult, RateLimitInfo, TokenResponse, UnusableQuote } from './types.js';

/**
 * The service's operations, each checked before any request: an input it cannot use rejects with an
 * OptionsError naming it. Failures are the MktError classes this package exports (README, Errors).
 * mkt's own commands call these same methods.
 */
export interface Client {
  /** POST /auth/cli-login with an API key `<client_id>.<client_secret>` and an organization `org_<id>`. */
  cliLogin(input: CliLoginInput): Promise<TokenResponse>;
  /** POST /v1/auth/token, the OAuth 2.0 client-credentials grant; `scope` narrows it. */
  clientCredentials(input: ClientCredentialsInput): Promise<TokenResponse>;
  /**
   * GET /v1/market/quotes, batched when there are more symbols than one request takes, paced under
   * the service's rate limit. A symbol repeated (in any case) is asked for and returned once.
   * Without a token or organization (the call's or createClient's) it rejects with an AuthError,
   * code NOT_AUTHENTICATED and status 0, before any request.
   */
  getQuotes(input: GetQuotesInput): Promise<QuotesResult>;
  /**
   * Positions valued against live quotes: getQuotes for every instrument and the FX pairs to the
   * base (round 1), and only if a currency has no direct pair, for the USD legs of a cross (round
   * 2), each symbol asked once, both rounds within one maxWaitMs; then valuePositions. Input it
   * cannot use (positions, base, price) rejects with an OptionsError before any request.
   */
  valuePortfolio(input: ValuePortfolioInput): Promise<ValuePortfolioResult>;
}

/**
 * Throws an OptionsError for options it cannot use (an unusable baseUrl, a negative timeoutMs...).
 * The one place every operation is checked and sent, for programs and the CLI alike; the CLI's
 * clock, waits and jitter come through src/api/internal.ts (seam.ts).
 */
export function createClient(options: ClientOptions): Client {
  checkClientOptions(options);
  const seam = seams.get(options) ?? {};
  // What only the seam may set is set from it, whatever else the options object holds.
  const bound = { ...options, now: seam.now, sleep: seam.sleep, random: seam.random, waitBudget: undefined, progress: undefined };
  return {
    cliLogin: (input) => cliLogin(bound, input),
    clientCredentials: (input) => clientCredentials(bound, input),
    getQuotes: (input) => getQuotes(bound, input),
    valuePortfolio: (input) => valuePortfolio(bound, input),
  };
}
