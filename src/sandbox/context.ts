// The state one sandbox instance shares across requests.
import { randomBytes } from 'node:crypto';
import { createCatalogue, type Instrument } from './catalogue.js';
import { resolveOptions, type ResolvedOptions, type SandboxOptions } from './options.js';
import { PrincipalRegistry } from './principal-registry.js';
import { QuoteBook } from './prices.js';
import { RateLimiter } from './rate-limiter.js';
import { TokenStore } from './tokens.js';

export interface SandboxContext {
  options: ResolvedOptions;
  now: () => number;
  principals: PrincipalRegistry;
  tokens: TokenStore;
  /** Market data requests (every /v1/market route) per (client, organization). */
  limiter: RateLimiter;
  /** Tokens issued per client. */
  tokenLimiter: RateLimiter;
  /** The windows of tokenLimiter and their RateLimit-Policy; the hour and day are unlimited. */
  tokenLimits: readonly [number, number, number];
  tokenPolicy: string;
  catalogue: Map<string, Instrument>;
  book: QuoteBook;
  /** `req_` + a random per-instance prefix + a counter: unique, cheap, never taken from the request. */
  nextRequestId(): string;
}

export function createContext(input: SandboxOptions = {}): SandboxContext {
  const options = resolveOptions(input);
  const { tokensPerMinute } = options.limits;
  const prefix = `req_${randomBytes(6).toString('hex')}`;
  let counter = 0;
  return {
    options,
    now: options.now,
    principals: new PrincipalRegistry(options.clients, options.limits),
    tokens: new TokenStore(options.tokenTtlSeconds, options.now, options.clients.length),
    limiter: new RateLimiter(),
    tokenLimiter: new RateLimiter(),
    tokenLimits: [tokensPerMinute, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
    tokenPolicy: `${tokensPerMinute};w=60`,
    catalogue: createCatalogue(options.synthetic),
    book: new QuoteBook(options.seed),
    nextRequestId: () => `${prefix}${(++counter).toString(16).padStart(8, '0')}`,
  };
}
