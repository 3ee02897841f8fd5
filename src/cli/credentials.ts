// Credentials for commands that call the service: read secrets safely (stdin, environment, masked
// prompt; never a flag), persist tokens, and find a usable token, minting a fresh client-credentials
// token when MKT_CLIENT_ID and MKT_CLIENT_SECRET allow it.
import { clientCredentials } from '../api/auth.js';
import { ORGANIZATION_PATTERN } from '../shared/patterns.js';
import type { HttpOptions } from '../api/request.js';
import type { TokenResponse } from '../api/types.js';
import type { TokenRecord, TokenSource } from '../config/store.js';
import type { Deps } from './deps.js';
import { formatAge } from '../shared/time.js';
import { CredentialsError, UsageError } from './errors.js';
import { readLimited } from '../shared/read-limited.js';
import { ORG_HINT, requireBaseUrl, resolveSettings, type Settings, type TargetFlags } from './settings.js';

/** Tokens with less than this left are renewed when client credentials are at hand. */
export const RENEW_BEFORE_MS = 60_000;

export interface SecretSource {
  /** The flag that reads standard input, e.g. --with-api-key. */
  stdinFlag: string;
  stdinFlagGiven: boolean;
  envName: string;
  /** What the secret is, for prompts and messages: "API key". */
  label: string;
  example: string;
}

/** Standard input (with the flag), the environment, or a masked prompt on a terminal, in that order. */
export async function readSecret(deps: Deps, source: SecretSource): Promise<{ value: string; from: string }> {
  if (source.stdinFlagGiven) {
    if (deps.io.stdinIsTTY) {
      throw new UsageError(`${source.stdinFlag} reads the ${source.label} from standard input, which is a terminal`, `pipe it in: ${source.example}`);
    }
    const value = (await readLimited(deps.io.stdin, `the ${source.label} on standard input`, 64 * 1024, deps.signal)).trim();
    if (value === '') throw new UsageError(`${source.stdinFlag} was given but standard input was empty`, `pipe the ${source.label} in: ${source.example}`);
    return { value, from: 'standard input' };
  }
  const fromEnv = deps.env[source.envName];
  if (fromEnv) return { value: fromEnv.trim(), from: source.envName };
  if (deps.io.stdinIsTTY && deps.io.stdoutIsTTY) {
    const value = (await deps.io.prompt(`${source.label}:`, { mask: true })).trim();
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

/** The organization: --org, MKT_ORG, the profile, or a prompt on a terminal. */
export async function readOrganization(deps: Deps, settings: Settings): Promise<string> {
  if (settings.org.value) return settings.org.value;
  if (deps.io.stdinIsTTY && deps.io.stdoutIsTTY) {
    const value = (await deps.io.prompt('Organization (org_<id>):', { mask: false })).trim();
    if (value !== '') return value;
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
}

export async function saveToken(deps: Deps, input: SaveTokenInput): Promise<TokenRecord> {
  const now = deps.now();
  const record: TokenRecord = {
    access_token: input.token.accessToken,
    token_type: input.token.tokenType,
    ...(input.token.expiresIn !== undefined ? { expires_at: new Date(now + input.token.expiresIn * 1000).toISOString() } : {}),
    ...(input.token.scope !== undefined ? { scope: input.token.scope } : {}),
    ...(input.organizationId ? { organization_id: input.organizationId } : {}),
    base_url: input.baseUrl,
    source: input.source,
    ...(input.clientId ? { client_id: input.clientId } : {}),
    obtained_at: new Date(now).toISOString(),
  };
  await deps.config.updateProfile(input.profile, (profile) => ({ ...profile, token: record }));
  return record;
}

export interface Credentials {
  baseUrl: string;
  organizationId: string;
  accessToken: string;
  settings: Settings;
}

/** A token to call the service with, or a CredentialsError (exit 4) that says how to get one. */
export async function requireCredentials(deps: Deps, flags: TargetFlags, http: HttpOptions): Promise<Credentials> {
  const settings = resolveSettings(deps, flags);
  const baseUrl = requireBaseUrl(deps, settings.baseUrl);
  const requireOrg = () => {
    const org = settings.org.value;
    if (!org) throw new UsageError('no organization set for this request', ORG_HINT);
    // Checked here too: a value with a line break or an escape would otherwise fail as a header.
    if (!ORGANIZATION_PATTERN.test(org)) {
      throw new UsageError(`the organization ${JSON.stringify(org.slice(0, 80))} (from ${settings.org.source}) is not of the form org_<id>`, ORG_HINT);
    }
    return org;
  };
  const token = settings.token;
  if (token.kind === 'env' && token.value) return { baseUrl, organizationId: requireOrg(), accessToken: token.value.access_token, settings };

  const profile = settings.profile.value;
  const problem = tokenProblem(token.value, baseUrl, deps.now());
  if (problem === undefined) return { baseUrl, organizationId: requireOrg(), accessToken: token.value!.access_token, settings };

  const clientId = deps.env.MKT_CLIENT_ID;
  const clientSecret = deps.env.MKT_CLIENT_SECRET;
  if (clientId && clientSecret && problem.kind !== 'other-service') {
    const organizationId = requireOrg();
    http.onDebug?.(`* ${problem.message}; minting a new token with MKT_CLIENT_ID and MKT_CLIENT_SECRET`);
    const fresh = await clientCredentials(http, baseUrl, clientId, clientSecret);
    await saveToken(deps, { profile, token: fresh, source: 'client-credentials', baseUrl, organizationId, clientId });
    return { baseUrl, organizationId, accessToken: fresh.accessToken, settings };
  }
  if (problem.kind === 'expiring') return { baseUrl, organizationId: requireOrg(), accessToken: token.value!.access_token, settings };
  throw new CredentialsError(`${problem.message} (profile ${profile})`,
    problem.kind === 'other-service'
      ? `run \`mkt login --base-url ${baseUrl}\`, or use the profile that holds that service's token (--profile)`
      : 'run `mkt login` (API key) or `mkt token` (client credentials), or set MKT_TOKEN; with MKT_CLIENT_ID and MKT_CLIENT_SECRET set, mkt renews tokens by itself');
}

export interface TokenProblem {
  kind: 'missing' | 'expired' | 'expiring' | 'other-service';
  message: string;
}

export function tokenProblem(token: TokenRecord | undefined, baseUrl: string | undefined, now: number): TokenProblem | undefined {
  if (token === undefined) return { kind: 'missing', message: 'not logged in: no stored token' };
  // A token is only ever sent to the service that issued it.
  if (baseUrl !== undefined && token.base_url && token.base_url !== baseUrl) {
    return { kind: 'other-service', message: `the stored token was issued by ${token.base_url}, not ${baseUrl}` };
  }
  if (token.expires_at === undefined) return undefined;
  const left = Date.parse(token.expires_at) - now;
  if (left <= 0) return { kind: 'expired', message: `the stored token expired ${formatAge(-left)} ago` };
  if (left < RENEW_BEFORE_MS) return { kind: 'expiring', message: `the stored token expires in ${formatAge(left)}` };
  return undefined;
}
