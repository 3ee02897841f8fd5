// Where each setting comes from, in one order for every command: flag > environment > profile in
// the config file > default. `mkt status` shows the source of each, as `aws configure list` does.
import type { ProfileRecord, TokenRecord } from '../../config/store.js';
import type { Deps } from '../deps.js';
import { isLoopback } from '../../shared/loopback.js';
import { ORGANIZATION_PATTERN } from '../../shared/patterns.js';
import { printable } from '../../shared/text.js';
import { UsageError } from '../errors/errors.js';
import { holdSecret } from '../credentials/secrets.js';

type SourceKind = 'flag' | 'env' | 'config' | 'token' | 'default' | 'unset';

export interface Resolved<T> {
  value: T | undefined;
  kind: SourceKind;
  /** `--org`, `MKT_ORG`, `/home/me/.config/mkt/config.json (profile default)`... */
  source: string;
}

export interface TargetFlags {
  profile?: string;
  baseUrl?: string;
  org?: string;
}

export interface Settings {
  profile: Resolved<string> & { value: string };
  baseUrl: Resolved<string>;
  org: Resolved<string>;
  /** The stored or MKT_TOKEN token; not checked for expiry here. */
  token: Resolved<TokenRecord>;
  record: ProfileRecord | undefined;
}

export const PROFILE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export interface ProfileUse {
  /** The command creates the profile when it does not exist (login, token, config set). */
  creates?: boolean;
}

/**
 * The profile: --profile, MKT_PROFILE, or "default". A profile named that the config file does not
 * hold is a typo (aws refuses it too), except for the commands that create one.
 */
export function resolveProfile(deps: Deps, flag: string | undefined, use: ProfileUse = {}): Settings['profile'] {
  const fromEnv = deps.env.MKT_PROFILE;
  const resolved = flag !== undefined
    ? { value: flag, kind: 'flag' as const, source: '--profile' }
    : fromEnv ? { value: fromEnv, kind: 'env' as const, source: 'MKT_PROFILE' } : { value: 'default', kind: 'default' as const, source: 'default' };
  if (!PROFILE_PATTERN.test(resolved.value)) {
    throw new UsageError(`invalid profile name "${resolved.value.slice(0, 64)}" (from ${resolved.source})`,
      'use letters, digits, ".", "_" and "-", starting with a letter or digit');
  }
  if (!use.creates && resolved.value !== 'default') {
    if (!deps.config.hasProfile(resolved.value)) {
      const known = deps.config.profileNames();
      const listed = known.length === 0 ? 'there are no profiles yet' : `the profiles are ${known.filter((name) => PROFILE_PATTERN.test(name)).join(', ')}`;
      throw new UsageError(`no profile "${resolved.value}" (from ${resolved.source}) in ${deps.config.path}`,
        `${listed}; \`mkt login --profile ${resolved.value}\` or \`mkt config set ... --profile ${resolved.value}\` creates it`);
    }
  }
  return resolved;
}

/**
 * A setting the profile holds that mkt cannot read (a hand-edited config file: `"format": "jsn"`):
 * refused, as the same value in its environment variable is, naming where it is and how to mend it.
 */
export function unreadableSetting(deps: Deps, profile: string, key: 'format' | 'precision', value: unknown, expected: string): UsageError {
  const shown = typeof value === 'string' ? printable(value, { max: 40, quote: true }) : JSON.stringify(value)?.slice(0, 40) ?? String(value);
  const flag = profile === 'default' ? '' : ` --profile ${profile}`;
  return new UsageError(`the profile ${profile}'s ${key} in ${deps.config.path} is ${shown}, which is not ${expected}`,
    `set it with \`mkt config set ${key} <value>${flag}\`, or remove it with \`mkt config unset ${key}${flag}\``);
}

export function resolveSettings(deps: Deps, flags: TargetFlags, use: ProfileUse = {}): Settings {
  const profile = resolveProfile(deps, flags.profile, use);
  const record = deps.config.profile(profile.value);
  const where = `${deps.config.path} (profile ${profile.value})`;
  const pick = (flag: string | undefined, flagName: string, envName: string, stored: string | undefined, fromToken?: string): Resolved<string> => {
    if (flag !== undefined && flag !== '') return { value: flag, kind: 'flag', source: flagName };
    const env = deps.env[envName];
    if (env) return { value: env, kind: 'env', source: envName };
    if (stored) return { value: stored, kind: 'config', source: where };
    if (fromToken) return { value: fromToken, kind: 'token', source: `${where}, from the stored token` };
    return { value: undefined, kind: 'unset', source: 'not set' };
  };
  // The stored token is a secret from here on: nothing mkt prints may show it.
  if (typeof record?.token?.access_token === 'string') holdSecret(deps, record.token.access_token);
  const envToken = deps.env.MKT_TOKEN;
  const token: Resolved<TokenRecord> = envToken
    ? { value: tokenFromEnv(envToken), kind: 'env', source: 'MKT_TOKEN' }
    : record?.token
      ? { value: record.token, kind: 'config', source: where }
      : { value: undefined, kind: 'unset', source: 'not set' };
  return {
    profile,
    baseUrl: pick(flags.baseUrl, '--base-url', 'MKT_BASE_URL', record?.base_url, record?.token?.base_url),
    org: pick(flags.org, '--org', 'MKT_ORG', record?.org, record?.token?.organization_id),
    token,
    record,
  };
}

function tokenFromEnv(accessToken: string): TokenRecord {
  return { access_token: accessToken, token_type: 'Bearer', base_url: '', source: 'cli-login', obtained_at: '' };
}

/** A base URL the client may send credentials to; explains how to set one when there is none. */
export function requireBaseUrl(deps: Deps, baseUrl: Resolved<string>): string {
  if (baseUrl.value === undefined) {
    throw new UsageError('no base URL for the Market Data Service is set',
      'pass --base-url URL, set MKT_BASE_URL, or run `mkt config set base-url URL` (for a local sandbox: `mkt sandbox`)');
  }
  return checkBaseUrl(deps, baseUrl.value, baseUrl.source);
}

export function checkBaseUrl(deps: Deps, value: string, source: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`the base URL "${value.slice(0, 200)}" (from ${source}) is not a valid URL`, 'use a full address such as https://api.example.com');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`the base URL ${url.href} (from ${source}) must use http:// or https://`);
  }
  if (url.username || url.password) {
    throw new UsageError(`the base URL (from ${source}) must not contain a user name or password`, 'credentials go in mkt login, never in a URL');
  }
  if (url.search || url.hash) throw new UsageError(`the base URL ${url.origin}${url.pathname} (from ${source}) must not have a query or fragment`);
  if (url.protocol === 'http:' && !isLoopback(url.hostname) && deps.env.MKT_ALLOW_INSECURE_HTTP !== '1') {
    throw new UsageError(`refusing to send credentials over plain http to ${url.host} (from ${source})`,
      'use https://, or set MKT_ALLOW_INSECURE_HTTP=1 if you really mean it (plain http is only allowed to loopback addresses)');
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

export const ORG_HINT = 'pass --org org_<id>, set MKT_ORG, or run `mkt config set org org_<id>`';

/** `value` when it is an organization id (a line break or an escape would break a header); else a UsageError naming its source. */
export function checkOrganization(value: string, source: string): string {
  if (!ORGANIZATION_PATTERN.test(value)) {
    throw new UsageError(`the organization ${JSON.stringify(value.slice(0, 80))} (from ${source}) is not of the form org_<id>`, ORG_HINT);
  }
  return value;
}
