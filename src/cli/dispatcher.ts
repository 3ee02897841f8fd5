// The undici dispatcher of a run, built from the environment: proxies (HTTPS_PROXY, HTTP_PROXY,
// NO_PROXY) and extra CA certificates (--ca-file, MKT_CA_FILE, NODE_EXTRA_CA_CERTS).
//
// Why not undici's EnvHttpProxyAgent: its NO_PROXY knows neither CIDR ranges nor IPv6 addresses
// (no-proxy.ts), it proxies loopback, and the CONNECT to the proxy has no deadline a request's
// abort can reach: undici honours a request's signal only once the request is written to a
// connection, so a proxy that never answers CONNECT held a run for undici's own 300 s, and one that
// closes each connection made undici reconnect at once, forever (a closed socket is an error undici
// retries by itself while a request waits: 185,000 CONNECTs a minute, issue 19). So every
// connection mkt opens goes through guardConnector: a deadline for the proxy's tunnel, an end on
// the run's signal, and a failed CONNECT that fails the request (one attempt of the retry policy),
// and an unsolicited `100 Continue` dropped before undici sees it (interim-responses.ts).
import type { TLSSocket } from 'node:tls';
import type { buildConnector, Dispatcher } from 'undici';
import { loadDispatcherParts } from '../api/internal.js';
import type { Deps } from './deps.js';
import { UsageError } from './errors.js';
import { readFileLimited } from '../shared/read-limited.js';
import { formatDuration } from '../shared/duration.js';
import { MAX_CA_FILE_BYTES, MAX_HEADER_SIZE } from '../shared/limits.js';
import { isLoopback } from '../shared/loopback.js';
import { skipUnsolicitedContinue } from './interim-responses.js';
import { parseNoProxy } from './no-proxy.js';
import { holdSecret } from './secrets.js';

type Connector = buildConnector.connector;
type Proxy = { value: string; source: string };


/** `beforeParser`: called once before undici compiles its HTTP parser, at the first connection (wasm-budget.ts). */
export async function createDispatcher(
  deps: Deps, caFile: { value: string; source: string } | undefined, timeoutMs: number, connections: number | undefined,
  onDebug: ((line: string) => void) | undefined, beforeParser?: () => void,
): Promise<Dispatcher> {
  const env = deps.env;
  const connect: Record<string, unknown> = { timeout: timeoutMs };
  const proxies = readProxyEnv(env);
  for (const proxy of [proxies.httpProxy, proxies.httpsProxy]) for (const secret of proxySecrets(proxy?.value)) holdSecret(deps, secret);
  if (caFile) {
    connect.ca = await readCertificates(deps, caFile.value, caFile.source);
    onDebug?.(`* trusting the CA certificates in ${caFile.value} (from ${caFile.source}) as well as the system's`);
  }
  const { Agent, Client, Dispatcher, Pool, ProxyAgent, buildConnector } = await loadDispatcherParts();
  const pool = (origin: string | URL, options: Record<string, unknown>, connector: Connector): Dispatcher => {
    const settings = { ...options, connect: connector };
    return options.connections === 1 ? new Client(origin, settings) : new Pool(origin, settings);
  };
  // A direct connection has undici's connect timeout already; the guard adds the run's signal.
  const direct = new Agent({ maxHeaderSize: MAX_HEADER_SIZE, connections, factory: (origin, options: Record<string, unknown>) =>
    pool(origin, options, guardConnector(buildConnector(connect), deps.signal, { beforeParser })) });
  if (!proxies.httpProxy && !proxies.httpsProxy) return direct;

  if (onDebug) {
    const shown = (proxy: Proxy | undefined) => proxy ? `${redactProxy(proxy.value)} (${proxy.source})` : 'none';
    onDebug(`* proxy for https: ${shown(proxies.httpsProxy)}; for http: ${shown(proxies.httpProxy)}; bypassed for: loopback${proxies.noProxy?.value ? `, ${proxies.noProxy.value}` : ''}`);
  }
  const viaProxy = (proxy: Proxy) => new ProxyAgent({
    uri: proxy.value,
    // Plain http goes through the proxy in absolute form (`GET http://host/path`), as curl does;
    // many proxies refuse CONNECT to ports other than 443. https always uses a CONNECT tunnel.
    proxyTunnel: false,
    maxHeaderSize: MAX_HEADER_SIZE,
    connections,
    // A TLS connection to the proxy itself, and the tunnelled one to the service, trust the same CAs.
    proxyTls: connect,
    requestTls: connect,
    // Each connection of the proxy agent: a tunnel through the proxy (CONNECT, then TLS), or the
    // connection to the proxy that carries plain http.
    factory: (origin, options: Record<string, unknown>) => pool(origin, options, guardConnector(options.connect as Connector, deps.signal, { deadlineMs: timeoutMs, beforeParser, proxied: true })),
  });
  const httpsProxy = proxies.httpsProxy ? viaProxy(proxies.httpsProxy) : direct;
  const httpProxy = proxies.httpProxy ? viaProxy(proxies.httpProxy) : direct;
  const bypass = parseNoProxy(proxies.noProxy?.value);
  const route = (origin: URL): Dispatcher => {
    // Loopback is never proxied, as in curl: through a proxy it would leave the machine, and plain
    // http is allowed to loopback only because it does not (settings.ts). So plain http reaches a
    // proxy only for a base URL that MKT_ALLOW_INSECURE_HTTP=1 let through.
    if (isLoopback(origin.hostname) || bypass(origin)) return direct;
    return origin.protocol === 'https:' ? httpsProxy : httpProxy;
  };

  const parts = [...new Set([direct, httpsProxy, httpProxy])];
  class ProxyRouter extends Dispatcher {
    override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
      return route(new URL(String(options.origin))).dispatch(options, handler);
    }

    override close(): Promise<void>;
    override close(callback: () => void): void;
    override close(callback?: () => void): Promise<void> | void {
      const closed = Promise.all(parts.map((part) => part.close())).then(() => {});
      if (!callback) return closed;
      void closed.then(callback, callback);
    }

    override destroy(): Promise<void>;
    override destroy(error: Error | null): Promise<void>;
    override destroy(callback: () => void): void;
    override destroy(error: Error | null, callback: () => void): void;
    override destroy(first?: Error | null | (() => void), second?: () => void): Promise<void> | void {
      const callback = typeof first === 'function' ? first : second;
      const error = typeof first === 'function' ? null : first ?? null;
      const destroyed = Promise.all(parts.map((part) => part.destroy(error))).then(() => {});
      if (!callback) return destroyed;
      void destroyed.then(callback, callback);
    }
  }
  return new ProxyRouter();
}

/**
 * `connector` with an end: the run's signal fails the connection at once, and `deadlineMs` (for a
 * tunnel: the connection to the proxy, its answer to CONNECT and the TLS handshake inside) fails it
 * when it passes. The connector is handed a signal that aborts whatever is left (undici's ProxyAgent
 * passes it to its CONNECT request). A proxy that closed the connection is reported as a reset:
 * undici would take its own "socket closed" for a reason to reconnect at once, without end. The
 * connection undici gets skips an unsolicited `100 Continue` (interim-responses.ts); an HTTP/2 one
 * (never negotiated: mkt does not set allowH2) is left alone.
 *
 * `beforeParser` runs once a direct connection is open, before undici parses on it; through a
 * proxy (`proxied`) before the connection opens, since undici parses the proxy's answer to
 * CONNECT on a connection of its own.
 */
function guardConnector(connector: Connector, signal: AbortSignal, guard: { deadlineMs?: number; beforeParser?: () => void; proxied?: boolean }): Connector {
  const { deadlineMs, beforeParser, proxied = false } = guard;
  return (options, callback) => {
    if (signal.aborted) return callback(connectError('UND_ERR_ABORTED', 'interrupted'), null);
    if (proxied) beforeParser?.();
    const rest = new AbortController();
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const settle = (...args: Parameters<buildConnector.Callback>) => {
      if (settled) {
        args[1]?.destroy();
        return;
      }
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      if (args[0]) {
        rest.abort();
      } else {
        if (!proxied) beforeParser?.();
        if ((args[1] as TLSSocket).alpnProtocol !== 'h2') skipUnsolicitedContinue(args[1], MAX_HEADER_SIZE);
      }
      callback(...args);
    };
    const onAbort = () => settle(connectError('UND_ERR_ABORTED', 'interrupted'), null);
    signal.addEventListener('abort', onAbort, { once: true });
    if (deadlineMs !== undefined) {
      timer = setTimeout(() => settle(connectError('UND_ERR_CONNECT_TIMEOUT',
        `no connection through the proxy within ${formatDuration(deadlineMs)}`), null), deadlineMs);
    }
    const withSignal = { ...options, signal: rest.signal } as buildConnector.Options;
    connector(withSignal, (...args) => {
      const error = args[0];
      if (error && ['UND_ERR_SOCKET', 'UND_ERR_INFO'].includes((error as NodeJS.ErrnoException).code ?? '')) {
        return settle(connectError('ECONNRESET', `the proxy closed the connection: ${error.message}`, error), null);
      }
      settle(...args);
    });
  };
}

function connectError(code: string, message: string, cause?: unknown): Error {
  return Object.assign(new Error(message, { cause }), { code });
}

interface ProxyEnv {
  httpProxy: Proxy | undefined;
  httpsProxy: Proxy | undefined;
  noProxy: Proxy | undefined;
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
    const invalid = (why: string) => new UsageError(`${found.source} is not a valid proxy URL (${why}): "${redactProxy(found.value).slice(0, 200)}"`,
      'use the form http://proxy.example.com:3128, or http://user:password@host:port with credentials (/, @, : and % in them %-encoded: %2F, %40, %3A, %25)');
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw invalid('it cannot be parsed');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new UsageError(`${found.source} must be an http:// or https:// proxy URL, not ${url.protocol}//`);
    }
    try {
      decodeURIComponent(url.username);
      decodeURIComponent(url.password);
    } catch {
      throw invalid('a bad %-escape in its user name or password');
    }
    return { value, source: found.source };
  };
  return { httpProxy: proxyUrl('HTTP_PROXY'), httpsProxy: proxyUrl('HTTPS_PROXY'), noProxy: pick('NO_PROXY') };
}

/** A proxy URL for messages: any user name and password replaced. */
function redactProxy(value: string): string {
  // Up to the last @: a password may hold an unencoded @ or /, and then the URL cannot be parsed.
  return value.replace(/^([a-z][a-z0-9+.-]*:\/\/)?[^]*@/i, '$1[redacted]@');
}

/**
 * What of a proxy URL is secret, in every form it may be echoed in: the password as written and
 * %-decoded, `user:password`, and the Basic credentials undici sends (Proxy-Authorization).
 */
function proxySecrets(value: string | undefined): string[] {
  const userinfo = value === undefined ? undefined : /^(?:[a-z][a-z0-9+.-]*:\/\/)?([^]*)@/i.exec(value)?.[1];
  if (!userinfo) return [];
  const colon = userinfo.indexOf(':');
  const raw = { user: colon === -1 ? userinfo : userinfo.slice(0, colon), password: colon === -1 ? '' : userinfo.slice(colon + 1) };
  const decode = (text: string) => {
    try {
      return decodeURIComponent(text);
    } catch {
      return text;
    }
  };
  const user = decode(raw.user);
  const password = decode(raw.password);
  return [...new Set([userinfo, raw.password, password, `${user}:${password}`, Buffer.from(`${user}:${password}`).toString('base64')])]
    .filter((secret) => secret !== '' && secret !== user && secret !== `${user}:`);
}

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
