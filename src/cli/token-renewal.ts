// Renewing a client-credentials token: once across every mkt that finds it stale at the same time,
// and once more when the service refuses a token the client thought good.
//
// Twenty parallel runs with MKT_CLIENT_ID and MKT_CLIENT_SECRET and an expired stored token used to
// send twenty token requests, and against a limit of five tokens a minute fifteen of them failed
// (issue 19, item 5). Renewal now holds the config file's lock across read, request and write: the
// first run mints and stores the token; the others, once they have the lock, find a fresh token in
// the file and use it. A service that restarted (tokens lost) answered 401 until the stored expiry,
// while the hint said mkt renews by itself (item 6): a 401 to a data request now renews once and
// repeats the request once.
import { ApiError, AuthError, type HttpOptions, type TokenResponse } from '../api/index.js';
import type { TokenRecord, TokenSource } from '../config/store.js';
import { DEFAULT_RETRIES, DEFAULT_TIMEOUT_MS, LOCK_WAIT_MS } from '../shared/limits.js';
import type { Deps } from './deps.js';
import { createCliClient, type ClientSettings } from './client.js';
import { holdSecret } from './secrets.js';

export interface RenewalTarget {
  profile: string;
  baseUrl: string;
  organizationId: string;
  clientId: string;
  clientSecret: string;
  /** Whether a token found in the file under the lock can be used as it is. */
  isFresh: (token: TokenRecord) => boolean;
}

/**
 * A token for `target`: the one another mkt stored meanwhile if it is fresh (and is not `rejected`,
 * the one the service just refused), else a new one, minted and stored under the same lock.
 */
export async function renewToken(deps: Deps, target: RenewalTarget, http: ClientSettings, rejected?: string): Promise<string> {
  try {
    return await renewUnderLock(deps, target, http, rejected);
  } catch (error) {
    if (error instanceof ApiError) renewalFailures.add(error);
    throw error;
  }
}

/**
 * The service's answers to the token requests renewToken made: what it said of MKT_CLIENT_ID and
 * MKT_CLIENT_SECRET, not of the token a data request sent, and worded so (hints/credentials.ts).
 */
const renewalFailures = new WeakSet<ApiError>();

export function isRenewalFailure(error: ApiError): boolean {
  return renewalFailures.has(error);
}

async function renewUnderLock(deps: Deps, target: RenewalTarget, http: ClientSettings, rejected: string | undefined): Promise<string> {
  const attempts = (http.retries ?? DEFAULT_RETRIES) + 1;
  const waitMs = LOCK_WAIT_MS + (http.timeoutMs ?? DEFAULT_TIMEOUT_MS) * attempts;
  return deps.config.withLock(async (locked) => {
    const stored = locked.data().profiles?.[target.profile]?.token;
    if (stored !== undefined && typeof stored.access_token === 'string' && stored.access_token !== rejected && target.isFresh(stored)) {
      holdSecret(deps, stored.access_token);
      http.onDebug?.('* another mkt renewed the token meanwhile; using that one');
      return stored.access_token;
    }
    const fresh = await createCliClient(http, { baseUrl: target.baseUrl }).clientCredentials({ clientId: target.clientId, clientSecret: target.clientSecret });
    holdSecret(deps, fresh.accessToken);
    const record = tokenRecord(deps.now(), fresh, { source: 'client-credentials', baseUrl: target.baseUrl, organizationId: target.organizationId, clientId: target.clientId });
    locked.update((profiles) => {
      profiles[target.profile] = { ...profiles[target.profile], token: record };
    });
    return fresh.accessToken;
  }, waitMs);
}

/** What is stored of a token the service issued at `now`. */
export function tokenRecord(now: number, token: TokenResponse, from: { source: TokenSource; baseUrl: string; organizationId: string | undefined; clientId?: string }): TokenRecord {
  return {
    access_token: token.accessToken,
    token_type: token.tokenType,
    ...(token.expiresIn !== undefined ? { expires_at: new Date(now + token.expiresIn * 1000).toISOString() } : {}),
    ...(token.scope !== undefined ? { scope: token.scope } : {}),
    ...(from.organizationId ? { organization_id: from.organizationId } : {}),
    base_url: from.baseUrl,
    source: from.source,
    ...(from.clientId ? { client_id: from.clientId } : {}),
    obtained_at: new Date(now).toISOString(),
  };
}

/** What a data request needs: the token and where to send it, and how to replace a refused token. */
export interface RenewableCredentials {
  accessToken: string;
  /** Set when client credentials can replace the token: renews it, `rejected` being the one refused. */
  renew?: (rejected: string) => Promise<string>;
}

/**
 * Runs `call` with `credentials`; if the service answers 401 and client credentials can replace the
 * token, renews it once and runs `call` once more. A second 401 is the caller's (exit 4).
 */
export async function withRenewal<C extends RenewableCredentials, T>(credentials: C, call: (credentials: C) => Promise<T>, http: HttpOptions): Promise<T> {
  try {
    return await call(credentials);
  } catch (error) {
    if (!(error instanceof AuthError) || error.status !== 401 || credentials.renew === undefined) throw error;
    http.onDebug?.('* the service refused the token (401); renewing it with MKT_CLIENT_ID and MKT_CLIENT_SECRET, then asking once more');
    const accessToken = await credentials.renew(credentials.accessToken);
    return call({ ...credentials, accessToken });
  }
}
