// What config.json holds: profiles by name, each with its settings and its token.

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
  obtained_at: string;
}

export interface ProfileRecord {
  base_url?: string;
  org?: string;
  format?: string;
  token?: TokenRecord;
}

export interface ConfigData {
  profiles?: Record<string, ProfileRecord>;
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
