// What login and token keep of a token the service issued: the token itself, when it expires, what
// it may do, and where it came from, stored in the profile with the settings given to get it.
import type { TokenResponse } from '../../api/index.js';
import type { ProfileRecord, TokenRecord, TokenSource } from '../../config/store.js';
import { fingerprintKey, newFingerprintKey, secretFingerprint } from './client-tokens.js';
import type { Deps } from '../deps.js';
import type { Settings } from '../options/settings.js';

export interface SaveTokenInput {
  profile: string;
  token: TokenResponse;
  source: TokenSource;
  baseUrl: string;
  organizationId: string | undefined;
  clientId?: string;
  /** `mkt token`'s: its fingerprint is kept with the token, so that a run with the same MKT_CLIENT_ID and MKT_CLIENT_SECRET uses it (client-tokens.ts). */
  clientSecret?: string;
  /** Settings saved into the profile with the token (settingsToKeep). */
  settings?: Pick<ProfileRecord, 'base_url' | 'org'>;
}

/**
 * Stores the token, and the settings that come with it, in one write. `saved` says which settings
 * changed, for the confirmation; undefined when none did.
 */
export async function saveToken(deps: Deps, input: SaveTokenInput): Promise<{ record: TokenRecord; saved: string | undefined }> {
  const now = deps.now();
  const changed: string[] = [];
  const record = await deps.config.withLock(async (locked) => {
    // The fingerprint's key is the file's as it is under the lock: another mkt may have just made it.
    const fileKey = fingerprintKey(locked.data());
    const key = input.clientSecret === undefined ? undefined : fileKey ?? await newFingerprintKey();
    const fingerprint = key === undefined ? undefined : await secretFingerprint(key, input.clientSecret!);
    const record = tokenRecord(now, input.token, { ...input, secretFingerprint: fingerprint });
    locked.update((profiles) => {
      const profile: ProfileRecord = (Object.hasOwn(profiles, input.profile) ? profiles[input.profile] : undefined) ?? {};
      const next: ProfileRecord = { ...profile, token: record };
      if (input.settings?.base_url !== undefined && input.settings.base_url !== profile.base_url) {
        next.base_url = input.settings.base_url;
        changed.push(`base-url ${input.settings.base_url}`);
      }
      if (input.settings?.org !== undefined && input.settings.org !== profile.org) {
        next.org = input.settings.org;
        changed.push(`org ${input.settings.org}`);
      }
      profiles[input.profile] = next;
    }, key === undefined || key === fileKey ? undefined : { fingerprint_key: key });
    return record;
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
export function tokenRecord(
  now: number, token: TokenResponse,
  from: { source: TokenSource; baseUrl: string; organizationId: string | undefined; clientId?: string; secretFingerprint?: string },
): TokenRecord {
  return {
    access_token: token.accessToken,
    token_type: token.tokenType,
    ...(token.expiresIn !== undefined ? { expires_at: new Date(now + token.expiresIn * 1000).toISOString() } : {}),
    ...(token.scope !== undefined ? { scope: token.scope } : {}),
    ...(from.organizationId ? { organization_id: from.organizationId } : {}),
    base_url: from.baseUrl,
    source: from.source,
    ...(from.clientId ? { client_id: from.clientId } : {}),
    ...(from.secretFingerprint ? { secret_fingerprint: from.secretFingerprint } : {}),
    obtained_at: new Date(now).toISOString(),
  };
}
