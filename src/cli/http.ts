// HTTP for commands: one undici dispatcher per run, built from the environment (proxies, CAs), and
// the retry, timeout and debug options from flags and MKT_* variables.
import type { Dispatcher } from 'undici';
import { DEFAULTS, type TransportOptions } from '../api/request.js';
import { loadAgent, loadEnvHttpProxyAgent } from '../api/undici.js';
import type { Deps } from './deps.js';
import { VERSION } from './version.js';
import { UsageError } from './errors.js';
import { isDebug } from './io.js';
import { parseDuration } from '../shared/duration.js';
import { parseInteger } from '../shared/integer.js';
import { readFileLimited } from '../shared/read-limited.js';
import type { RunState } from './main.js';
import type { NetworkFlags } from './options/network.js';
import { createProgress, type Progress } from './progress.js';

/** The client's options, and the progress and wait announcements of the command (../progress.ts). */
export type CliHttp = TransportOptions & { cliProgress: Progress };

/**
 * `connections`: the most the dispatcher opens to one origin, the number of requests the command
 * keeps in flight. Without a limit, undici opens a new connection when the next request is sent a
 * moment before the previous one's connection counts as free: 8 connections for 4 requests at a time.
 */
export async function createHttp(deps: Deps, flags: NetworkFlags, state: RunState, connections?: number): Promise<CliHttp> {
  const env = deps.env;
  const verbose = flags.verbose === true || isDebug(env);
  const onDebug = verbose ? (line: string) => deps.io.stderr.write(`${line}\n`) : undefined;
  // Flag, then environment (an empty variable counts as unset), then the default.
  const setting = (flag: string | undefined, flagName: string, envName: string) =>
    flag !== undefined ? { value: flag, source: flagName } : env[envName] ? { value: env[envName]!, source: envName } : undefined;
  const timeout = setting(flags.timeout, '--timeout', 'MKT_TIMEOUT');
  const timeoutMs = timeout ? parseDuration(timeout.value, timeout.source) : DEFAULTS.timeoutMs;
  if (timeoutMs < 1) throw new UsageError(`${timeout?.source ?? '--timeout'} must be more than 0`);
  const retriesSetting = setting(flags.retries, '--retries', 'MKT_RETRIES');
  const retries = retriesSetting ? parseInteger(retriesSetting.value, retriesSetting.source, { max: 10 }) : DEFAULTS.retries;
  const maxWait = setting(flags.maxWait, '--max-wait', 'MKT_MAX_WAIT');
  const maxWaitMs = maxWait ? parseDuration(maxWait.value, maxWait.source) : DEFAULTS.maxWaitMs;
  const caFile = setting(flags.caFile, '--ca-file', 'MKT_CA_FILE');
  const dispatcher = deps.dispatcher ?? await createDispatcher(deps, caFile, timeoutMs, connections, onDebug);
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

async function createDispatcher(
  deps: Deps, caFile: { value: string; source: string } | undefined, timeoutMs: number, connections: number | undefined,
  onDebug: ((line: string) => void) | undefined,
): Promise<Dispatcher> {
  const env = deps.env;
  const connect: Record<string, unknown> = { timeout: timeoutMs };
  // Node's default (--max-http-header-size), given explicitly so that undici need not load
  // node:http to read it (scripts/build.js, docs/benchmarks.md).
  const maxHeaderSize = 16 * 1024;
  if (caFile) {
    connect.ca = await readCertificates(deps, caFile.value, caFile.source);
    onDebug?.(`* trusting the CA certificates in ${caFile.value} (from ${caFile.source}) as well as the system's`);
  }
  const proxies = readProxyEnv(env);
  if (!proxies.httpProxy && !proxies.httpsProxy) return new (await loadAgent())({ connect, maxHeaderSize, connections });
  const EnvHttpProxyAgent = await loadEnvHttpProxyAgent();
  if (onDebug) {
    const shown = (proxy: { value: string; source: string } | undefined) => proxy ? `${redactProxy(proxy.value)} (${proxy.source})` : 'none';
    onDebug(`* proxy for https: ${shown(proxies.httpsProxy)}; for http: ${shown(proxies.httpProxy)}; bypassed for: ${proxies.noProxy?.value || 'none'}`);
  }
  // Values are always passed (empty when unset): undici would otherwise read process.env itself.
  return new EnvHttpProxyAgent({
    httpProxy: proxies.httpProxy?.value ?? '',
    httpsProxy: proxies.httpsProxy?.value ?? '',
    noProxy: proxies.noProxy?.value ?? '',
    // Plain http goes through the proxy in absolute form (`GET http://host/path`), as curl does;
    // many proxies refuse CONNECT to ports other than 443. https always uses a CONNECT tunnel.
    proxyTunnel: false,
    connect,
    maxHeaderSize,
    connections,
    // A TLS connection to the proxy itself, and the tunnelled one to the service, trust the same CAs.
    proxyTls: connect,
    requestTls: connect,
  });
}

interface ProxyEnv {
  httpProxy: { value: string; source: string } | undefined;
  httpsProxy: { value: string; source: string } | undefined;
  noProxy: { value: string; source: string } | undefined;
}

/**
 * HTTPS_PROXY, HTTP_PROXY and NO_PROXY in either case; the lower-case name wins when both are set,
 * as in curl and undici. A value without a scheme (`proxy:3128`) means http://, as in curl.
 */
export function readProxyEnv(env: Deps['env']): ProxyEnv {
  const pick = (name: string) => {
    const lower = name.toLowerCase();
    if (env[lower]) return { value: env[lower]!.trim(), source: lower };
    if (env[name]) return { value: env[name]!.trim(), source: name };
    return undefined;
  };
  const proxyUrl = (name: string) => {
    const found = pick(name);
    if (!found) return undefined;
    const value = /^[a-z][a-z0-9+.-]*:\/\//i.test(found.value) ? found.value : `http://${found.value}`;
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw new UsageError(`${found.source} is not a valid proxy URL: "${redactProxy(found.value).slice(0, 200)}"`,
        'use the form http://proxy.example.com:3128 (http://user:password@host:port with credentials)');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new UsageError(`${found.source} must be an http:// or https:// proxy URL, not ${url.protocol}//`);
    }
    return { value, source: found.source };
  };
  return { httpProxy: proxyUrl('HTTP_PROXY'), httpsProxy: proxyUrl('HTTPS_PROXY'), noProxy: pick('NO_PROXY') };
}

/** A proxy URL for messages: any user name and password replaced. */
function redactProxy(value: string): string {
  // Up to the last @ before the path: a password may hold an unencoded @.
  return value.replace(/\/\/[^/]*@/, '//[redacted]@');
}

/** A CA bundle of every public root is about 220 KB; a file larger than this is not one. */
const MAX_CA_FILE_BYTES = 4 * 1024 * 1024;

/**
 * Node's bundled roots, NODE_EXTRA_CA_CERTS, and the file: passing `ca` replaces the defaults. Read
 * as streams with a byte cap (a device such as /dev/zero has no size to check), interruptible.
 */
async function readCertificates(deps: Deps, caFile: string, source: string): Promise<string[]> {
  const { rootCertificates } = await import('node:tls');
  const read = async (file: string, from: string) => {
    const text = await readFileLimited(file, `the CA file ${file} (from ${from})`, MAX_CA_FILE_BYTES, deps.signal);
    if (!text.includes('-----BEGIN CERTIFICATE-----')) throw new UsageError(`${file} (from ${from}) holds no PEM certificate`, 'point it at a PEM file of CA certificates (-----BEGIN CERTIFICATE-----)');
    return text;
  };
  const extraFile = deps.env.NODE_EXTRA_CA_CERTS;
  const extra = extraFile ? [await read(extraFile, 'NODE_EXTRA_CA_CERTS')] : [];
  return [...rootCertificates, ...extra, await read(caFile, source)];
}
