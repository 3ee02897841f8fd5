// The shapes the client takes and returns. A data operation's (src/shared/operations.ts) are derived:
// what a call takes from its descriptor, what its answer's items are from docs/openapi.yaml (the
// types openapi-typescript writes, openapi-types.ts), each number there a decimal string here,
// holding exactly the digits the service sent (never a float), so that `227.10` stays `227.10`.
import type { operations } from './openapi-types.js';
import type { DataOperationId, DataOperations } from '../shared/operations.js';

/** A number of the service's as the library gives it: a decimal string, with exactly the digits sent. */
type Decimal<V> = V extends number ? string : V;

/** One item of data operation `Id`'s answer, as docs/openapi.yaml gives the items of its 200's `data`. */
type DocumentItem<Id extends DataOperationId> = operations[Id]['responses'][200]['content']['application/json']['data'][number];

/**
 * What one item of data operation `Id`'s answer is: the schema docs/openapi.yaml gives its `data`'s
 * items, each number a decimal string (`"227.10"`, never a float).
 */
export type DataItem<Id extends DataOperationId> = { [K in keyof DocumentItem<Id>]: Decimal<DocumentItem<Id>[K]> };

type ListName<Id extends DataOperationId> = DataOperations[Id]['list']['name'];

/**
 * What a call of data operation `Id` takes, from its descriptor: its list, an array, required when
 * the operation refuses none; its other parameters, each a string; and the call's own token and
 * organization (without them, createClient's).
 */
export type DataInput<Id extends DataOperationId> = (DataOperations[Id]['list']['empty'] extends 'refused'
  ? { [K in ListName<Id>]: readonly string[] }
  : { [K in ListName<Id>]?: readonly string[] })
  & { [K in keyof DataOperations[Id]['params']]?: string }
  & { accessToken?: string; organizationId?: string };

/** What an operation asked in one request gives: its items, the attempts it took, and the rate-limit headers of its answer. */
export interface ListResult<T> {
  data: T[];
  attempts: number;
  rateLimit: RateLimitInfo | undefined;
}


/** A quote, as getQuotes' items: symbol, bid, ask and mid (decimal strings, e.g. "1.08505") and timestamp (ISO 8601, as sent). */
export type Quote = DataItem<'getQuotes'>;

/** A symbol whose quote cannot be right, and why, in words (`bid is negative`, `mid is outside bid..ask`). */
export interface UnusableQuote {
  symbol: string;
  problems: string[];
}

export interface RateLimitInfo {
  limit: number | undefined;
  remaining: number | undefined;
  /** Seconds until the window resets. */
  resetSeconds: number | undefined;
  /** The window's length in seconds, from RateLimit-Policy, when the service sends one. */
  windowSeconds?: number;
}

export interface QuotesResult {
  /** Quotes in the order the symbols were asked for: only for symbols asked for. */
  data: Quote[];
  /** Symbols asked for that the service did not return. */
  missing: string[];
  /**
   * Symbols the service sent quotes for without being asked (each once, as it spelled them): left
   * out of `data`, since the service answers only for the symbols requested.
   */
  unasked: string[];
  /**
   * The quotes of `data` that cannot be right (quoteProblems, with the client's clock: a timestamp
   * ahead of it is one), and symbols sent twice at different prices: each symbol once, in the order
   * of `data`, with what is wrong. They stay in `data` as sent; a valuation does not value them.
   */
  unusable: UnusableQuote[];
  /** Requests sent (one per batch), and attempts including retries. */
  requests: number;
  attempts: number;
  rateLimit: RateLimitInfo | undefined;
}

export interface TokenResponse {
  accessToken: string;
  /** Always Bearer, however the service spelled it: a token of another type is refused (ResponseError). */
  tokenType: 'Bearer';
  /**
   * Seconds, when the service said: more than 0, and at most ten years (a larger figure is read as
   * ten years, so that an expiry date can always be written). Undefined when the service left it
   * out, as RFC 6749 §5.1 allows (the sandbox always sends it).
   */
  expiresIn: number | undefined;
  /** The granted scopes, space-separated. Undefined when the service left it out (RFC 6749 §5.1). */
  scope: string | undefined;
  /** The organization a cli-login token acts for; undefined for a client-credentials token. */
  organizationId: string | undefined;
}

/** What clientCredentials() sends to POST /v1/auth/token. */
export interface ClientCredentialsInput {
  clientId: string;
  clientSecret: string;
  /**
   * Space-separated scopes to ask for, e.g. "market.read" (RFC 6749 §3.3): the token gets those the
   * client has. Without it, all of the client's scopes.
   */
  scope?: string;
}
