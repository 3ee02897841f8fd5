// HTTP for commands: one undici dispatcher per run, built from the environment (proxies, CAs), and
// the retry, timeout and debug options from flags and MKT_* variables.
import fs from 'node:fs';
import type { Command } from 'commander';
import type { Dispatcher } from 'undici';
import { DEFAULTS, type HttpOptions } from '../api/request.js';
import { loadUndici } from '../api/undici.js';
import type { Deps } from './deps.js';
import { parseCount, parseDuration } from './duration.js';
import { UsageError } from './errors.js';
import { isDebug } from './io.js';
import type { RunState } from './program.js';

declare const MKT_VERSION: string;

export interface NetworkFlags {
  timeout?: string;
  retries?: string;
  maxWait?: string;
  caFile?: string;
  verbose?: boolean;
}

export function addNetworkOptions(command: Command): Command {
  return command
    .option('--timeout <duration>', 'per attempt, covering connect, headers and body (env MKT_TIMEOUT)', undefined)
    .option('--retries <n>', 'retries after 429, 502, 503, 504 and connection errors (env MKT_RETRIES)')
    .option('--max-wait <duration>', 'the most time spent waiting between retries, in all (env MKT_MAX_WAIT)')
    .option('--ca-file <path>', 'extra PEM CA certificates to trust (env MKT_CA_FILE)')
    .option('-v, --verbose', 'print each request, response status, timing and rate-limit headers on stderr (secrets redacted)');
}

export function announceToStderr(deps: Deps, verbose: boolean): boolean {
  return deps.io.stderrIsTTY || verbose || isDebug(deps.env);
}

export async function createHttp(deps: Deps, flags: NetworkFlags, state: RunState): Promise<HttpOptions> {
  const env = deps.env;
  const verbose = flags.verbose === true || isDebug(env);
  const timeoutMs = parseDuration(flags.timeout ?? env.MKT_TIMEOUT ?? `${DEFAULTS.timeoutMs}ms`, flags.timeout ? '--timeout' : 'MKT_TIMEOUT');
  if (timeoutMs < 1) throw new UsageError('--timeout must be more than 0');
  const retries = parseCount(flags.retries ?? env.MKT_RETRIES ?? String(DEFAULTS.retries), flags.retries ? '--retries' : 'MKT_RETRIES', { max: 10 });
  const maxWaitMs = parseDuration(flags.maxWait ?? env.MKT_MAX_WAIT ?? `${DEFAULTS.maxWaitMs}ms`, flags.maxWait ? '--max-wait' : 'MKT_MAX_WAIT');
  const dispatcher = deps.dispatcher ?? await createDispatcher(deps, flags.caFile ?? env.MKT_CA_FILE, timeoutMs, flags.caFile ? '--ca-file' : 'MKT_CA_FILE');
  if (!deps.dispatcher) state.cleanups.push(() => dispatcher.destroy());
  const announce = announceToStderr(deps, verbose);
  return {
    dispatcher,
    timeoutMs,
    retries,
    maxWaitMs,
    signal: deps.signal,
    now: deps.now,
    sleep: deps.sleep,
    random: deps.random,
    userAgent: `mkt/${typeof MKT_VERSION === 'string' ? MKT_VERSION : 'dev'} node/${process.versions.node}`,
    onRetry: announce
      ? (event) => deps.io.stderr.write(`${event.reason}; retrying in ${formatWait(event.waitMs)} (${event.attempt - 1}/${event.retries})\n`)
      : undefined,
    onThrottle: announce
      ? (waitMs) => deps.io.stderr.write(`close to the rate limit; waiting ${formatWait(waitMs)} for the window to reset\n`)
      : undefined,
    onDebug: verbose ? (line) => deps.io.stderr.write(`${line}\n`) : undefined,
  };
}

function formatWait(ms: number): string {
  return ms < 1000 ? `${ms}ms` : `${Math.ceil(ms / 1000)}s`;
}

async function createDispatcher(deps: Deps, caFile: string | undefined, timeoutMs: number, caSource: string): Promise<Dispatcher> {
  const env = deps.env;
  const connect: Record<string, unknown> = { timeout: timeoutMs };
  if (caFile) connect.ca = await readCertificates(env, caFile, caSource);
  const { Agent, EnvHttpProxyAgent } = await loadUndici();
  const httpsProxy = env.HTTPS_PROXY ?? env.https_proxy;
  const httpProxy = env.HTTP_PROXY ?? env.http_proxy;
  if (httpsProxy || httpProxy) {
    return new EnvHttpProxyAgent({
      httpProxy, httpsProxy, noProxy: env.NO_PROXY ?? env.no_proxy, connect,
      // A TLS connection to the proxy itself trusts the same CAs.
      proxyTls: connect, requestTls: connect,
    });
  }
  return new Agent({ connect });
}

/** Node's bundled roots, NODE_EXTRA_CA_CERTS, and the file: passing `ca` replaces the defaults. */
async function readCertificates(env: Deps['env'], caFile: string, source: string): Promise<string[]> {
  const { rootCertificates } = await import('node:tls');
  const read = (file: string, from: string) => {
    try {
      const text = fs.readFileSync(file, 'utf8');
      if (!text.includes('-----BEGIN CERTIFICATE-----')) throw new UsageError(`${file} (from ${from}) holds no PEM certificate`);
      return text;
    } catch (error) {
      if (error instanceof UsageError) throw error;
      throw new UsageError(`cannot read the CA file ${file} (from ${from}): ${(error as Error).message}`);
    }
  };
  const extra = env.NODE_EXTRA_CA_CERTS ? [read(env.NODE_EXTRA_CA_CERTS, 'NODE_EXTRA_CA_CERTS')] : [];
  return [...rootCertificates, ...extra, read(caFile, source)];
}
