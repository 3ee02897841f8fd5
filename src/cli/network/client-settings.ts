// The settings of a command's client: createClient's options as flags and MKT_* variables set them,
// the run's dispatcher (dispatcher.ts: proxies, CAs), its progress on stderr, and how each setting
// was given, for hints that name it (hints/words.ts).
import type { ClientOptions } from '../../api/index.js';
import { DEFAULT_MAX_WAIT_MS, DEFAULT_RETRIES, DEFAULT_TIMEOUT_MS, MAX_CLI_RETRIES } from '../../shared/limits.js';
import type { Deps } from '../deps.js';
import { VERSION } from '../version.js';
import { UsageError } from '../errors/errors.js';
import { isDebug } from '../io.js';
import { parseDuration } from '../../shared/duration.js';
import { parseInteger } from '../../shared/integer.js';
import { diagnosticsOf } from '../output/diagnostics.js';
import { createDispatcher } from './dispatcher.js';
import type { SettingNames } from '../hints/words.js';
import type { RunState } from '../run-state.js';
import type { NetworkFlags } from '../options/network.js';
import { createProgress, type Progress } from '../output/progress.js';

/**
 * createClient's options but the target (base URL, token, organization), every one of them named:
 * undefined where mkt leaves the library's default. Derived from ClientOptions, so that a new
 * option of the library fails to compile here until mkt sets it (or says it leaves it); the client
 * gets them by spreading (client.ts), never by name.
 */
export type CliSettings = { [K in Exclude<keyof ClientOptions, 'baseUrl' | 'accessToken' | 'organizationId'>]: ClientOptions[K] | undefined };

export interface RunSettings {
  settings: CliSettings;
  /** The command's progress and wait announcements (output/progress.ts). */
  progress: Progress;
  /** How the timeout and the CA file were given. */
  names: Pick<SettingNames, 'timeout' | 'caFile'>;
}

/**
 * `connections`: the most the dispatcher opens to one origin, the number of requests the command
 * keeps in flight. Without a limit, undici opens a new connection when the next request is sent a
 * moment before the previous one's connection counts as free: 8 connections for 4 requests at a time.
 * `longRunning`: the command polls until stopped (`--watch`), and V8 tunes it as it goes (wasm-budget.ts).
 * `maxWaitMs`: the command's own budget for waits when neither --max-wait nor MKT_MAX_WAIT gives
 * one (a pre-flight check, an MCP call a client would give up on); DEFAULT_MAX_WAIT_MS otherwise.
 */
export async function createClientSettings(
  deps: Deps, flags: NetworkFlags, state: RunState, run: { connections?: number; longRunning?: boolean; maxWaitMs?: number } = {},
): Promise<RunSettings> {
  const env = deps.env;
  const verbose = flags.verbose === true || isDebug(env);
  const diagnostics = diagnosticsOf(deps);
  const onDebug = verbose ? (line: string) => diagnostics.debug(line) : undefined;
  // Flag, then environment (an empty variable counts as unset), then the default.
  const setting = (flag: string | undefined, flagName: string, envName: string) =>
    flag !== undefined ? { value: flag, source: flagName } : env[envName] ? { value: env[envName]!, source: envName } : undefined;
  const timeout = setting(flags.timeout, '--timeout', 'MKT_TIMEOUT');
  const timeoutMs = timeout ? parseDuration(timeout.value, timeout.source) : DEFAULT_TIMEOUT_MS;
  if (timeoutMs < 1) throw new UsageError(`${timeout?.source ?? '--timeout'} must be more than 0`);
  const retriesSetting = setting(flags.retries, '--retries', 'MKT_RETRIES');
  const retries = retriesSetting ? parseInteger(retriesSetting.value, retriesSetting.source, { max: MAX_CLI_RETRIES }) : DEFAULT_RETRIES;
  const maxWait = setting(flags.maxWait, '--max-wait', 'MKT_MAX_WAIT');
  const maxWaitMs = maxWait ? parseDuration(maxWait.value, maxWait.source) : run.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
  const caFile = setting(flags.caFile, '--ca-file', 'MKT_CA_FILE');
  const dispatcher = deps.dispatcher ?? await createDispatcher(deps, {
    caFile, timeoutMs, connections: run.connections, onDebug, shortRun: run.longRunning !== true,
  });
  if (!deps.dispatcher) state.cleanups.push(() => dispatcher.destroy());
  const progress = createProgress(deps, { quiet: flags.quiet, verbose });
  // The progress line ends with the run (main finishes its diagnostics too), or with an MCP call,
  // whose diagnostics are its own.
  state.cleanups.push(async () => diagnostics.finish());
  const settings: CliSettings = {
    // Plain http to another machine was already allowed or refused by the CLI's own rule
    // (options/settings.ts: MKT_ALLOW_INSECURE_HTTP), so the client's is not asked again.
    allowInsecureHttp: true,
    dispatcher,
    timeoutMs,
    retries,
    maxWaitMs,
    maxResponseBytes: undefined,
    signal: deps.signal,
    userAgent: `mkt/${VERSION} node/${process.versions.node}`,
    onWait: progress.onWait,
    onDebug,
    hooks: undefined,
  };
  return {
    settings,
    progress,
    names: { timeout: timeout?.source ?? '--timeout', ...(caFile ? { caFile: { path: caFile.value, source: caFile.source } } : {}) },
  };
}
