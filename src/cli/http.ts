// HTTP for commands: one undici dispatcher per run (dispatcher.ts: proxies, CAs), and the retry,
// timeout and debug options from flags and MKT_* variables, for the library's client (client.ts).
import type { ClientSettings } from './client.js';
import { DEFAULT_MAX_WAIT_MS, DEFAULT_RETRIES, DEFAULT_TIMEOUT_MS, MAX_CLI_RETRIES } from '../shared/limits.js';
import type { Deps } from './deps.js';
import { VERSION } from './version.js';
import { UsageError } from './errors.js';
import { isDebug } from './io.js';
import { parseDuration } from '../shared/duration.js';
import { parseInteger } from '../shared/integer.js';
import { createDispatcher } from './dispatcher.js';
import type { RunState } from './run-state.js';
import type { NetworkFlags } from './options/network.js';
import { createProgress, type Progress } from './progress.js';

/** The client's settings, and the progress and wait announcements of the command (../progress.ts). */
export type CliHttp = ClientSettings & { cliProgress: Progress };

/**
 * `connections`: the most the dispatcher opens to one origin, the number of requests the command
 * keeps in flight. Without a limit, undici opens a new connection when the next request is sent a
 * moment before the previous one's connection counts as free: 8 connections for 4 requests at a time.
 * `longRunning`: the command polls until stopped (`--watch`), and V8 tunes it as it goes (deps.ts).
 */
export async function createHttp(deps: Deps, flags: NetworkFlags, state: RunState, connections?: number, longRunning = false): Promise<CliHttp> {
  const env = deps.env;
  const verbose = flags.verbose === true || isDebug(env);
  const onDebug = verbose ? (line: string) => deps.io.stderr.write(`${line}\n`) : undefined;
  // Flag, then environment (an empty variable counts as unset), then the default.
  const setting = (flag: string | undefined, flagName: string, envName: string) =>
    flag !== undefined ? { value: flag, source: flagName } : env[envName] ? { value: env[envName]!, source: envName } : undefined;
  const timeout = setting(flags.timeout, '--timeout', 'MKT_TIMEOUT');
  const timeoutMs = timeout ? parseDuration(timeout.value, timeout.source) : DEFAULT_TIMEOUT_MS;
  if (timeoutMs < 1) throw new UsageError(`${timeout?.source ?? '--timeout'} must be more than 0`);
  const retriesSetting = setting(flags.retries, '--retries', 'MKT_RETRIES');
  const retries = retriesSetting ? parseInteger(retriesSetting.value, retriesSetting.source, { max: MAX_CLI_RETRIES }) : DEFAULT_RETRIES;
  const maxWait = setting(flags.maxWait, '--max-wait', 'MKT_MAX_WAIT');
  const maxWaitMs = maxWait ? parseDuration(maxWait.value, maxWait.source) : DEFAULT_MAX_WAIT_MS;
  const caFile = setting(flags.caFile, '--ca-file', 'MKT_CA_FILE');
  const beforeParser = longRunning ? undefined : deps.spareWasmTierUp;
  const dispatcher = deps.dispatcher ?? await createDispatcher(deps, caFile, timeoutMs, connections, onDebug, beforeParser);
  if (!deps.dispatcher) state.cleanups.push(() => dispatcher.destroy());
  const progress = createProgress(deps, { quiet: flags.quiet, verbose });
  state.cleanups.push(async () => progress.stop());
  return {
    dispatcher,
    timeoutMs,
    retries,
    maxWaitMs,
    signal: deps.signal,
    now: deps.now,
    sleep: deps.sleep,
    random: deps.random,
    userAgent: `mkt/${VERSION} node/${process.versions.node}`,
    onWait: progress.onWait,
    onDebug,
    cliProgress: progress,
  };
}
