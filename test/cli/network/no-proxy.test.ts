// NO_PROXY as curl reads it, plus ports (issue 19, item 3): which URLs bypass the proxy.
import { describe, expect, it } from 'vitest';
import { parseNoProxy } from '../../../src/cli/network/no-proxy.js';

const cases: Array<[noProxy: string | undefined, url: string, bypassed: boolean]> = [
  [undefined, 'https://api.example.com', false],
  ['', 'https://api.example.com', false],
  [' , ,', 'https://api.example.com', false],
  ['*', 'https://api.example.com', true],
  ['*', 'http://10.1.2.3:8080', true],
  // Names: the host and its subdomains, any case, a leading `.` or `*.` the same; no partial labels.
  ['example.com', 'https://example.com', true],
  ['example.com', 'https://api.example.com', true],
  ['example.com', 'https://API.Example.COM', true],
  ['EXAMPLE.com', 'https://api.example.com', true],
  ['example.com', 'https://example.com./v1', true],
  ['example.com', 'https://notexample.com', false],
  ['example.com', 'https://example.com.evil.test', false],
  ['api.example.com', 'https://example.com', false],
  ['.example.com', 'https://example.com', true],
  ['.example.com', 'https://a.b.example.com', true],
  ['*.example.com', 'https://api.example.com', true],
  ['example.com.', 'https://api.example.com', true],
  // Lists: commas, white space, or both.
  ['a.test, example.com', 'https://api.example.com', true],
  ['a.test example.com', 'https://api.example.com', true],
  ['a.test,\texample.com\n', 'https://api.example.com', true],
  ['a.test,b.test', 'https://api.example.com', false],
  // Ports: that port only; a URL without one has its scheme's.
  ['example.com:8443', 'https://example.com:8443', true],
  ['example.com:8443', 'https://example.com', false],
  ['example.com:443', 'https://example.com', true],
  ['example.com:80', 'http://api.example.com', true],
  ['example.com:80', 'https://api.example.com', false],
  // IPv4 addresses and ranges.
  ['10.1.2.3', 'http://10.1.2.3:8080', true],
  ['10.1.2.3', 'http://10.1.2.4', false],
  ['10.0.0.0/8', 'http://10.200.3.4', true],
  ['10.0.0.0/8', 'http://11.0.0.1', false],
  ['127.0.0.0/8', 'http://127.0.0.1:4010', true],
  ['192.168.0.0/16', 'https://192.168.255.255', true],
  ['192.168.0.0/16', 'https://192.169.0.1', false],
  ['0.0.0.0/0', 'https://8.8.8.8', true],
  ['10.1.2.3:8080', 'http://10.1.2.3:8080', true],
  ['10.1.2.3:8080', 'http://10.1.2.3', false],
  ['10.0.0.0/8', 'https://10.example.com', false],
  ['10.0.0.0/8', 'https://[::a00:1]', false],
  // IPv6 addresses (bracketed or not, any spelling) and ranges.
  ['::1', 'http://[::1]:4010', true],
  ['[::1]', 'http://[::1]:4010', true],
  ['0:0:0:0:0:0:0:1', 'http://[::1]', true],
  ['::1', 'http://[::2]', false],
  ['[::1]:4010', 'http://[::1]:4010', true],
  ['[::1]:4010', 'http://[::1]:4011', false],
  ['fd00::/8', 'https://[fd12:3456::1]', true],
  ['fd00::/8', 'https://[fe80::1]', false],
  ['2001:db8::/32', 'https://[2001:db8:1::5]:8443', true],
  ['[2001:db8::/32]', 'https://[2001:db8:1::5]', true],
  ['::1', 'https://example.com', false],
  // `localhost` covers the loopback addresses too.
  ['localhost', 'http://localhost:4010', true],
  ['localhost', 'http://127.0.0.1:4010', true],
  ['localhost', 'http://127.3.2.1', true],
  ['localhost', 'http://[::1]:4010', true],
  ['localhost', 'http://10.0.0.1', false],
  // Entries that are none of the forms match nothing, and spoil nothing else.
  ['10.0.0.0/33', 'http://10.0.0.1', false],
  ['::1/129', 'http://[::1]', false],
  ['example.com/8', 'https://example.com', false],
  ['example.com:99999', 'https://example.com', false],
  ['bad/entry, 10.0.0.0/8', 'http://10.0.0.1', true],
  ['http://example.com', 'https://example.com', false],
];

describe('parseNoProxy', () => {
  it.each(cases)('NO_PROXY=%j, %s: bypassed %s', (noProxy, url, bypassed) => {
    expect(parseNoProxy(noProxy)(new URL(url))).toBe(bypassed);
  });
});
