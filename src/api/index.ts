// The public library: `import { createClient } from 'mkt'`.
export { createClient, type Client, type ClientOptions, type GetQuotesInput } from './client.js';
export { cliLogin, clientCredentials, parseTokenResponse, API_KEY_PATTERN, ORGANIZATION_PATTERN } from './auth.js';
export { getQuotes, parseQuotes, DEFAULT_BATCH_SIZE, DEFAULT_CONCURRENCY, type QuotesRequest } from './quotes.js';
export {
  sendRequest, parseRetryAfter, createWaitBudget, DEFAULTS,
  type HttpOptions, type HttpRequest, type HttpResponse, type RetryEvent, type WaitBudget,
} from './request.js';
export { parseJsonExact, JsonNumber } from './json.js';
export {
  MktError, ApiError, InvalidRequestError, AuthError, ForbiddenError, RateLimitError, ServerError,
  NetworkError, TimeoutError, ResponseError, AbortError,
} from './errors.js';
export type { Quote, QuotesResult, RateLimitInfo, TokenResponse } from './types.js';
