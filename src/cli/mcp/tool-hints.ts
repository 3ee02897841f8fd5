// mkt mcp's words for what a tool call meets: those of `mkt quotes` (hints/quotes.ts,
// hints/credentials.ts, hints/library-errors.ts), but where those name a command line (a flag to
// add, a variable to set, --batch-size), these name what an agent and its user have instead: the
// tool's arguments, and the `args` and `env` of mkt's entry in the MCP client's configuration
// ("add --base-url to the server's args"). A command to run (`mkt login`) is one for the user, in a
// terminal, and the next call uses what it stores. Words come from the error's facts and the call's
// settings, as for the commands; no sentence of theirs is rewritten.
import {
  ApiError, AuthError, ForbiddenError, InvalidRequestError, NetworkError, PositionsError, RateLimitError, ResponseError,
} from '../../api/index.js';
import { BEARER_TOKEN_PATTERN } from '../../shared/patterns.js';
import type { Deps } from '../deps.js';
import { CredentialsError, UsageError } from '../errors/errors.js';
import { baseUrlWords, hostOf, UNTRUSTED_CERTIFICATE } from '../hints/library-errors.js';
import { quotesExplainer, suggestedMaxWait } from '../hints/quotes.js';
import type { Explainer, SettingNames, Words } from '../hints/words.js';
import { checkBaseUrl, checkOrganization, resolveSettings, type Settings, type TargetFlags } from '../options/settings.js';

/** Where an agent's user puts a flag, and a variable, for mkt mcp. */
export const SERVER_ARGS = 'the server\'s args';
export const SERVER_ENV = 'the server\'s env';

/** A setting's source as the server's entry gives it: `--base-url in the server's args`, `MKT_BASE_URL in the server's env`. */
function inEntry(source: string): string {
  if (source.startsWith('--')) return `${source} in ${SERVER_ARGS}`;
  return /^[A-Za-z][A-Za-z0-9_]*$/.test(source) ? `${source} in ${SERVER_ENV}` : source;
}

/** How the call's settings were given, in the words of the server's entry (the flags', when the call made no client). */
export function entryNames(names: SettingNames | undefined): SettingNames {
  const given = names ?? { baseUrl: '--base-url', timeout: '--timeout' };
  return {
    baseUrl: inEntry(given.baseUrl),
    timeout: inEntry(given.timeout),
    ...(given.caFile ? { caFile: { path: given.caFile.path, source: inEntry(given.caFile.source) } } : {}),
    ...(given.proxy ? { proxy: { variable: inEntry(given.proxy.variable) } } : {}),
  };
}

/** Errors met while the call found its settings and credentials (ToolCall.client), worded from those settings. */
const settingsErrors = new WeakSet<object>();

export function markSettingsError(error: unknown): void {
  if (error !== null && typeof error === 'object') settingsErrors.add(error);
}

/**
 * A tool's explainer: mkt quotes' (for `symbolCount` symbols), with the tool's and the server
 * entry's words wherever those name a command line. `inputs`: what a 400 may be about, as the tool
 * takes it (`the symbols and venue arguments`).
 */
export function toolExplainer(deps: Deps, flags: TargetFlags, symbolCount: number, inputs: string): Explainer {
  const quotes = quotesExplainer(deps, flags, symbolCount);
  return (error, names) => {
    if (settingsErrors.has(error) || error instanceof CredentialsError) {
      const words = settingsWords(deps, flags, error);
      if (words !== undefined) return words;
    }
    return serviceWords(deps, flags, error, names, inputs) ?? quotes(error, names);
  };
}

/** The refusals of the service, the network and the rate limit whose CLI words name a flag or a command. */
function serviceWords(deps: Deps, flags: TargetFlags, error: Error, names: SettingNames, inputs: string): Words | undefined {
  const fewer = 'ask for fewer symbols in one call';
  if (error instanceof RateLimitError && error.plan !== undefined && error.plan.limit > 0 && error.plan.windowMs > 0 && error.plan.requests > 0) {
    const wait = suggestedMaxWait(error.plan);
    return { hint: `add --max-wait ${wait} to ${SERVER_ARGS} (or MKT_MAX_WAIT=${wait} to ${SERVER_ENV}), or ${fewer}` };
  }
  if (error instanceof ResponseError && error.problem === 'too-large') return { hint: `${fewer}, or check that ${baseUrlWords(names)} points at the Market Data Service` };
  if (error instanceof NetworkError && error.proxyStatus === undefined && error.code !== undefined && UNTRUSTED_CERTIFICATE.has(error.code) && names.caFile === undefined) {
    return { hint: `trust the CA (PEM) that issued ${hostOf(error.url)}'s certificate: add --ca-file FILE to ${SERVER_ARGS}, or MKT_CA_FILE to ${SERVER_ENV}` };
  }
  if (error instanceof PositionsError && error.reason === 'no-currency') {
    return { hint: 'give the position a currency, or the call a currency argument for the positions that name none' };
  }
  if (!(error instanceof ApiError)) return undefined;
  if (error.status === 414) return { hint: `the request was too long for the service: ${fewer}` };
  if (error.status === 429 && error.retryAfterMs === undefined) return { hint: `call again in a minute, or ${fewer}` };
  const most = error instanceof InvalidRequestError ? error.maxSymbols : undefined;
  if (most !== undefined) return { hint: `the service takes at most ${most} symbols in one request: ask for at most ${most} in one call` };
  const settings = settingsOf(deps, flags);
  if (settings === undefined) return undefined;
  const profile = profileOf(settings);
  if (error.status === 404) {
    const base = /^(.*)\/v1\/*$/.exec(settings.baseUrl.value ?? '')?.[1];
    return base === undefined ? undefined : { hint: `the base URL ends in /v1, and mkt adds /v1 to each path itself: make it ${base} (${names.baseUrl})` };
  }
  if (error.operation === 'clientCredentials') {
    if (![400, 401, 403].includes(error.status)) return undefined;
    return { hint: `mkt asked for a token with MKT_CLIENT_ID and MKT_CLIENT_SECRET and the service refused them: check both in ${SERVER_ENV}, or remove them and have the user run \`mkt login${profile}\` in a terminal` };
  }
  if (error instanceof AuthError) return unauthenticatedWords(deps, settings, profile);
  if (error instanceof ForbiddenError) return forbiddenWords(settings);
  if (error instanceof InvalidRequestError) return { hint: `check ${inputs}, and ${organizationWords(settings)}` };
  return undefined;
}

function unauthenticatedWords(deps: Deps, settings: Settings, profile: string): Words | undefined {
  if (settings.token.kind === 'env') {
    return { hint: `MKT_TOKEN in ${SERVER_ENV} overrides any stored token, and the service refused it (invalid or expired): put a fresh one there (\`mkt token --print\` in a terminal prints one), or remove it to use the stored token` };
  }
  // With client credentials, a 401 has been answered with a new token already: mkt quotes' words hold.
  if (deps.env.MKT_CLIENT_ID && deps.env.MKT_CLIENT_SECRET) return undefined;
  return { hint: `the token is invalid or expired: ${newTokenWords(settings, profile)}` };
}

function forbiddenWords(settings: Settings): Words | undefined {
  const { org, token } = settings;
  const tokenOrg = token.value?.organization_id;
  const how = token.kind === 'env' ? `MKT_TOKEN (in ${SERVER_ENV})` : 'the stored token';
  if (org.value && tokenOrg && org.value !== tokenOrg) {
    return { hint: `${how} was issued for ${tokenOrg}, but the request was for ${org.value} (from ${inEntry(org.source)}): make the organization ${tokenOrg} (--org in ${SERVER_ARGS}, or MKT_ORG in ${SERVER_ENV}), or have the user log in for ${org.value} in a terminal (\`mkt login --org ${org.value}\`)` };
  }
  const scope = token.value?.scope;
  // No scope: mkt quotes' words name no command line.
  if (scope !== undefined && !scope.split(/\s+/).includes('market.read')) return undefined;
  return { hint: `the token lacks the market.read scope or access to ${organizationWords(settings)}: check it, or have the user log in with a key that has both` };
}

/** `the organization org_demo (from MKT_ORG in the server's env)`, or where to give one. */
function organizationWords(settings: Settings): string {
  const { org } = settings;
  return org.value ? `the organization ${org.value} (from ${inEntry(org.source)})` : `the organization (--org in ${SERVER_ARGS}, or MKT_ORG in ${SERVER_ENV})`;
}

/** How the user gets a token the next call uses, by how the stored one was got. */
function newTokenWords(settings: Settings, profile: string): string {
  const renew = `with MKT_CLIENT_ID and MKT_CLIENT_SECRET in ${SERVER_ENV}, mkt gets and renews tokens by itself`;
  switch (settings.token.value?.source) {
    case 'cli-login': return `the user runs \`mkt login${profile}\` in a terminal for a new one, which the next call uses`;
    case 'client-credentials': return `the user runs \`mkt token${profile}\` in a terminal for a new one, which the next call uses (${renew})`;
    default: return `the user runs \`mkt login${profile}\` (an API key) or \`mkt token${profile}\` (client credentials) in a terminal, which the next call uses; or put MKT_TOKEN in ${SERVER_ENV} (${renew})`;
  }
}

/**
 * What is wrong with the settings or the credentials, found again from the settings themselves (the
 * errors carry no more than their words): the base URL, the organization, MKT_TOKEN, the stored token.
 */
function settingsWords(deps: Deps, flags: TargetFlags, error: Error): Words | undefined {
  const settings = settingsOf(deps, flags);
  if (settings === undefined) return undefined;
  const profile = profileOf(settings);
  const { baseUrl, org, token } = settings;
  if (error instanceof CredentialsError) {
    const stored = token.value;
    if (baseUrl.value !== undefined && stored?.base_url && stored.base_url.replace(/\/+$/, '') !== baseUrl.value.replace(/\/+$/, '')) {
      return { hint: `the user runs \`mkt login${profile} --base-url ${baseUrl.value}\` in a terminal, or name the profile that holds that service's token with --profile in ${SERVER_ARGS}` };
    }
    return { hint: newTokenWords(settings, profile) };
  }
  if (!(error instanceof UsageError)) return undefined;
  const set = (what: string, flag: string, variable: string, key: string) =>
    `add ${flag} ${what} to ${SERVER_ARGS}, or ${variable} to ${SERVER_ENV}; or the user runs \`mkt config set ${key} ${what}${profile}\` in a terminal`;
  if (baseUrl.value === undefined) return { hint: set('URL', '--base-url', 'MKT_BASE_URL', 'base-url') };
  try {
    checkBaseUrl(deps, baseUrl.value, baseUrl.source);
  } catch {
    const insecure = URL.canParse(baseUrl.value) && new URL(baseUrl.value).protocol === 'http:';
    return insecure ? { hint: `use https:// in the base URL (${inEntry(baseUrl.source)}), or add MKT_ALLOW_INSECURE_HTTP=1 to ${SERVER_ENV} if you really mean it (plain http is only allowed to loopback addresses)` } : undefined;
  }
  try {
    if (org.value) checkOrganization(org.value, org.source);
  } catch {
    return { hint: set('org_<id>', '--org', 'MKT_ORG', 'org') };
  }
  if (!org.value) return { hint: set('org_<id>', '--org', 'MKT_ORG', 'org') };
  if (token.kind === 'env' && token.value !== undefined && !BEARER_TOKEN_PATTERN.test(token.value.access_token)) {
    return { hint: `put the access token alone in MKT_TOKEN in ${SERVER_ENV} (\`mkt token --print\` in a terminal prints one)` };
  }
  return undefined;
}

function settingsOf(deps: Deps, flags: TargetFlags): Settings | undefined {
  try {
    return resolveSettings(deps, flags);
  } catch {
    return undefined;
  }
}

/** ` --profile NAME` when the server's args chose it: the user's command must name it too. */
function profileOf(settings: Settings): string {
  return settings.profile.kind === 'flag' ? ` --profile ${settings.profile.value}` : '';
}
