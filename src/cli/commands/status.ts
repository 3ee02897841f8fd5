// mkt status: which profile, service, organization and token a command would use, and where each
// came from. Offline, it reads settings and the store; --check asks the service (../status-check.ts).
// It never prints the token.
import type { Command } from 'commander';
import { formatMode } from '../../config/store.js';
import { credentialsHint, isBearerToken, tokenProblem } from '../credentials.js';
import type { Deps } from '../deps.js';
import { commandOptions } from '../options/command-options.js';
import { ExitCode } from '../exit-codes.js';
import { formatAge } from '../../shared/time.js';
import { safeJson, stripControl } from '../../shared/text.js';
import type { RunState } from '../main.js';
import { checkBaseUrl, resolveSettings, type Resolved, type TargetFlags } from '../settings.js';
import { addTargetOptions } from '../options/target.js';
import { addNetworkOptions, type NetworkFlags } from '../options/network.js';
import { checkRows, checkWithService, DEFAULT_CHECK_SYMBOL, type StatusCheck } from '../status-check.js';

export interface StatusOptions extends TargetFlags, NetworkFlags {
  json?: boolean;
  check?: boolean;
  checkSymbol?: string;
}

/** `mkt status --json`, schema_version 1 (README "mkt status --json"); fields are only ever added. */
export interface StatusReport {
  schema_version: 1;
  usable: boolean;
  problems: string[];
  profile: Setting;
  base_url: Setting;
  organization: Setting;
  token: {
    present: boolean;
    kind: string;
    source: string;
    obtained_via: string | null;
    type: string | null;
    scope: string | null;
    organization_id: string | null;
    issued_by: string | null;
    expires_at: string | null;
    expires_in_seconds: number | null;
    expired: boolean | null;
    fingerprint: string | null;
  };
  config_file: { path: string; exists: boolean; mode: string | null; dir_mode: string | null; safe: boolean };
  /** Things that may go wrong although the credentials look usable (an organization the token was not issued for). */
  warnings: string[];
  /** MKT_CLIENT_ID and MKT_CLIENT_SECRET: with them, commands get a token when there is none or it has expired. */
  client_credentials: { present: boolean; client_id: string | null; renews_token: boolean };
  /** What the service said to one quotes request (--check); null without --check. */
  check: StatusCheck | null;
}

interface Setting {
  value: string | null;
  kind: string;
  source: string;
}

export function registerStatus(program: Command, deps: Deps, state: RunState): void {
  const command = program.command('status')
    .description('show the profile, service, organization and token in use, and where each comes from; --check asks the service')
    .option('--json', 'write the status as JSON (a stable schema, see the README)')
    .option('--check', 'ask the service: one quotes request proves it is reachable and takes the credentials, and shows the rate-limit headroom')
    .option('--check-symbol <symbol>', `the symbol --check asks for (default ${DEFAULT_CHECK_SYMBOL})`)
    .addHelpText('after', `
Offline, exits 0 when the credentials are usable (a token, or MKT_CLIENT_ID and MKT_CLIENT_SECRET
to get one) and 4 when they are not. With --check, one quotes request (one symbol, one unit of the
rate limit) proves reachability, authentication and authorization, as \`gh auth status\` does; the
exit code is that request's: 0, 4 (401), 5 (403), 6 (429), 7 (network).

Examples:
  $ mkt status
  $ mkt status --check                                  # a CI pre-flight
  $ mkt status --json | jq .token.expires_in_seconds`);
  addNetworkOptions(addTargetOptions(command)).action(async (_options: StatusOptions, self: Command) => {
    const options = commandOptions<StatusOptions>(self);
    const report = await buildStatus(deps, options);
    if (options.check && report.usable) await checkWithService(deps, options, state, report);
    deps.io.stdout.write(options.json ? `${safeJson(report, 2)}\n` : renderStatus(report));
    state.exitCode = report.check && !report.check.ok ? report.check.exit_code : report.usable ? ExitCode.OK : ExitCode.NOT_AUTHENTICATED;
  });
}

export async function buildStatus(deps: Deps, options: TargetFlags): Promise<StatusReport> {
  const settings = resolveSettings(deps, options);
  const problems: string[] = [];
  const warnings: string[] = [];
  let baseUrl = settings.baseUrl.value;
  if (baseUrl === undefined) problems.push('no base URL: pass --base-url, set MKT_BASE_URL, or run `mkt config set base-url URL`');
  else {
    try {
      baseUrl = checkBaseUrl(deps, baseUrl, settings.baseUrl.source);
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  if (!settings.org.value) problems.push('no organization: pass --org, set MKT_ORG, or run `mkt config set org org_<id>`');
  const token = settings.token.value;
  const now = deps.now();
  const fromEnv = settings.token.kind === 'env';
  const clientId = deps.env.MKT_CLIENT_ID || undefined;
  const hasClientCredentials = clientId !== undefined && Boolean(deps.env.MKT_CLIENT_SECRET);
  const problem = fromEnv ? undefined : tokenProblem(token, baseUrl, now);
  // As requireCredentials does: client credentials in the environment get a token when none is usable.
  const renews = hasClientCredentials && problem !== undefined && problem.kind !== 'other-service';
  if (fromEnv && !isBearerToken(token!.access_token)) problems.push('MKT_TOKEN holds a character a bearer token cannot have (a space, a line break or another control character)');
  if (problem && problem.kind !== 'expiring' && !renews) problems.push(`${problem.message}: ${credentialsHint(settings, problem, baseUrl)}`);
  if (renews) warnings.push(`${problem!.message}; MKT_CLIENT_ID and MKT_CLIENT_SECRET will get a new one when a command needs it`);
  const tokenOrg = fromEnv ? undefined : token?.organization_id;
  if (tokenOrg && settings.org.value && tokenOrg !== settings.org.value && !renews) {
    warnings.push(`the stored token was issued for ${tokenOrg}, not ${settings.org.value} (from ${settings.org.source}): the service will refuse quotes (403) unless the token may act for ${settings.org.value} too`);
  }
  const expiresAt = token?.expires_at;
  const left = expiresAt ? Date.parse(expiresAt) - now : undefined;
  const permissions = deps.config.permissions();
  return {
    schema_version: 1,
    usable: problems.length === 0,
    problems,
    profile: setting(settings.profile),
    base_url: { ...setting(settings.baseUrl), value: baseUrl ?? null },
    organization: setting(settings.org),
    token: {
      present: token !== undefined,
      kind: settings.token.kind,
      source: settings.token.source,
      obtained_via: token && !fromEnv ? token.source : fromEnv ? 'environment' : null,
      type: token?.token_type ?? null,
      scope: token?.scope ?? null,
      organization_id: token?.organization_id ?? null,
      issued_by: token?.base_url || null,
      expires_at: expiresAt ?? null,
      expires_in_seconds: left === undefined ? null : Math.floor(left / 1000),
      expired: left === undefined ? null : left <= 0,
      fingerprint: token ? await fingerprint(token.access_token) : null,
    },
    config_file: {
      path: permissions.path,
      exists: permissions.exists,
      mode: permissions.fileMode === undefined ? null : formatMode(permissions.fileMode),
      dir_mode: permissions.dirMode === undefined ? null : formatMode(permissions.dirMode),
      safe: permissions.safe,
    },
    warnings,
    client_credentials: { present: hasClientCredentials, client_id: hasClientCredentials ? clientId : null, renews_token: renews },
    check: null,
  };
}

function setting(resolved: Resolved<string>): Setting {
  return { value: resolved.value ?? null, kind: resolved.kind, source: resolved.source };
}

export function renderStatus(report: StatusReport): string {
  const rows: Array<[string, string]> = [];
  const show = (label: string, item: Setting) => rows.push([label, item.value === null ? '(not set)' : `${item.value}  (${describe(item)})`]);
  show('Profile', report.profile);
  show('Base URL', report.base_url);
  show('Organization', report.organization);
  const token = report.token;
  if (!token.present) rows.push(['Token', '(none)']);
  else {
    rows.push(['Token', `${token.obtained_via === 'environment' ? 'from MKT_TOKEN' : `via ${token.obtained_via}`}  (${describe(token)})`]);
    rows.push(['  Type', token.type ?? '?']);
    rows.push(['  Scope', token.scope || '(none)']);
    if (token.issued_by) rows.push(['  Issued by', token.issued_by]);
    if (token.expires_in_seconds !== null) {
      const age = formatAge(Math.abs(token.expires_in_seconds) * 1000);
      rows.push(['  Expires', `${token.expired ? `expired ${age} ago` : `in ${age}`} (${token.expires_at})`]);
    } else if (token.obtained_via !== 'environment') rows.push(['  Expires', 'unknown (the service gave no expires_in)']);
    rows.push(['  Fingerprint', token.fingerprint ?? '?']);
  }
  const file = report.config_file;
  rows.push(['Config file', `${file.path}${file.exists ? `  (mode ${file.mode}, directory ${file.dir_mode}, ${file.safe ? 'private' : 'READABLE BY OTHERS'})` : '  (not created yet)'}`]);
  if (report.client_credentials.present) rows.push(['Client credentials', `${report.client_credentials.client_id}  (from MKT_CLIENT_ID and MKT_CLIENT_SECRET)`]);
  if (report.check) rows.push(...checkRows(report.check));
  // Scope, organization and addresses can come from the service: nothing in them may drive the terminal.
  for (const row of rows) row[1] = stripControl(row[1]);
  const width = Math.max(...rows.map(([label]) => label.length)) + 2;
  let text = rows.map(([label, value]) => `${`${label}:`.padEnd(width)}${value}\n`).join('');
  text += report.warnings.map((warning) => `Warning: ${stripControl(warning)}\n`).join('');
  text += report.usable ? `Credentials are usable${report.check ? ': the service took them' : ''}.\n` : report.problems.map((problem) => `Problem: ${stripControl(problem)}\n`).join('');
  return text;
}

function describe(item: { kind: string; source: string }): string {
  switch (item.kind) {
    case 'flag': return `from the ${item.source} flag`;
    case 'env': return `from ${item.source}`;
    case 'default': return 'default';
    default: return `from ${item.source}`;
  }
}

/** Identifies a token without revealing any of it. node:crypto loads only here (startup cost). */
export async function fingerprint(accessToken: string): Promise<string> {
  const { createHash } = await import('node:crypto');
  return `sha256:${createHash('sha256').update(accessToken).digest('hex').slice(0, 12)}`;
}
