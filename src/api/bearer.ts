// The token and organization an authenticated call sends: the call's own, else createClient's, where
// createClient's token may be a source (options.ts, TokenSource) asked once per call and again after
// a 401. Every token it hands out joins the bearer's secrets, which callEndpoint scrubs from the
// call's debug lines and errors. A call whose signal is already aborted opens no bearer: it asks no
// token source and sends nothing.
import { checkCredentials, invalid } from './check-options.js';
import { AbortError, AuthError } from './errors.js';
import type { ClientOptions, TokenSource } from './options.js';
import { BEARER_TOKEN_PATTERN } from '../shared/patterns.js';

/** The token of one call, and how it is replaced when the service refuses it. */
export interface Bearer {
  organizationId: string;
  /** Every token handed out for the call (the one given, or each the source gave): never shown. */
  readonly secrets: readonly string[];
  /** The token to send now. */
  readonly token: string;
  /** Whether a 401 can be answered with another token: the client's token is a source, and the call gave none of its own. */
  readonly renewable: boolean;
  /**
   * After a 401 to `rejected`: whether there is another token to send (the source gave a new one,
   * or another request of the call has already got it). A fixed token, or the source giving the
   * refused one back, is no.
   */
  renew(rejected: string): Promise<boolean>;
}

/**
 * The call's bearer, checked before anything is asked or sent: neither token nor organization is an
 * AuthError (status 0, NOT_AUTHENTICATED); an unusable one an OptionsError. open() asks the token
 * source, if the client has one, unless the client's signal is aborted (an AbortError, and nothing
 * asked or sent); the bearer's `secrets` get each token handed out. `call` is what its errors name:
 * the operation, the URL, and the method (GET unless given).
 */
export function requireBearer(
  options: ClientOptions, input: { accessToken?: string; organizationId?: string } | undefined, call: { operation: string; url: URL | string; method?: string },
): { open(): Promise<Bearer> } {
  const given = input?.accessToken ?? options.accessToken;
  const organizationId = input?.organizationId ?? options.organizationId;
  const { operation } = call;
  const method = call.method ?? 'GET';
  const url = typeof call.url === 'string' ? call.url : call.url.href;
  const secrets: string[] = [];
  if (!given || !organizationId) {
    throw new AuthError({
      status: 0, code: 'NOT_AUTHENTICATED', method, url, operation,
      message: `${operation} needs ${given ? 'an organizationId' : 'an accessToken'}`,
      hint: `pass it to createClient or to ${operation}`,
    });
  }
  checkCredentials(typeof given === 'string' ? given : undefined, organizationId, operation);
  // The call's own token is a string (GetQuotesInput); only createClient's may be a source.
  const source: TokenSource | undefined = typeof given === 'function' ? given : undefined;
  const signal = options.signal;
  const ask = async (rejected?: string): Promise<string> => {
    const token = await source!(rejected === undefined ? { signal } : { rejected, signal });
    // Checked, never quoted: a source that returns something else is the program's mistake.
    if (typeof token !== 'string' || !BEARER_TOKEN_PATTERN.test(token)) {
      throw invalid('the accessToken function must return a bearer token: one or more visible ASCII characters, no spaces or line breaks', {
        option: 'accessToken', operation, expected: 'a bearer token',
      });
    }
    secrets.push(token);
    return token;
  };
  return {
    async open() {
      // An aborted signal sends nothing, not even to the token source.
      if (signal?.aborted) throw new AbortError();
      let token = source === undefined ? given as string : await ask();
      if (source === undefined) secrets.push(token);
      /** The one renewal in flight: requests refused with the same token share it. */
      let renewing: { rejected: string; done: Promise<boolean> } | undefined;
      return {
        organizationId,
        secrets,
        renewable: source !== undefined,
        get token() {
          return token;
        },
        async renew(rejected) {
          if (source === undefined) return false;
          if (token !== rejected) return true;
          if (renewing?.rejected !== rejected) {
            renewing = {
              rejected,
              done: ask(rejected).then((fresh) => {
                if (fresh === rejected) return false;
                token = fresh;
                return true;
              }),
            };
          }
          return renewing.done;
        },
      };
    },
  };
}
