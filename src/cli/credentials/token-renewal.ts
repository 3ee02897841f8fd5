// Renewing a client-credentials token: once across every mkt that finds it stale at the same time,
// and once more when the service refuses a token the client thought good.
//
// Twenty parallel runs with MKT_CLIENT_ID and MKT_CLIENT_SECRET and an expired stored token would
// otherwise send twenty token requests, and against a limit of five tokens a minute fifteen would
// fail. Renewal holds the config file's lock across read, request and write: the first run mints and
// stores the token; the others, once they have the lock, find a fresh token in the file and use it.
// A service that restarted (tokens lost) answers 401 until the stored expiry: the client's token
// source (credentials.ts) then renews here once, and the client repeats the request once.
//
// The token renewed is the client's own (client-tokens.ts): found under the lock by base URL, client
// id and the fingerprint of the secret, and kept where it belongs, the profile's own token or one
// kept beside it for that client.
import type { TokenResponse } from '../../api/index.js';
import type { ProfileRecord, TokenRecord } from '../../config/store.js';
import { findClientToken, fingerprintKey, keepClientToken, newFingerprintKey, secretFingerprint } from './client-tokens.js';
import type { Deps } from '../deps.js';
import { tokenRecord } from './saved-token.js';
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

/** How a run asks the service for a token, for requireCredentials and the renewal. */
export interface TokenRequests {
  /** POST /v1/auth/token at `baseUrl` with these client credentials, with the run's settings (network/client.ts). */
  clientCredentials: (target: { baseUrl: string; clientId: string; clientSecret: string }) => Promise<TokenResponse>;
  /** How long to wait for the config file's lock: beyond what the holder's own token request may take. */
  lockWaitMs: number;
  onDebug?: (line: string) => void;
}

/**
 * A token for `target`: the client's own that another mkt stored meanwhile if it is fresh (and is
 * not `rejected`, the one the service just refused), else a new one, minted and stored under the
 * same lock.
 */
export async function renewToken(deps: Deps, target: RenewalTarget, requests: TokenRequests, rejected?: string): Promise<string> {
  return deps.config.withLock(async (locked) => {
    const data = locked.data();
    const fileKey = fingerprintKey(data);
    const key = fileKey ?? await newFingerprintKey();
    const fingerprint = await secretFingerprint(key, target.clientSecret);
    const profileOf = (profiles: Record<string, ProfileRecord> | undefined) => profiles !== undefined && Object.hasOwn(profiles, target.profile) ? profiles[target.profile] : undefined;
    const stored = findClientToken(profileOf(data.profiles), target, fingerprint)?.token;
    if (stored !== undefined && typeof stored.access_token === 'string' && stored.access_token !== rejected && target.isFresh(stored)) {
      holdSecret(deps, stored.access_token);
      requests.onDebug?.('* another mkt renewed the token meanwhile; using that one');
      return stored.access_token;
    }
    const fresh = await requests.clientCredentials(target);
    holdSecret(deps, fresh.accessToken);
    const record = tokenRecord(deps.now(), fresh, {
      source: 'client-credentials', baseUrl: target.baseUrl, organizationId: target.organizationId, clientId: target.clientId, secretFingerprint: fingerprint,
    });
    locked.update((profiles) => {
      profiles[target.profile] = keepClientToken(profileOf(profiles), record, deps.now());
    }, key === fileKey ? undefined : { fingerprint_key: key });
    return fresh.accessToken;
  }, requests.lockWaitMs);
}
