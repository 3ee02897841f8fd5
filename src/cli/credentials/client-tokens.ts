// Which stored token a run with MKT_CLIENT_ID and MKT_CLIENT_SECRET may use, and where a token it
// mints is kept. A client-credentials token belongs to the client that minted it: it is used only
// for the base URL, client id and secret it was minted with. The secret is known by a fingerprint,
// an HMAC keyed with a random key kept in the config file (`fingerprint_key`), never by its text, so
// the file holds nothing that could be sent as the secret. A token without a fingerprint (stored by
// `mkt login`, or by an mkt from before fingerprints) is no client's, so a wrong secret or another
// client id mints anew, and the service answers for the secret: a wrong one is exit 4 at once.
//
// The profile's own token (`mkt login`, `mkt token`) is used when it is the client's, and renewed in
// place. Any other client's token is kept beside it in `client_tokens`, one per base URL and client
// id, so that two jobs with two clients sharing a config file do not replace each other's tokens,
// and the token of `mkt login` that a job with client credentials ran beside is still there after.
import type { ConfigData, ProfileRecord, TokenRecord } from '../../config/store.js';
import { MAX_CLIENT_TOKENS } from '../../shared/limits.js';
import { printable } from '../../shared/text.js';

export interface ClientCredentials {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
}

/** The client's stored token, and whether it is the profile's own or one kept in `client_tokens`. */
export interface ClientToken {
  token: TokenRecord;
  where: 'profile' | 'client-tokens';
}

export interface ClientLookup {
  /** The client's own stored token, if the file has one. */
  found: ClientToken | undefined;
  /** Why the profile's own token is not the client's (`it was minted for client demo, not ci`); undefined when it is, or when there is none. */
  setAside: string | undefined;
}

const FINGERPRINT_KEY_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** The file's fingerprint key, when it holds a usable one. */
export function fingerprintKey(data: ConfigData): string | undefined {
  const key = data.fingerprint_key;
  return typeof key === 'string' && FINGERPRINT_KEY_PATTERN.test(key) ? key : undefined;
}

/** A new fingerprint key: 32 random bytes. node:crypto loads only where a client secret is at hand (start-up cost). */
export async function newFingerprintKey(): Promise<string> {
  const { randomBytes } = await import('node:crypto');
  return randomBytes(32).toString('base64url');
}

/** `hmac-sha256:<hex>` of `secret`, keyed with `key`: the same secret gives the same fingerprint in this file only. */
export async function secretFingerprint(key: string, secret: string): Promise<string> {
  const { createHmac } = await import('node:crypto');
  return `hmac-sha256:${createHmac('sha256', Buffer.from(key, 'base64url')).update(secret, 'utf8').digest('hex')}`;
}

/** The client's token in `profile` (undefined: the profile does not exist) and why the profile's own token is not it. */
export async function lookUpClientToken(data: ConfigData, profile: ProfileRecord | undefined, client: ClientCredentials): Promise<ClientLookup> {
  const key = fingerprintKey(data);
  // Without a key, no token in the file has a fingerprint this run could match.
  const fingerprint = key === undefined ? undefined : await secretFingerprint(key, client.clientSecret);
  return { found: findClientToken(profile, client, fingerprint), setAside: setAsideReason(profile?.token, client, fingerprint) };
}

/** The token minted for `client`'s base URL and id with the secret of `fingerprint`: the profile's own first. */
export function findClientToken(profile: ProfileRecord | undefined, client: Omit<ClientCredentials, 'clientSecret'>, fingerprint: string | undefined): ClientToken | undefined {
  if (fingerprint === undefined || profile === undefined) return undefined;
  const own = profile.token;
  if (isObject(own) && isClients(own, client, fingerprint)) return { token: own, where: 'profile' };
  const kept = clientTokens(profile).find((token) => isClients(token, client, fingerprint));
  return kept === undefined ? undefined : { token: kept, where: 'client-tokens' };
}

/**
 * `profile` with `record`, just minted with client credentials, kept: as the profile's own token if
 * that was the same client's (base URL, client id and secret), else in `client_tokens`, replacing
 * the one of its base URL and client id. `client_tokens` keeps the MAX_CLIENT_TOKENS most recently
 * minted that have not expired at `now`.
 */
export function keepClientToken(profile: ProfileRecord | undefined, record: TokenRecord, now: number): ProfileRecord {
  const client = { baseUrl: record.base_url, clientId: record.client_id ?? '' };
  if (isObject(profile?.token) && isClients(profile.token, client, record.secret_fingerprint)) return { ...profile, token: record };
  const others = clientTokens(profile)
    .filter((token) => !(token.base_url === client.baseUrl && token.client_id === client.clientId) && !hasExpired(token, now))
    .sort((a, b) => mintedAt(b) - mintedAt(a));
  return { ...profile, client_tokens: [record, ...others].slice(0, MAX_CLIENT_TOKENS) };
}

/** The entries of `client_tokens` that are objects: a file edited by hand may hold anything there. */
export function clientTokens(profile: ProfileRecord | undefined): TokenRecord[] {
  const kept: unknown = profile?.client_tokens;
  return Array.isArray(kept) ? kept.filter(isObject) : [];
}

function isClients(token: TokenRecord, client: Omit<ClientCredentials, 'clientSecret'>, fingerprint: string | undefined): boolean {
  return token.source === 'client-credentials' && token.base_url === client.baseUrl && token.client_id === client.clientId
    && fingerprint !== undefined && token.secret_fingerprint === fingerprint;
}

/** Why the profile's own token `token` is not `client`'s, in words that follow "the profile's token is not used: ". */
function setAsideReason(token: TokenRecord | undefined, client: ClientCredentials, fingerprint: string | undefined): string | undefined {
  if (!isObject(token)) return undefined;
  const shown = (value: unknown) => printable(String(value), { max: 200 });
  if (token.source !== 'client-credentials') return token.source === 'cli-login' ? 'it was got with an API key (mkt login), not with client credentials' : 'it was not minted with client credentials';
  if (token.base_url !== client.baseUrl) return `it was issued by ${shown(token.base_url)}, not ${client.baseUrl}`;
  if (token.client_id !== client.clientId) {
    return typeof token.client_id === 'string' ? `it was minted for client ${shown(token.client_id)}, not ${shown(client.clientId)}` : 'it names no client';
  }
  if (typeof token.secret_fingerprint !== 'string') return 'it has no fingerprint of the client secret it was minted with (an older mkt stored it)';
  if (token.secret_fingerprint !== fingerprint) return 'it was minted with another client secret';
  return undefined;
}

function hasExpired(token: TokenRecord, now: number): boolean {
  if (token.expires_at === undefined) return false;
  const at = typeof token.expires_at === 'string' ? Date.parse(token.expires_at) : Number.NaN;
  // An expiry that is not a date counts as expired, as it does for the token in use (credentials.ts).
  return !(at > now);
}

function mintedAt(token: TokenRecord): number {
  const at = typeof token.obtained_at === 'string' ? Date.parse(token.obtained_at) : Number.NaN;
  return Number.isFinite(at) ? at : -Infinity;
}

function isObject(value: unknown): value is TokenRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
