// The undici dispatcher of a run, built from the environment: proxies (HTTPS_PROXY, HTTP_PROXY,
// NO_PROXY) and extra CA certificates (--ca-file, MKT_CA_FILE, NODE_EXTRA_CA_CERTS).
import type { Dispatcher } from 'undici';
import { loadAgent, loadEnvHttpProxyAgent } from '../api/undici.js';
import type { Deps } from './deps.js';
import { UsageError } from './errors.js';
import { readFileLimited } from '../shared/read-limited.js';

export async function createDispatcher(
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
