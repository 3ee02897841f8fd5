// The undici dispatcher of a run, built from the environment: proxies (HTTPS_PROXY, HTTP_PROXY,
// NO_PROXY; proxy-env.ts) and extra CA certificates (--ca-file, MKT_CA_FILE, NODE_EXTRA_CA_CERTS;
// ca-certificates.ts), every connection through guardConnector (connector-guard.ts), and the
// proxies behind one router (proxy-router.ts).
//
// Why not undici's EnvHttpProxyAgent: its NO_PROXY knows neither CIDR ranges nor IPv6 addresses
// (no-proxy.ts), it proxies loopback, and the CONNECT to the proxy has no deadline a request's
// abort can reach: undici honours a request's signal only once the request is written to a
// connection, so a proxy that never answers CONNECT held a run for undici's own 300 s, and one that
// closes each connection made undici reconnect at once, forever (a closed socket is an error undici
// retries by itself while a request waits: 185,000 CONNECTs a minute). So every connection mkt
// opens goes through guardConnector.
import type { Dispatcher } from 'undici';
import { loadDispatcherParts } from '../../api/internal.js';
import { readCertificates } from './ca-certificates.js';
import { guardConnector, type Connector } from './connector-guard.js';
import type { Deps } from '../deps.js';
import { MAX_HEADER_SIZE } from '../../shared/limits.js';
import { createProxyRoute, proxySecrets, readProxyEnv, redactProxy, type Proxy } from './proxy-env.js';
import { createProxyRouter } from './proxy-router.js';
import { holdSecret } from '../credentials/secrets.js';

interface DispatcherSettings {
  /** The extra CA file, and where it was given. */
  caFile: { value: string; source: string } | undefined;
  timeoutMs: number;
  /** The most connections to one origin: the requests the command keeps in flight. */
  connections: number | undefined;
  onDebug: ((line: string) => void) | undefined;
  /** The command ends after a few responses (not `--watch`): see wasm-budget.ts. */
  shortRun: boolean;
}

export async function createDispatcher(deps: Deps, settings: DispatcherSettings): Promise<Dispatcher> {
  const { caFile, timeoutMs, connections, onDebug, shortRun } = settings;
  const connect: Record<string, unknown> = { timeout: timeoutMs };
  const proxies = readProxyEnv(deps.env);
  for (const proxy of [proxies.httpProxy, proxies.httpsProxy]) for (const secret of proxySecrets(proxy?.value)) holdSecret(deps, secret);
  if (caFile) {
    connect.ca = await readCertificates(deps, caFile.value, caFile.source);
    onDebug?.(`* trusting the CA certificates in ${caFile.value} (from ${caFile.source}) as well as the system's`);
  }
  const { Agent, Client, Dispatcher, Pool, ProxyAgent, buildConnector } = await loadDispatcherParts();
  const pool = (origin: string | URL, options: Record<string, unknown>, connector: Connector): Dispatcher => {
    const poolSettings = { ...options, connect: connector };
    return options.connections === 1 ? new Client(origin, poolSettings) : new Pool(origin, poolSettings);
  };
  // A direct connection has undici's connect timeout already; the guard adds the run's signal.
  const direct = new Agent({ maxHeaderSize: MAX_HEADER_SIZE, connections, factory: (origin, options: Record<string, unknown>) =>
    pool(origin, options, guardConnector(buildConnector(connect), deps.signal, { shortRun })) });
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
    factory: (origin, options: Record<string, unknown>) => pool(origin, options,
      guardConnector(options.connect as Connector, deps.signal, { deadlineMs: timeoutMs, shortRun, proxied: true })),
  });
  const agents = new Map<Proxy | undefined, Dispatcher>([[undefined, direct]]);
  for (const proxy of [proxies.httpsProxy, proxies.httpProxy]) if (proxy) agents.set(proxy, viaProxy(proxy));
  const routeOf = createProxyRoute(proxies);
  return createProxyRouter(Dispatcher, [...agents.values()], (origin) => agents.get(routeOf(origin))!);
}
