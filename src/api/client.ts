// The typed client for the Market Data Service, for programs and for mkt itself.
//
//   import { createClient } from 'mkt';
//   const client = createClient({ baseUrl: 'http://127.0.0.1:4010' });
//   const token = await client.cliLogin({ apiKey: 'demo.demo-secret', organizationId: 'org_demo' });
//   const { data } = await client.getQuotes({ symbols: ['EURUSD'], accessToken: token.accessToken, organizationId: 'org_demo' });
//
// OPERATIONS is the one list of the client's methods: each its operation's function, which checks
// its input and holds the token guard, taking the client's options first; a data operation asked in
// one request is its descriptor bound to the reader of its items (listOperations, data-operation.ts),
// and every data operation of src/shared/operations.ts has its method, by its name (the compiler
// holds the two lists together). Client is derived from the list, so a method is one entry here,
// documented where it is. This file
// exports the client and every shape its methods take and return, and nothing else: index.ts passes
// all of it on.
import { cliLogin, clientCredentials } from './auth.js';
import { checkClientOptions } from './check-options.js';
import { listOperations } from './data-operation.js';
import type { ClientOptions } from './options.js';
import { getQuotes } from './quotes.js';
import { seams } from './seam.js';
import { valuePortfolio } from './value-portfolio.js';
import type { DataOperationId } from '../shared/operations.js';

export type { CliLoginInput } from './auth.js';
export type { GetQuotesInput } from './quotes.js';
export type { ValuePortfolioInput, ValuePortfolioResult } from './value-portfolio.js';
export type { ClientOptions, HookRequest, HookResponse, Hooks, TokenContext, TokenSource, WaitEvent } from './options.js';
export type * from './types.js';

const OPERATIONS = {
  /** POST /auth/cli-login with an API key `<client_id>.<client_secret>` and an organization `org_<id>`. */
  cliLogin,
  /** POST /v1/auth/token, the OAuth 2.0 client-credentials grant; `scope` narrows it. */
  clientCredentials,
  /**
   * GET /v1/market/quotes, batched when there are more symbols than one request takes, paced under
   * the service's rate limit. A symbol repeated (in any case) is asked for and returned once.
   * Without a token or organization (the call's or createClient's) it rejects with an AuthError,
   * code NOT_AUTHENTICATED and status 0, before any request.
   */
  getQuotes,
  /**
   * Positions valued against live quotes: getQuotes for every instrument and the FX pairs to the
   * base (round 1), and only if a currency has no direct pair, for the USD legs of a cross (round
   * 2), each symbol asked once, both rounds within one maxWaitMs; then valuePositions. Input it
   * cannot use (positions, base, price) rejects with an OptionsError before any request.
   */
  valuePortfolio,
  // The data operations asked in one request, by operationId: each its descriptor bound to the reader
  // of its answer's items (getQuotes, which sends batches, is above).
  ...listOperations({}),
} satisfies Record<string, unknown> & Record<DataOperationId, unknown>;

/** An operation as a method: its input, the client's options already bound. */
type Method<F> = F extends (options: never, ...input: infer Input) => infer Result ? (...input: Input) => Result : never;

/**
 * The service's operations, each checked before any request: an input it cannot use rejects with an
 * OptionsError naming it. Failures are the MktError classes this package exports (README, Errors).
 * mkt's own commands call these same methods.
 */
export type Client = { [Name in keyof typeof OPERATIONS]: Method<(typeof OPERATIONS)[Name]> };

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
  const call = (operation: (options: typeof bound, ...input: never[]) => unknown) => (...input: never[]) => operation(bound, ...input);
  return Object.fromEntries(Object.entries(OPERATIONS).map(([name, operation]) => [name, call(operation)])) as Client;
}
