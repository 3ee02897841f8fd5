// The typed client for the Market Data Service, for programs and for mkt itself.
//
//   import { createClient } from 'mkt';
//   const client = createClient({ baseUrl: 'http://127.0.0.1:4010' });
//   const token = await client.cliLogin({ apiKey: 'demo.demo-secret', organizationId: 'org_demo' });
//   const { data } = await client.getQuotes({ symbols: ['EURUSD'], accessToken: token.accessToken, organizationId: 'org_demo' });
//
// Each method is its operation's function (auth.ts, quotes.ts), which checks its input and holds the
// token guard; this file only binds them to one baseUrl and set of options. It exports the client
// and every shape its methods take and return, and nothing else: index.ts passes all of it on.
import { cliLogin, clientCredentials, type CliLoginInput } from './auth.js';
import { checkClientOptions } from './client-options.js';
import type { ClientContext } from './endpoint.js';
import { getQuotes, type GetQuotesInput } from './quotes.js';
import { SEAM, type WithSeam } from './seam.js';
import type { HttpOptions, TransportOptions } from './transport.js';
import type { ClientCredentialsInput, QuotesResult, TokenResponse } from './types.js';

export type { CliLoginInput, GetQuotesInput };
export type { HttpOptions, WaitEvent } from './transport.js';
export type { ClientCredentialsInput, Quote, QuotesResult, RateLimitInfo, TokenResponse } from './types.js';

export interface ClientOptions extends HttpOptions {
  /** The service's base address, e.g. https://api.example.com (the spec's {base_url}). */
  baseUrl: string;
  /**
   * Plain http:// is refused (OptionsError, code INSECURE_HTTP) for any host but this machine
   * (127.0.0.0/8, ::1, localhost), since keys and tokens would cross the network readable; true
   * allows it, for a network you trust.
   */
  allowInsecureHttp?: boolean;
  /** Used by getQuotes when the call does not pass one. */
  accessToken?: string;
  organizationId?: string;
}

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
}

/**
 * Throws an OptionsError for options it cannot use (an unusable baseUrl, a negative timeoutMs...).
 * The one place every operation is checked and sent, for programs and the CLI alike; the CLI's
 * clock, waits and jitter come through src/api/internal.ts (seam.ts).
 */
export function createClient(options: ClientOptions): Client {
  checkClientOptions(options);
  const { baseUrl, accessToken, organizationId, allowInsecureHttp: _allowed, [SEAM]: seam = {}, ...rest } = options as WithSeam<ClientOptions>;
  const http: TransportOptions = { ...rest, now: seam.now, sleep: seam.sleep, random: seam.random };
  const context: ClientContext = { baseUrl, http, accessToken, organizationId };
  return {
    cliLogin: (input) => cliLogin(context, input),
    clientCredentials: (input) => clientCredentials(context, input),
    getQuotes: (input) => getQuotes(context, input),
  };
}
