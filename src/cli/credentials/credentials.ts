// Each data request's token: the one in MKT_TOKEN, the stored one, or, when MKT_CLIENT_ID and
// MKT_CLIENT_SECRET are set, that client's own stored token (client-tokens.ts), or one minted with
// them when it is missing or about to expire, and again when the service refuses it (token-renewal.ts). The client asks for it through its
// token source (createTokenSource), once per call and after a 401. What login and token read from
// the user is secret-input.ts'; what they store, saved-token.ts'.
import type { TokenSource } from '../../api/index.js';
import type { TokenRecord } from '../../config/store.js';
import { RENEW_BEFORE_MS, RENEW_FRACTION } from '../../shared/limits.js';
import { BEARER_TOKEN_PATTERN } from '../../shared/patterns.js';
import { printable, stripControl } from '../../shared/text.js';
import { formatAge } from '../../shared/time.js';
import { clientTokens, lookUpClientToken } from './client-tokens.js';
import type { Deps } from '../deps.js';
import { diagnosticsOf } from '../output/diagnostics.js';
import { CredentialsError, UsageError } from '../errors/errors.js';
import { checkOrganization, ORG_HINT, requireBaseUrl, resolveSettings, type Settings, type TargetFlags } from '../options/settings.js';
import { holdSecret } from './secrets.js';
import { renewToken, type RenewalTarget, type TokenRequests } from './token-renewal.js';

export interface Credentials {
  baseUrl: string;
  organizationId: string;
  settings: Settings;
  accessToken: string;
  /** Set when client credentials can replace the token: a fresh one, `rejected` being the one the service refused. */
  renew?: (rejected: string) => Promise<string>;
}

/** A token to call the service with, or a CredentialsError (exit 4) that says how to get one. */
export async function requireCredentials(deps: Deps, flags: TargetFlags, requests: TokenRequests): Promise<Credentials> {
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
  const clientId = deps.env.MKT_CLIENT_ID;
  const clientSecret = deps.env.MKT_CLIENT_SECRET;
  const client = clientId && clientSecret ? { baseUrl, clientId, clientSecret } : undefined;
  // With client credentials, only that client's own token is used (client-tokens.ts); any other is
  // set aside, and one is minted. Without them, the profile's token, whoever's it is.
  const lookup = client === undefined ? undefined : await lookUpClientToken(deps.config.read(), settings.record, client);
  const stored = lookup === undefined ? token.value : lookup.found?.token;
  if (lookup?.found !== undefined && typeof stored!.access_token === 'string') holdSecret(deps, stored!.access_token);
  const now = deps.now();
  const problem = lookup !== undefined && stored === undefined
    ? { kind: 'missing' as const, message: noClientToken(client!, lookup.setAside) }
    : tokenProblem(stored, baseUrl, now);
  if (problem?.unreadableExpiry) diagnosticsOf(deps).warn({ code: 'token_expiry_unreadable', message: `${problem.message} (${deps.config.path}, profile ${profile})` });
  const renewable = client !== undefined;
  const target = (organizationId: string): RenewalTarget => ({
    profile, baseUrl, organizationId, clientId: clientId!, clientSecret: clientSecret!,
    isFresh: (fresh) => tokenProblem(fresh, baseUrl, deps.now()) === undefined,
  });
  const credentials = (organizationId: string, accessToken: string): Credentials => ({
    baseUrl, organizationId, accessToken, settings,
    ...(renewable ? { renew: (rejected: string) => renewToken(deps, target(organizationId), requests, rejected) } : {}),
  });
  if (problem === undefined) return credentials(requireOrg(), stored!.access_token);

  if (renewable) {
    const organizationId = requireOrg();
    requests.onDebug?.(`* ${problem.message}; minting a new token with MKT_CLIENT_ID and MKT_CLIENT_SECRET`);
    return credentials(organizationId, await renewToken(deps, target(organizationId), requests));
  }
  if (problem.kind === 'expiring') return credentials(requireOrg(), stored!.access_token);
  const where = problem.kind === 'unusable' || problem.unreadableExpiry ? `${deps.config.path}, profile ${profile}` : `profile ${profile}`;
  throw new CredentialsError(`${problem.message} (${where})`, credentialsHint(settings, problem, baseUrl));
}

/**
 * The client's token source for a data command. First the token `first` holds; at each later call
 * the credentials found again, so that a watch renews a token before it expires; after a 401, a
 * renewed token when client credentials can replace it, else the refused one back, which tells the
 * client not to ask again (a second 401 is the caller's: exit 4).
 */
export function createTokenSource(deps: Deps, flags: TargetFlags, first: Credentials, requests: TokenRequests): TokenSource {
  let current: Credentials | undefined;
  return async ({ rejected }) => {
    if (current === undefined) {
      current = first;
    } else if (rejected === undefined) {
      current = await requireCredentials(deps, flags, requests);
    }
    if (rejected === undefined) return current.accessToken;
    if (current.renew === undefined) return rejected;
    requests.onDebug?.('* renewing the token with MKT_CLIENT_ID and MKT_CLIENT_SECRET');
    const accessToken = await current.renew(rejected);
    current = { ...current, accessToken };
    return accessToken;
  };
}

/** How long before `token` expires it is renewed (RENEW_FRACTION of its lifetime, at most RENEW_BEFORE_MS); a minute when its lifetime is unknown. */
export function renewalMargin(token: Pick<TokenRecord, 'expires_at' | 'obtained_at'>): number {
  const lifetime = Date.parse(token.expires_at ?? '') - Date.parse(token.obtained_at);
  return Number.isFinite(lifetime) && lifetime > 0 ? Math.min(RENEW_BEFORE_MS, Math.round(lifetime * RENEW_FRACTION)) : RENEW_BEFORE_MS;
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
    default: return `run \`mkt login${profile}\` (API key) or \`mkt token${profile}\` (client credentials), or set MKT_TOKEN; ${renew}${keptFor(settings)}`;
  }
}

/** `; the tokens it keeps for clients demo, ci are…`: why a profile with tokens has none to use without client credentials. */
function keptFor(settings: Settings): string {
  const kept = clientTokens(settings.record);
  if (kept.length === 0) return '';
  const ids = [...new Set(kept.map((token) => printable(String(token.client_id), { max: 64 })))].join(', ');
  return `; the profile's tokens kept for client${kept.length === 1 ? '' : 's'} ${ids} are used only with that client's MKT_CLIENT_ID and MKT_CLIENT_SECRET`;
}

/** `no stored token of client ci for https://…` and, when the profile has one, why it is not that client's. */
export function noClientToken(client: { baseUrl: string; clientId: string }, setAside: string | undefined): string {
  const profiles = setAside === undefined ? '' : ` (the profile's token is not used: ${setAside})`;
  return `no stored token of client ${printable(client.clientId, { max: 200 })} for ${client.baseUrl}${profiles}`;
}

/** A bearer token is visible ASCII (RFC 6750 §2.1): anything else would break the header. */
export function isBearerToken(value: string): boolean {
  return BEARER_TOKEN_PATTERN.test(value);
}

export interface TokenProblem {
  kind: 'missing' | 'unusable' | 'expired' | 'expiring' | 'other-service';
  message: string;
  /** The stored expires_at is not a date: the token counts as expired. */
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
