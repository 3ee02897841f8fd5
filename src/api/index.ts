// The public library: `import { createClient } from 'mkt'`. Only what a program calls and catches,
// and the shapes it gets back; everything else in src/api is the CLI's and may change. The CLI uses
// this same surface, and src/api/internal.ts for what only it and its tests inject.
export { createClient, type CliLoginInput, type Client, type ClientOptions, type GetQuotesInput } from './client.js';
export type { HttpOptions, WaitEvent } from './transport.js';
export {
  MktError, ApiError, InvalidRequestError, AuthError, ForbiddenError, RateLimitError, ServerError,
  NetworkError, TimeoutError, ResponseError, AbortError, OptionsError,
  type MktErrorCode, type NetworkErrorCode, type RateLimitPlan,
} from './errors.js';
export { aheadOfClock, quoteProblems } from './quote-checks.js';
export type { ClientCredentialsInput, Quote, QuotesResult, RateLimitInfo, TokenResponse } from './types.js';
