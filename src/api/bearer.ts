// The token and organization an authenticated call sends: the call's own, else createClient's, where
// createClient's token may be a source (options.ts, TokenSource) asked once per call and again after
// a 401. Every token it hands out joins the call's secrets, scrubbed from its debug lines and errors.
import { checkCredentials, invalid } from './check-options.js';
import { AuthError } from './errors.js';
import type { ClientOptions, TokenSource } from './options.js';
import { BEARER_TOKEN_PATTERN } from '../shared/patterns.js';

/** The token of one call, and how it is replaced when the service refuses it. */
export interface Bearer {
  organizationId: string;
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
 * source, if the client has one; `secrets` gets each token handed out.
 */
export function requireBearer(
  options: ClientOptions, input: { accessToken?: string; organizationId?: string } | undefined, call: { operation: string; method: string; url: string; secrets: string[] },
): { open(): Promise<Bearer> } {
  const given = input?.accessToken ?? options.accessToken;
  const organizationId = input?.organizationId ?? options.organizationId;
  const { operation, method, url } = call;
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
    call.secrets.push(token);
    return token;
  };
  return {
    async open() {
      let token = source === undefined ? given as string : await ask();
      if (source === undefined) call.secrets.push(token);
      /** The one renewal in flight: requests refused with the same token share it. */
      let renewing: { rejected: string; done: Promise<boolean> } | undefined;
      return {
        organizationId,
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
