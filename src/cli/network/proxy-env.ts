// The proxy settings of a run, from the environment: HTTPS_PROXY, HTTP_PROXY and NO_PROXY in either
// case, checked and read as curl reads them; which proxy a request to a URL goes through (none for
// loopback, or a host NO_PROXY names); and what of a proxy URL is secret, for scrubbing and for
// messages.
import type { Deps } from '../deps.js';
import { UsageError } from '../errors/errors.js';
import { isLoopback } from '../../shared/loopback.js';
import { parseNoProxy } from './no-proxy.js';

export interface Proxy {
  value: string;
  /** The variable that set it, as spelled: `HTTPS_PROXY`, `https_proxy`. */
  source: string;
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
export function redactProxy(value: string): string {
  // Up to the last @: a password may hold an unencoded @ or /, and then the URL cannot be parsed.
  return value.replace(/^([a-z][a-z0-9+.-]*:\/\/)?[^]*@/i, '$1[redacted]@');
}

/**
 * What of a proxy URL is secret, in every form it may be echoed in: the password as written and
 * %-decoded, `user:password`, and the Basic credentials undici sends (Proxy-Authorization).
 */
export function proxySecrets(value: string | undefined): string[] {
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
 * The proxy a request to `origin` goes through, or undefined for a direct connection. Loopback is
 * never proxied, as in curl: through a proxy it would leave the machine, and plain http is allowed
 * to loopback only because it does not (options/settings.ts). So plain http reaches a proxy only for a base
 * URL that MKT_ALLOW_INSECURE_HTTP=1 let through.
 */
export function createProxyRoute(proxies: ProxyEnv): (origin: URL) => Proxy | undefined {
  const bypass = parseNoProxy(proxies.noProxy?.value);
  return (origin) => {
    if (isLoopback(origin.hostname) || bypass(origin)) return undefined;
    return origin.protocol === 'https:' ? proxies.httpsProxy : proxies.httpProxy;
  };
}
