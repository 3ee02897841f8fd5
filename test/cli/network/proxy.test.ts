// Proxies from the environment, through a real forward proxy: plain http in absolute form via
// HTTP_PROXY, https through a CONNECT tunnel via HTTPS_PROXY (with the TLS checked end to end),
// NO_PROXY bypassing it, either case of every name. Loopback is never proxied, so the service is
// reached as proxied.test, a name only the proxy resolves (and the test certificate names).
import { describe, expect, it } from 'vitest';
import { sendQuotes, useServers } from '../../helpers/fault-server.js';
import { useTestCertificates } from '../../helpers/tls.js';
import { startForwardProxy, type ForwardProxyOptions } from './forward-proxy.js';
import { quotesEnv, TOKEN } from '../../helpers/quotes-env.js';
import { runCli } from '../../helpers/cli.js';

const { start: server, closeLater } = useServers();

const certificates = useTestCertificates();

const proxy = async (options?: ForwardProxyOptions) => closeLater(await startForwardProxy(options));
const httpQuotes = () => server((req, res) => sendQuotes(req, res));
const httpsQuotes = () => server((req, res) => sendQuotes(req, res), { tls: certificates() });
/** A proxy that resolves proxied.test to the service on 127.0.0.1. */
const proxyTo = (api: { port: number }, options?: ForwardProxyOptions) => proxy({ ...options, hosts: { [`proxied.test:${api.port}`]: `127.0.0.1:${api.port}` } });
/** The service by the name only the proxy resolves; plain http to it needs MKT_ALLOW_INSECURE_HTTP=1. */
const proxied = (api: { url: string; port: number }) => api.url.replace('127.0.0.1', 'proxied.test');
const INSECURE = { MKT_ALLOW_INSECURE_HTTP: '1' };

describe('HTTP_PROXY, plain http', () => {
  it.each(['HTTP_PROXY', 'http_proxy'])('%s: the request goes through the proxy in absolute form', async (name) => {
    const api = await httpQuotes();
    const forward = await proxyTo(api);
    const run = await runCli(['quotes', 'EURUSD'], { env: quotesEnv(proxied(api), { [name]: forward.url, ...INSECURE }) });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(forward.seen.map((s) => s.line)).toEqual([`GET ${proxied(api)}/v1/market/quotes?symbols=EURUSD`]);
    expect(api.requests).toHaveLength(1);
  });

  it('a host name only the proxy can resolve (MKT_ALLOW_INSECURE_HTTP=1)', async () => {
    const api = await httpQuotes();
    const forward = await proxy({ hosts: { 'quotes.test:80': `127.0.0.1:${api.port}` } });
    const run = await runCli(['quotes', 'EURUSD'], {
      env: quotesEnv('http://quotes.test', { HTTP_PROXY: forward.url, MKT_ALLOW_INSECURE_HTTP: '1' }),
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(forward.seen.map((s) => s.line)).toEqual(['GET http://quotes.test/v1/market/quotes?symbols=EURUSD']);
    expect(api.requests[0]!.headers.host).toBe('quotes.test');
  });

  it('a proxy value without a scheme means http://', async () => {
    const api = await httpQuotes();
    const forward = await proxyTo(api);
    const run = await runCli(['quotes', 'EURUSD'], { env: quotesEnv(proxied(api), { HTTP_PROXY: forward.url.replace('http://', ''), ...INSECURE }) });
    expect(run.code).toBe(0);
    expect(forward.seen).toHaveLength(1);
  });

  it('the lower-case name wins when both are set, as in curl', async () => {
    const api = await httpQuotes();
    const used = await proxyTo(api);
    const ignored = await proxyTo(api);
    const run = await runCli(['quotes', 'EURUSD'], { env: quotesEnv(proxied(api), { http_proxy: used.url, HTTP_PROXY: ignored.url, ...INSECURE }) });
    expect(run.code).toBe(0);
    expect(used.seen).toHaveLength(1);
    expect(ignored.seen).toHaveLength(0);
  });

  it('HTTPS_PROXY alone does not apply to plain http: direct, where proxied.test does not resolve', async () => {
    const api = await httpQuotes();
    const forward = await proxyTo(api);
    const run = await runCli(['quotes', 'EURUSD', '--retries', '0'], { env: quotesEnv(proxied(api), { HTTPS_PROXY: forward.url, ...INSECURE }) });
    expect(run.code).toBe(7);
    expect(forward.seen).toHaveLength(0);
    expect(api.requests).toHaveLength(0);
  });
});

describe('HTTPS_PROXY, https', () => {
  it.each(['HTTPS_PROXY', 'https_proxy'])('%s: a CONNECT tunnel, TLS checked end to end with --ca-file', async (name) => {
    const api = await httpsQuotes();
    const forward = await proxyTo(api);
    const run = await runCli(['quotes', 'EURUSD', '--ca-file', certificates().caFile], { env: quotesEnv(proxied(api), { [name]: forward.url }) });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(forward.seen.map((s) => s.line)).toEqual([`CONNECT proxied.test:${api.port}`]);
    // The token travels inside the tunnel; the proxy never sees it.
    expect(JSON.stringify(forward.seen)).not.toContain(TOKEN);
    expect(api.requests[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it('without the CA the tunnelled TLS fails as it would directly: exit 7', async () => {
    const api = await httpsQuotes();
    const forward = await proxyTo(api);
    const run = await runCli(['quotes', 'EURUSD'], { env: quotesEnv(proxied(api), { HTTPS_PROXY: forward.url }) });
    expect(run.code).toBe(7);
    expect(run.stderr).toContain('certificate signed by an unknown authority');
    expect(forward.seen).toHaveLength(1);
    expect(api.requests).toHaveLength(0);
  });

  it('a proxy that refuses the tunnel: exit 7, naming the proxy', async () => {
    const api = await httpsQuotes();
    const forward = await proxyTo(api, { refuseConnect: 403 });
    const run = await runCli(['quotes', 'EURUSD', '--ca-file', certificates().caFile], { env: quotesEnv(proxied(api), { HTTPS_PROXY: forward.url }) });
    expect(run.code).toBe(7);
    expect(run.stderr).toMatch(/^error: the proxy refused to connect to proxied\.test:\d+ \(status 403; GET https:/);
    expect(api.requests).toHaveLength(0);
  });

  it('proxy credentials are sent to the proxy and never shown in --verbose output', async () => {
    const api = await httpsQuotes();
    const forward = await proxyTo(api);
    const proxyUrl = forward.url.replace('http://', 'http://alice:PROXY_SECRET_81c3@');
    const run = await runCli(['quotes', 'EURUSD', '--ca-file', certificates().caFile, '--verbose'], { env: quotesEnv(proxied(api), { HTTPS_PROXY: proxyUrl }) });
    expect(run.code).toBe(0);
    expect(forward.seen[0]!.headers['proxy-authorization']).toBe(`Basic ${Buffer.from('alice:PROXY_SECRET_81c3').toString('base64')}`);
    expect(run.stderr).toContain(`* proxy for https: http://[redacted]@127.0.0.1:`);
    expect(run.stderr + run.stdout).not.toContain('PROXY_SECRET_81c3');
    expect(run.stderr + run.stdout).not.toContain(Buffer.from('alice:PROXY_SECRET_81c3').toString('base64'));
  });
});

describe('NO_PROXY', () => {
  // A bypassed request goes direct, where proxied.test and 192.0.2.10 (TEST-NET-1) lead nowhere:
  // exit 7 with the proxy untouched. Through the proxy, the same request succeeds.
  const direct = ['--retries', '0', '--timeout', '500ms'];

  it.each([
    ['NO_PROXY', 'HTTP_PROXY', 'proxied.test', 'http'],
    ['no_proxy', 'http_proxy', '.test', 'http'],
    ['NO_PROXY', 'HTTPS_PROXY', 'localhost, *.test', 'https'],
    ['no_proxy', 'https_proxy', '*', 'https'],
  ] as const)('%s with %s (%s): the proxy sees nothing', async (noProxyName, proxyName, value, scheme) => {
    const api = scheme === 'http' ? await httpQuotes() : await httpsQuotes();
    const forward = await proxyTo(api);
    const run = await runCli(['quotes', 'EURUSD', '--ca-file', certificates().caFile, ...direct], {
      env: quotesEnv(proxied(api), { [proxyName]: forward.url, [noProxyName]: value, ...INSECURE }),
    });
    expect(run.code).toBe(7);
    expect(forward.connections()).toBe(0);
    expect(api.requests).toHaveLength(0);
  });

  it.each([
    ['192.0.2.0/24', 0],
    ['192.0.2.10', 0],
    ['192.0.2.10:80', 0],
    ['192.0.0.0/16, 10.0.0.0/8', 0],
    ['192.0.3.0/24', 1],
    ['192.0.2.10:8080', 1],
  ] as const)('NO_PROXY=%s and a base URL on 192.0.2.10: %i requests through the proxy', async (value, proxiedCount) => {
    const api = await httpQuotes();
    const forward = await proxy({ hosts: { '192.0.2.10:80': `127.0.0.1:${api.port}` } });
    const run = await runCli(['quotes', 'EURUSD', ...direct], { env: quotesEnv('http://192.0.2.10', { HTTP_PROXY: forward.url, NO_PROXY: value, ...INSECURE }) });
    expect(run.code).toBe(proxiedCount === 1 ? 0 : 7);
    expect(forward.seen).toHaveLength(proxiedCount);
    expect(api.requests).toHaveLength(proxiedCount);
  });

  it('a NO_PROXY entry for another host does not bypass it', async () => {
    const api = await httpQuotes();
    const forward = await proxyTo(api);
    const run = await runCli(['quotes', 'EURUSD'], { env: quotesEnv(proxied(api), { HTTP_PROXY: forward.url, NO_PROXY: 'internal.example.com,10.0.0.0/8,::1', ...INSECURE }) });
    expect(run.code).toBe(0);
    expect(forward.seen).toHaveLength(1);
  });
});

describe('proxy settings that cannot work', () => {
  it('an invalid proxy URL: exit 2 before any connection', async () => {
    const api = await httpQuotes();
    const run = await runCli(['quotes', 'EURUSD'], { env: quotesEnv(api.url, { HTTP_PROXY: 'http://[not a host' }) });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('error: HTTP_PROXY is not a valid proxy URL');
    expect(api.requests).toHaveLength(0);
  });

  it('a proxy that is not running: exit 7, the hint names the proxy', async () => {
    const api = await httpQuotes();
    const gone = await proxy();
    await gone.close();
    const run = await runCli(['quotes', 'EURUSD', '--retries', '0'], { env: quotesEnv(proxied(api), { HTTP_PROXY: gone.url, ...INSECURE }) });
    expect(run.code).toBe(7);
    expect(run.stderr).toMatch(/^error: connection refused by proxied\.test:\d+/);
    expect(run.stderr).toMatch(/\nhint: .*proxy/);
    expect(api.requests).toHaveLength(0);
  });
});

describe('proxy URLs in messages', () => {
  it.each([
    ['http://alice:s3cret@proxy:3128', 'http://[redacted]@proxy:3128'],
    ['http://alice:p@ss@proxy:3128/', 'http://[redacted]@proxy:3128/'],
    ['proxy:3128', 'http://proxy:3128'],
  ])('%s is shown as %s', async (value, shown) => {
    const api = await httpsQuotes();
    const run = await runCli(['quotes', 'EURUSD', '--verbose', '--ca-file', certificates().caFile], {
      env: quotesEnv(api.url, { HTTPS_PROXY: value, NO_PROXY: '*' }),
    });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`* proxy for https: ${shown} (HTTPS_PROXY)`);
    expect(run.stderr).not.toContain('s3cret');
    expect(run.stderr).not.toContain('p@ss');
  });
});
