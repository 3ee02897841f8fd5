// The public library: `import { createClient } from 'mkt'`. Only what a program calls and catches,
// and the shapes it gets back; everything else in src/api is the CLI's and may change. The CLI uses
// this same surface, and src/api/internal.ts for what only it and its tests inject.
// client.ts exports the client and the shapes its methods take and return, and nothing else.
export * from './client.js';
export {
  MktError, ApiError, InvalidRequestError, AuthError, ForbiddenError, RateLimitError, ServerError,
  NetworkError, TimeoutError, ResponseError, AbortError, OptionsError,
  type MktErrorCode, type NetworkErrorCode, type RateLimitPlan, type ResponseProblem,
} from './errors.js';
export { aheadOfClock, isFutureProblem, quoteProblems, unusableBySymbol } from './quote-checks.js';
export * from './valuation-api.js';
