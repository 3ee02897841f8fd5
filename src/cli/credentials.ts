// Credentials for commands that call the service: read secrets safely (stdin, environment, masked
// prompt; never a flag), persist tokens, and find a usable token, minting a fresh client-credentials
// token when MKT_CLIENT_ID and MKT_CLIENT_SECRET allow it.
import type { TokenResponse } from '../api/index.js';
import { RENEW_BEFORE_MS, RENEW_FRACTION, MAX_SECRET_BYTES } from '../shared/limits.js';
import { BEARER_TOKEN_PATTERN, ORGANIZATION_PATTERN } from '../shared/patterns.js';
import type { ProfileRecord, TokenRecord, TokenSource } from '../config/store.js';
import type { Deps } from './deps.js';
import { formatAge } from '../shared/time.js';
import { stripControl } from '../shared/text.js';
import { CredentialsError, UsageError } from './errors.js';
import { readLimited } from '../shared/read-limited.js';
import type { ClientSettings } from './client.js';
import { holdSecret } from './secrets.js';
import { renewToken, tokenRecord, withRenewal, type RenewableCredentials, type RenewalTarget } from './token-renewal.js';
import { checkOrganization, ORG_HINT, requireBaseUrl, resolveSettings, type Settings, type TargetFlags } from './settings.js';

/** How long before `token` expires it is renewed (RENEW_FRACTION of its lifetime, at most RENEW_BEFORE_MS); a minute when its lifetime is unknown. */
export function renewalMargin(token: Pick<TokenRecord, 'expires_at' | 'obtained_at'>): number {
  const lifetime = Date.parse(token.expires_at ?? '') - Date.parse(token.obtained_at);
  return Number.isFinite(lifetime) && lifetime > 0 ? Math.min(RENEW_BEFORE_MS, Math.round(lifetime * RENEW_FRACTION)) : RENEW_BEFORE_MS;
}

export interface SecretSource {
  /** The flag that reads standard input, e.g. --with-api-key. */
  stdinFlag: string;
  stdinFlagGiven: boolean;
  envName: string;
  /** What the secret is, for prompts and messages: "API key". */
  label: string;
  example: string;
  /** What is wrong with a value, or undefined: a prompt asks again instead of failing. */
  check?: (value: string) => string | undefined;
}

/**
 * Standard input (with the flag), the environment, or a masked prompt on a terminal, in that order.
 * The value is held as a secret: nothing mkt prints from now on shows it.
 */
export async function readSecret(deps: Deps, source: SecretSource): Promise<{ value: string; from: string }> {
  const found = await findSecret(deps, source);
  holdSecret(deps, found.value);
  return found;
}

async function findSecret(deps: Deps, source: SecretSource): Promise<{ value: string; from: string }> {
  if (source.stdinFlagGiven) {
    if (deps.io.stdinIsTTY) {
      throw new UsageError(`${source.stdinFlag} reads the ${source.label} from standard input, which is a terminal`, `pipe it in: ${source.example}`);
    }
    const value = (await readLimited(deps.io.stdin, `the ${source.label} on standard input`, MAX_SECRET_BYTES, deps.signal)).trim();
    if (value === '') throw new UsageError(`${source.stdinFlag} was given but standard input was empty`, `pipe the ${source.label} in: ${source.example}`);
    return { value, from: 'standard input' };
  }
  const fromEnv = deps.env[source.envName];
  if (fromEnv) return { value: fromEnv.trim(), from: source.envName };
  if (deps.io.stdinIsTTY && deps.io.stdoutIsTTY) {
    const value = (await deps.io.prompt(`${source.label}:`, { mask: true, validate: (answer) => answer === '' ? `enter the ${source.label}` : source.check?.(answer) })).trim();
    if (value === '') throw new UsageError(`no ${source.label} was entered`);
    return { value, from: 'the prompt' };
  }
  throw new UsageError(`no ${source.label} given`, secretHint(source));
}

/** Secrets never come from flags: they leak into shell history and `ps`. */
export function rejectSecretFlag(value: string | undefined, flag: string, hint: string): void {
  if (value !== undefined) throw new UsageError(`${flag} is not accepted: secrets on the command line leak into shell history and ps`, hint);
}

export function secretHint(source: SecretSource): string {
  return `give the ${source.label} on standard input with ${source.stdinFlag} (${source.example}), in the ${source.envName} environment variable, or at the prompt on a terminal; never as a flag value, which leaks into shell history and ps`;
}

/** The organization: --org, MKT_ORG, the profile, or a prompt on a terminal (asked again after a typo). */
export async function readOrganization(deps: Deps, settings: Settings): Promise<{ value: string; prompted: boolean }> {
  if (settings.org.value) return { value: settings.org.value, prompted: false };
  if (deps.io.stdinIsTTY && deps.io.stdoutIsTTY) {
    const validate = (answer: string) => ORGANIZATION_PATTERN.test(answer) ? undefined : 'an organization is org_<id>, e.g. org_demo';
    const value = (await deps.io.prompt('Organization (org_<id>):', { mask: false, validate })).trim();
    if (value !== '') return { value, prompted: true };
  }
  throw new UsageError('no organization given', ORG_HINT);
}

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

export interface Credentials extends RenewableCredentials {
  baseUrl: string;
  organizationId: string;
  settings: Settings;
}

/**
 * A token, and where to send it, for `call`; a 401 to it renews the token once with client
 * credentials, and `call` runs once more (./token-renewal.ts).
 */
export async function withCredentials<T>(deps: Deps, flags: TargetFlags, http: ClientSettings, call: (credentials: Credentials) => Promise<T>): Promise<T> {
  return withRenewal(await requireCredentials(deps, flags, http), call, http);
}

/** A token to call the service with, or a CredentialsError (exit 4) that says how to get one. */
export async function requireCredentials(deps: Deps, flags: TargetFlags, http: ClientSettings): Promise<Credentials> {
  const settings = resolveSettings(deps, flags);
  const baseUrl = requireBaseUrl(deps, settings.baseUrl);
  const requireOrg = () => {
    const org = settings.org.value;
    if (!org) throw new UsageError('no organization set for this request', ORG_HINT);
    return checkOrganization(org, settings.org.source);
  };
  const token = settings.token;
  if (token.kind === 'env' && token.value) {
    if (!isBearerToken(token.value.access_token)) {
      throw new UsageError('MKT_TOKEN holds a character a bearer token cannot have (a space, a line break or another control character)',
        'set it to the access token alone, e.g. export MKT_TOKEN="$(mkt token --print)"');
    }
    return { baseUrl, organizationId: requireOrg(), accessToken: token.value.access_token, settings };
  }

  const profile = settings.profile.value;
  const now = deps.now();
  const problem = tokenProblem(token.value, baseUrl, now);
  if (problem?.unreadableExpiry) deps.io.stderr.write(`warning: ${problem.message} (${deps.config.path}, profile ${profile})\n`);
  const clientId = deps.env.MKT_CLIENT_ID;
  const clientSecret = deps.env.MKT_CLIENT_SECRET;
  const renewable = Boolean(clientId && clientSecret) && problem?.kind !== 'other-service';
  const target = (organizationId: string): RenewalTarget => ({
    profile, baseUrl, organizationId, clientId: clientId!, clientSecret: clientSecret!,
    isFresh: (stored) => tokenProblem(stored, baseUrl, deps.now()) === undefined,
  });
  const credentials = (organizationId: string, accessToken: string): Credentials => ({
    baseUrl, organizationId, accessToken, settings,
    ...(renewable ? { renew: (rejected: string) => renewToken(deps, target(organizationId), http, rejected) } : {}),
  });
  if (problem === undefined) return credentials(requireOrg(), token.value!.access_token);

  if (renewable) {
    const organizationId = requireOrg();
    http.onDebug?.(`* ${problem.message}; minting a new token with MKT_CLIENT_ID and MKT_CLIENT_SECRET`);
    return credentials(organizationId, await renewToken(deps, target(organizationId), http));
  }
  if (problem.kind === 'expiring') return credentials(requireOrg(), token.value!.access_token);
  const where = problem.kind === 'unusable' || problem.unreadableExpiry ? `${deps.config.path}, profile ${profile}` : `profile ${profile}`;
  throw new CredentialsError(`${problem.message} (${where})`, credentialsHint(settings, problem, baseUrl));
}

/** The next step, naming the profile when it was chosen with --profile, and the command that got the token. */
export function credentialsHint(settings: Settings, problem: TokenProblem, baseUrl: string | undefined): string {
  const profile = settings.profile.kind === 'flag' ? ` --profile ${settings.profile.value}` : '';
  if (problem.kind === 'other-service') {
    return `run \`mkt login${profile} --base-url ${baseUrl}\`, or use the profile that holds that service's token (--profile)`;
  }
  const renew = 'with MKT_CLIENT_ID and MKT_CLIENT_SECRET set, mkt renews tokens by itself';
  switch (settings.token.value?.source) {
    case 'cli-login': return `run \`mkt login${profile}\` for a new token`;
    case 'client-credentials': return `run \`mkt token${profile}\` for a new token (${renew})`;
    default: return `run \`mkt login${profile}\` (API key) or \`mkt token${profile}\` (client credentials), or set MKT_TOKEN; ${renew}`;
  }
}

/** A bearer token is visible ASCII (RFC 6750 §2.1): anything else would break the header. */
export function isBearerToken(value: string): boolean {
  return BEARER_TOKEN_PATTERN.test(value);
}

export interface TokenProblem {
  kind: 'missing' | 'unusable' | 'expired' | 'expiring' | 'other-service';
  message: string;
  /** The stored expires_at is not a date: the token counts as expired (issue 19, item 8). */
  unreadableExpiry?: boolean;
}

export function tokenProblem(token: TokenRecord | undefined, baseUrl: string | undefined, now: number): TokenProblem | undefined {
  if (token === undefined) return { kind: 'missing', message: 'not logged in: no stored token' };
  if (typeof token.access_token !== 'string' || !isBearerToken(token.access_token)) {
    return { kind: 'unusable', message: 'the stored token holds a character a bearer token cannot have (a line break, say)' };
  }
  // A token is only ever sent to the service that issued it.
  if (baseUrl !== undefined && token.base_url && token.base_url !== baseUrl) {
    return { kind: 'other-service', message: `the stored token was issued by ${token.base_url}, not ${baseUrl}` };
  }
  if (token.expires_at === undefined) return undefined;
  const left = expiresIn(token.expires_at, now);
  if (left === undefined) {
    const shown = JSON.stringify(stripControl(String(token.expires_at)).slice(0, 40));
    return { kind: 'expired', message: `the stored token's expiry ${shown} is not a date, so it counts as expired`, unreadableExpiry: true };
  }
  if (left <= 0) return { kind: 'expired', message: `the stored token expired ${formatAge(-left)} ago` };
  if (left < renewalMargin(token)) return { kind: 'expiring', message: `the stored token expires in ${formatAge(left)}` };
  return undefined;
}

/** Milliseconds from `now` to a stored expires_at (negative once past); undefined when it is not a date. */
export function expiresIn(expiresAt: unknown, now: number): number | undefined {
  const at = typeof expiresAt === 'string' ? Date.parse(expiresAt) : Number.NaN;
  return Number.isFinite(at) ? at - now : undefined;
}
