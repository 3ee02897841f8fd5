// The library's client as commands make it, in one call: the settings from flags and MKT_*
// variables (client-settings.ts), the service and organization of the credentials, and a token
// source that finds, renews and re-renews the token (credentials/credentials.ts), with the seam of what the
// CLI injects (Deps' clock, waits and jitter). Commands call the service only through it, as any
// program does (README, The library); it also tells main how the settings were given, for its hints.
import type { Client } from '../../api/index.js';
import { createClientWith } from '../../api/internal.js';
import { DEFAULT_RETRIES, DEFAULT_TIMEOUT_MS, LOCK_WAIT_MS } from '../../shared/limits.js';
import { createTokenSource, requireCredentials } from '../credentials/credentials.js';
import type { Deps } from '../deps.js';
import type { SettingNames } from '../hints/words.js';
import { createClientSettings, type CliSettings, type RunSettings } from './client-settings.js';
import type { NetworkFlags } from '../options/network.js';
import type { Progress } from '../output/progress.js';
import { createProxyRoute, readProxyEnv } from './proxy-env.js';
import type { RunState } from '../run-state.js';
import { resolveSettings, type Settings, type TargetFlags } from '../options/settings.js';
import type { TokenRequests } from '../credentials/token-renewal.js';

export type { CliSettings };

interface CommandClient {
  client: Client;
  /** What the client was made with (the watch reads --max-wait from it). */
  settings: CliSettings;
  progress: Progress;
  /**
   * Another client for the same service and credentials, with some settings changed (the watch's
   * polls: their own signal, no retries, quiet on the board). Its token requests take the changes
   * too, but keep the command's retries.
   */
  with(overrides: Partial<CliSettings>): Client;
}

interface CommandClientOptions {
  /** The requests the command keeps in flight: the dispatcher's connections per origin. */
  concurrency?: number;
  /** The command polls until stopped (`--watch`). */
  longRunning?: boolean;
  /** The command's budget for waits when --max-wait and MKT_MAX_WAIT give none (createClientSettings). */
  maxWaitMs?: number;
}

/**
 * The client of a data command (quotes, status --check): its service, organization and token from
 * the flags, the environment and the profile, or a CredentialsError (exit 4) saying how to get one.
 * A token about to expire is renewed first, and a token the service refuses once more, when
 * MKT_CLIENT_ID and MKT_CLIENT_SECRET allow it.
 */
export async function createCommandClient(
  deps: Deps, flags: TargetFlags & NetworkFlags, state: RunState, options: CommandClientOptions = {},
): Promise<CommandClient> {
  const run = await createClientSettings(deps, flags, state, { connections: options.concurrency, longRunning: options.longRunning, maxWaitMs: options.maxWaitMs });
  const seam = { now: deps.now, sleep: deps.sleep, random: deps.random };
  const requestsWith = (settings: CliSettings): TokenRequests => ({
    clientCredentials: ({ baseUrl, clientId, clientSecret }) => createClientWith({ ...settings, baseUrl }, seam).clientCredentials({ clientId, clientSecret }),
    // The lock is held across the holder's own token request: wait that long, and some.
    lockWaitMs: LOCK_WAIT_MS + (settings.timeoutMs ?? DEFAULT_TIMEOUT_MS) * ((settings.retries ?? DEFAULT_RETRIES) + 1),
    onDebug: settings.onDebug,
  });
  // Named before the credentials are sought: finding them may already ask the service for a token.
  try {
    const early = resolveSettings(deps, flags);
    if (early.baseUrl.value !== undefined) state.names = settingNames(deps, early, early.baseUrl.value, run);
  } catch {
    // requireCredentials says what is wrong with the settings.
  }
  const credentials = await requireCredentials(deps, flags, requestsWith(run.settings));
  state.names = settingNames(deps, credentials.settings, credentials.baseUrl, run);
  const clientWith = (overrides: Partial<CliSettings>): Client => {
    const settings = { ...run.settings, ...overrides };
    const requests = requestsWith({ ...settings, retries: run.settings.retries });
    return createClientWith({
      ...settings,
      baseUrl: credentials.baseUrl,
      organizationId: credentials.organizationId,
      accessToken: createTokenSource(deps, flags, credentials, requests),
    }, seam);
  };
  return { client: clientWith({}), settings: run.settings, progress: run.progress, with: clientWith };
}

/**
 * The client of login and token, which ask for a token themselves: to `baseUrl`, the base URL their
 * `settings` gave (checked by requireBaseUrl), with no token of its own.
 */
export async function createSignInClient(
  deps: Deps, flags: NetworkFlags, state: RunState, settings: Settings, baseUrl: string,
): Promise<{ client: Client; settings: CliSettings }> {
  const run = await createClientSettings(deps, flags, state);
  state.names = settingNames(deps, settings, baseUrl, run);
  return { client: createClientWith({ ...run.settings, baseUrl }, { now: deps.now, sleep: deps.sleep, random: deps.random }), settings: run.settings };
}

/** How the run's settings were given: the base URL's source, and the proxy its requests go through. */
function settingNames(deps: Deps, settings: Settings, baseUrl: string, run: RunSettings): SettingNames {
  const { profile } = settings;
  const where = `profile ${profile.value} of ${deps.config.path}`;
  const source = settings.baseUrl.kind === 'env' ? 'MKT_BASE_URL'
    : settings.baseUrl.kind === 'config' ? `base-url in ${where}`
      : settings.baseUrl.kind === 'token' ? `the stored token's, in ${where}`
        : '--base-url';
  let proxy: SettingNames['proxy'];
  try {
    const through = createProxyRoute(readProxyEnv(deps.env))(new URL(baseUrl));
    if (through !== undefined) proxy = { variable: through.source };
  } catch {
    // An unusable proxy variable has been refused already, where the dispatcher was made.
  }
  return { ...run.names, baseUrl: source, ...(proxy ? { proxy } : {}) };
}
