// What config.json holds: profiles by name, each with its settings, its token, and the tokens minted
// with MKT_CLIENT_ID and MKT_CLIENT_SECRET, kept per client; and the key of the secrets' fingerprints.

export type TokenSource = 'cli-login' | 'client-credentials';

export interface TokenRecord {
  access_token: string;
  token_type: string;
  /** ISO 8601; absent when the service gave no expires_in. */
  expires_at?: string;
  scope?: string;
  organization_id?: string;
  base_url: string;
  source: TokenSource;
  client_id?: string;
  /**
   * A client-credentials token's: `hmac-sha256:<hex>`, the HMAC of the client secret it was minted
   * with, keyed with the file's fingerprint_key. Never the secret.
   */
  secret_fingerprint?: string;
  obtained_at: string;
}

export interface ProfileRecord {
  base_url?: string;
  org?: string;
  format?: string;
  /** mkt value's --precision: minor, full, or a number of places. */
  precision?: string;
  /** The token of `mkt login` or `mkt token`, used without MKT_CLIENT_ID and MKT_CLIENT_SECRET. */
  token?: TokenRecord;
  /** Tokens minted with MKT_CLIENT_ID and MKT_CLIENT_SECRET, one per base URL and client id (src/cli/credentials/client-tokens.ts). */
  client_tokens?: TokenRecord[];
}

export interface ConfigData {
  profiles?: Record<string, ProfileRecord>;
  /** The random key of the secrets' fingerprints (base64url, 32 bytes), made at the first one. */
  fingerprint_key?: string;
}

/** The settings `mkt config set` writes; anything else a profile holds (its token) is a secret. */
const SETTINGS: ReadonlySet<string> = new Set(['base_url', 'org', 'format']);

/**
 * Whether the file holds a secret: a token, or anything that is not a setting, so that what a newer
 * mkt keeps there counts as one until it is known not to be.
 */
export function holdsSecret(data: ConfigData): boolean {
  if (Object.keys(data).some((key) => key !== 'profiles')) return true;
  return Object.values(data.profiles ?? {}).some((profile) => Object.keys(profile).some((key) => !SETTINGS.has(key)));
}
