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
  /** mkt value's --precision: minor, full, or a number of places. */
  precision?: string;
  token?: TokenRecord;
}

export interface ConfigData {
  profiles?: Record<string, ProfileRecord>;
}
