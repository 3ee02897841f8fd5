// What login and token keep of a token the service issued: the token itself, when it expires, what
// it may do, and where it came from, stored in the profile with the settings given to get it.
import type { TokenResponse } from '../api/index.js';
import type { ProfileRecord, TokenRecord, TokenSource } from '../config/store.js';
import type { Deps } from './deps.js';
import type { Settings } from './settings.js';

export interface SaveTokenInput {
  profile: string;
  token: TokenResponse;
  source: TokenSource;
  baseUrl: string;
  organizationId: string | undefined;
  clientId?: string;
  /** Settings saved into the profile with the token (settingsToKeep). */
  settings?: Pick<ProfileRecord, 'base_url' | 'org'>;
}

/**
 * Stores the token, and the settings that come with it, in one write. `saved` says which settings
 * changed, for the confirmation; undefined when none did.
 */
export async function saveToken(deps: Deps, input: SaveTokenInput): Promise<{ record: TokenRecord; saved: string | undefined }> {
  const record = tokenRecord(deps.now(), input.token, input);
  const changed: string[] = [];
  await deps.config.updateProfile(input.profile, (profile) => {
    changed.length = 0;
    const next: ProfileRecord = { ...profile, token: record };
    if (input.settings?.base_url !== undefined && input.settings.base_url !== profile.base_url) {
      next.base_url = input.settings.base_url;
      changed.push(`base-url ${input.settings.base_url}`);
    }
    if (input.settings?.org !== undefined && input.settings.org !== profile.org) {
      next.org = input.settings.org;
      changed.push(`org ${input.settings.org}`);
    }
    return next;
  });
  const saved = changed.length === 0 ? undefined : `Saved ${changed.join(' and ')} in profile ${input.profile} for later commands (\`mkt config list\` shows the settings).`;
  return { record, saved };
}

/**
 * What login and token keep in the profile, as gh keeps the host and aws the region: the base URL and
 * organization given by flag or typed at the prompt (or, from before settings were kept, found in
 * the stored token). Values from the environment are not saved: they belong to that shell or job.
 */
export function settingsToKeep(settings: Settings, baseUrl: string, organization?: { value: string; prompted: boolean }): Pick<ProfileRecord, 'base_url' | 'org'> {
  const kept = (kind: Settings['org']['kind']) => kind === 'flag' || kind === 'token';
  return {
    ...(kept(settings.baseUrl.kind) ? { base_url: baseUrl } : {}),
    ...(organization !== undefined && (organization.prompted || kept(settings.org.kind)) ? { org: organization.value } : {}),
  };
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
