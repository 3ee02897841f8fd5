// mkt status: which profile, service, organization and token a command would use, and where each
// came from. Offline, it reads settings and the store; --check asks the service (../status-check.ts).
// It never prints the token.
import type { Command } from 'commander';
import { formatMode } from '../../config/store.js';
import { lookUpClientToken } from '../credentials/client-tokens.js';
import { credentialsHint, expiresIn, isBearerToken, noClientToken, tokenProblem } from '../credentials/credentials.js';
import type { Deps } from '../deps.js';
import { commandOptions } from '../options/command-options.js';
import { ExitCode } from '../errors/exit-codes.js';
import type { RunState } from '../run-state.js';
import { checkBaseUrl, resolveSettings, type Resolved, type TargetFlags } from '../options/settings.js';
import { addTargetOptions } from '../options/target.js';
import { addNetworkOptions } from '../options/network.js';
import { CHECK_MAX_WAIT_MS, checkWithService, DEFAULT_CHECK_SYMBOL, type CheckOptions } from '../status/status-check.js';
import { formatDuration } from '../../shared/duration.js';
import { renderStatus, type Setting, type StatusReport } from '../status/status-report.js';
import { runTerminal } from '../output/terminal.js';
import { writeReport } from '../output/writer.js';

interface StatusOptions extends CheckOptions {
  json?: boolean;
  check?: boolean;
}

export function registerStatus(program: Command, deps: Deps, state: RunState): void {
  const command = program.command('status')
    .description('show the profile, service, organization and token in use, and where each comes from; --check asks the service')
    .option('--json', 'write the status as JSON (a stable schema, see the README)')
    .option('--check', 'ask the service: one quotes request proves it is reachable and takes the credentials, and shows the rate-limit headroom')
    .option('--check-symbol <symbol>', `the symbol --check asks for (default ${DEFAULT_CHECK_SYMBOL})`)
    .addHelpText('after', `
Offline, exits 0 when the credentials are usable (a token, or MKT_CLIENT_ID and MKT_CLIENT_SECRET
to get one) and 4 when they are not. With MKT_CLIENT_ID and MKT_CLIENT_SECRET, the token shown is
that client's own, or none, and a line says why the profile's token is not used when it is another's.

With --check, one quotes request (one symbol, one unit of the rate limit) proves reachability,
authentication and authorization, as \`gh auth status\` does; the exit code is that request's: 0,
4 (401), 5 (403), 6 (429), 7 (network or 5xx).

A pre-flight answers at once: --check waits at most ${formatDuration(CHECK_MAX_WAIT_MS)} in all (enough for the short
retries of a network error or a 5xx), so a rate limit that lifts later is exit 6 at once, with the
time it lifts. To wait for it instead, give --max-wait (or set MKT_MAX_WAIT), e.g. --max-wait 90s.

Examples:
  $ mkt status
  $ mkt status --check                                  # a CI pre-flight
  $ mkt status --check --max-wait 90s                   # the same, waiting out a spent rate limit
  $ mkt status --json | jq .token.expires_in_seconds`);
  addNetworkOptions(addTargetOptions(command)).action(async (_options: StatusOptions, self: Command) => {
    const options = commandOptions<StatusOptions>(self);
    const report = await buildStatus(deps, options);
    if (options.check && report.usable) await checkWithService(deps, options, state, report);
    writeReport(runTerminal(deps, state), report, { json: options.json === true, text: renderStatus });
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
  const now = deps.now();
  const fromEnv = settings.token.kind === 'env';
  const clientId = deps.env.MKT_CLIENT_ID || undefined;
  const clientSecret = deps.env.MKT_CLIENT_SECRET || undefined;
  const hasClientCredentials = clientId !== undefined && clientSecret !== undefined;
  // As requireCredentials does: with client credentials, the token shown is that client's own, or none.
  const client = hasClientCredentials && !fromEnv && baseUrl !== undefined ? { baseUrl, clientId, clientSecret } : undefined;
  const lookup = client === undefined ? undefined : await lookUpClientToken(deps.config.read(), settings.record, client);
  const token = lookup === undefined ? settings.token.value : lookup.found?.token;
  const tokenFrom = lookup === undefined ? settings.token
    : lookup.found === undefined ? { kind: 'unset', source: 'not set' }
      : { kind: 'config', source: `${deps.config.path} (profile ${settings.profile.value}${lookup.found.where === 'client-tokens' ? ', client_tokens' : ''})` };
  const problem = fromEnv ? undefined
    : client !== undefined && token === undefined ? { kind: 'missing' as const, message: noClientToken(client, undefined) }
      : tokenProblem(token, baseUrl, now);
  // As requireCredentials does: client credentials in the environment get a token when none is usable.
  const renews = hasClientCredentials && problem !== undefined && problem.kind !== 'other-service';
  if (fromEnv && !isBearerToken(token!.access_token)) problems.push('MKT_TOKEN holds a character a bearer token cannot have (a space, a line break or another control character)');
  const where = problem?.unreadableExpiry ? ` (${deps.config.path}, profile ${settings.profile.value})` : '';
  if (problem && problem.kind !== 'expiring' && !renews) problems.push(`${problem.message}${where}: ${credentialsHint(settings, problem, baseUrl)}`);
  if (renews) warnings.push(`${problem!.message}${where}; MKT_CLIENT_ID and MKT_CLIENT_SECRET will get a new one when a command needs it`);
  const tokenOrg = fromEnv ? undefined : token?.organization_id;
  if (tokenOrg && settings.org.value && tokenOrg !== settings.org.value && !renews) {
    warnings.push(`the stored token was issued for ${tokenOrg}, not ${settings.org.value} (from ${settings.org.source}): the service will refuse quotes (403) unless the token may act for ${settings.org.value} too`);
  }
  const expiresAt = token?.expires_at;
  const unreadable = problem?.unreadableExpiry === true;
  const left = expiresAt === undefined || unreadable ? undefined : expiresIn(expiresAt, now);
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
      kind: tokenFrom.kind,
      source: tokenFrom.source,
      obtained_via: token && !fromEnv ? token.source : fromEnv ? 'environment' : null,
      client_id: !fromEnv && typeof token?.client_id === 'string' ? token.client_id : null,
      type: token?.token_type ?? null,
      scope: token?.scope ?? null,
      organization_id: token?.organization_id ?? null,
      issued_by: token?.base_url || null,
      expires_at: expiresAt ?? null,
      // Whole seconds toward zero, as the problem line counts them: 1.5 s past is "expired 1s ago"
      // in both. An expiry that is not a date counts as expired.
      expires_in_seconds: left === undefined ? null : Math.trunc(left / 1000) + 0,
      expired: unreadable ? true : left === undefined ? null : left <= 0,
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
    client_credentials: {
      present: hasClientCredentials, client_id: hasClientCredentials ? clientId : null, renews_token: renews,
      profile_token_set_aside: lookup?.setAside ?? null,
    },
    check: null,
  };
}

function setting(resolved: Resolved<string>): Setting {
  return { value: resolved.value ?? null, kind: resolved.kind, source: resolved.source };
}


/** Identifies a token without revealing any of it. node:crypto loads only here (startup cost). */
async function fingerprint(accessToken: string): Promise<string> {
  const { createHash } = await import('node:crypto');
  return `sha256:${createHash('sha256').update(accessToken).digest('hex').slice(0, 12)}`;
}
