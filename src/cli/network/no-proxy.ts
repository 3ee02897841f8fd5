// NO_PROXY as curl reads it (https://curl.se/docs/manpage.html#--noproxy, lib/noproxy.c), plus
// ports: undici's EnvHttpProxyAgent knows neither CIDR ranges nor IPv6 addresses, the entries
// companies put there most (`10.0.0.0/8`). Addresses are compared as addresses by Node's BlockList,
// so `::1`, `[::1]` and `0:0::1` are one. Nothing is resolved: a name entry matches names, an
// address or range matches a URL whose host is an address, as in curl.
import { BlockList, isIP } from 'node:net';
import { isLoopback } from '../../shared/loopback.js';

type Rule =
  | { kind: 'all' }
  | { kind: 'name'; name: string; port: number | undefined }
  | { kind: 'address'; list: BlockList; port: number | undefined };

/** Whether a URL bypasses the proxy. */
export type NoProxy = (url: URL) => boolean;

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

/**
 * The matcher for a NO_PROXY value: entries separated by commas or white space, each one of
 * - `*`: every host;
 * - a host name: that host and its subdomains (`example.com` matches `api.example.com`); a leading
 *   `.` or `*.` means the same (`.example.com` matches `example.com` too, as in curl); `localhost`
 *   matches the loopback addresses as well (127.0.0.0/8, ::1);
 * - an IPv4 or IPv6 address, bracketed or not (`10.1.2.3`, `::1`, `[::1]`);
 * - a CIDR range (`10.0.0.0/8`, `fd00::/8`);
 * - any of the above but `*` with `:port` (`example.com:8443`, `[::1]:4010`): that port only.
 * An entry that is none of these matches nothing.
 */
export function parseNoProxy(value: string | undefined): NoProxy {
  const rules = (value ?? '').split(/[\s,]+/).filter(Boolean).map(parseEntry).filter((rule) => rule !== undefined);
  if (rules.length === 0) return () => false;
  return (url) => {
    const host = url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
    const port = url.port ? Number(url.port) : DEFAULT_PORTS[url.protocol];
    const family = isIP(host);
    return rules.some((rule) => {
      if (rule.kind === 'all') return true;
      if (rule.port !== undefined && rule.port !== port) return false;
      if (rule.kind === 'address') return family !== 0 && rule.list.check(host, family === 4 ? 'ipv4' : 'ipv6');
      if (rule.name === 'localhost' && isLoopback(host)) return true;
      return host === rule.name || host.endsWith(`.${rule.name}`);
    });
  };
}

function parseEntry(entry: string): Rule | undefined {
  if (entry === '*') return { kind: 'all' };
  let text = entry.toLowerCase();
  let port: number | undefined;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  if (bracketed) {
    text = bracketed[1]!;
    port = bracketed[2] === undefined ? undefined : Number(bracketed[2]);
  } else {
    // `host:port` and `1.2.3.4:80`; an IPv6 address has more than one colon and no port unless bracketed.
    const withPort = /^([^:]+):(\d+)$/.exec(text);
    if (withPort) {
      text = withPort[1]!;
      port = Number(withPort[2]);
    }
  }
  if (port !== undefined && (port < 1 || port > 65535)) return undefined;
  const range = /^([^/]+)\/(\d{1,3})$/.exec(text);
  const address = range ? range[1]! : text;
  const family = isIP(address);
  if (family !== 0) {
    const prefix = range ? Number(range[2]) : family === 4 ? 32 : 128;
    if (prefix > (family === 4 ? 32 : 128)) return undefined;
    const list = new BlockList();
    list.addSubnet(address, prefix, family === 4 ? 'ipv4' : 'ipv6');
    return { kind: 'address', list, port };
  }
  const name = text.replace(/^\*?\./, '').replace(/\.$/, '');
  if (range || name === '' || !/^[a-z0-9_.-]+$/.test(name)) return undefined;
  return { kind: 'name', name, port };
}
