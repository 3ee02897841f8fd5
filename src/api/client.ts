// The typed client for the Market Data Service, for programs and for mkt itself.
//
//   import { createClient } from 'mkt';
//   const client = createClient({ baseUrl: 'http://127.0.0.1:4010' });
//   const token = await client.cliLogin({ apiKey: 'demo.demo-secret', organizationId: 'org_demo' });
//   const { data } = await client.getQuotes({ symbols: ['EURUSD'], accessToken: token.accessToken, organizationId: 'org_demo' });
import { cliLogin, clientCredentials } from './auth.js';
import { AuthError } from './errors.js';
import { getQuotes, type QuotesRequest } from './quotes.js';
import type { HttpOptions } from './request.js';
import type { QuotesResult, TokenResponse } from './types.js';

export interface ClientOptions extends HttpOptions {
  /** The service's base address, e.g. https://api.example.com (the spec's {base_url}). */
  baseUrl: string;
  /** Used by getQuotes when the call does not pass one. */
  accessToken?: string;
  organizationId?: string;
}

export type GetQuotesInput = Omit<QuotesRequest, 'baseUrl' | 'accessToken' | 'organizationId'> & {
  accessToken?: string;
  organizationId?: string;
};

export interface Client {
  /** POST /auth/cli-login with an API key `<client_id>.<client_secret>` and an organization `org_<id>`. */
  cliLogin(input: { apiKey: string; organizationId: string }): Promise<TokenResponse>;
  /** POST /v1/auth/token, the OAuth 2.0 client-credentials grant. */
  clientCredentials(input: { clientId: string; clientSecret: string }): Promise<TokenResponse>;
  /** GET /v1/market/quotes, batched when there are more symbols than one request takes. */
  getQuotes(input: GetQuotesInput): Promise<QuotesResult>;
}

export function createClient(options: ClientOptions): Client {
  const { baseUrl, accessToken, organizationId, ...http } = options;
  new URL(baseUrl); // fail early on an unusable base URL
  return {
    cliLogin: ({ apiKey, organizationId: org }) => cliLogin(http, baseUrl, apiKey, org),
    clientCredentials: ({ clientId, clientSecret }) => clientCredentials(http, baseUrl, clientId, clientSecret),
    getQuotes: (input) => {
      const token = input.accessToken ?? accessToken;
      const org = input.organizationId ?? organizationId;
      if (!token || !org) {
        return Promise.reject(new AuthError({
          status: 0, code: 'NOT_AUTHENTICATED', method: 'GET', url: baseUrl,
          message: `getQuotes needs ${token ? 'an organizationId' : 'an accessToken'}`,
          hint: 'pass it to createClient or to getQuotes',
        }));
      }
      return getQuotes(http, { ...input, baseUrl, accessToken: token, organizationId: org });
    },
  };
}
