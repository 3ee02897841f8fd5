// Hints name the setting to change as the user gave it: the base URL's flag, variable or profile,
// MKT_TIMEOUT or --timeout, the CA file and where it was given, and the proxy variable a request
// went through (only when one did), never the library's options or "the dispatcher".
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Dispatcher } from 'undici';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../../helpers/cli.js';
import { useServers } from '../../helpers/fault-server.js';

const servers = useServers();

async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** A dispatcher that fails every request as Node would, with `code` (or a proxy's words). */
function failing(code: string | undefined, message = `failed: ${code}`): Dispatcher {
  return { request: async () => {
    throw Object.assign(new Error(message), code === undefined ? {} : { code });
  } } as unknown as Dispatcher;
}

const hintOf = (stderr: string) => /\nhint: (.*)\n/.exec(stderr)?.[1];
const TOKEN = { MKT_TOKEN: 'tok_names', MKT_ORG: 'org_demo', MKT_RETRIES: '0' };

describe('a refused connection names where the base URL came from', () => {
  it.each([
    ['MKT_BASE_URL', (url: string) => ({ argv: [], env: { MKT_BASE_URL: url } }), 'MKT_BASE_URL'],
    ['--base-url', (url: string) => ({ argv: ['--base-url', url], env: {} }), '--base-url'],
  ])('from %s', async (_name, given, named) => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const { argv, env } = given(url);
    const result = await runCli(['quotes', 'EURUSD', ...argv], { env: { ...TOKEN, ...env } });
    expect(result.code).toBe(7);
    expect(hintOf(result.stderr)).toBe(`check the base URL (${named}) and that the service is running`);
    expect(result.stderr).not.toMatch(/dispatcher|baseUrl/);
  });

  it('from the profile: the config file and the profile', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const set = await runCli(['config', 'set', 'base-url', url]);
    expect(set.code, set.stderr).toBe(0);
    const result = await runCli(['quotes', 'EURUSD'], { configDir: set.configDir, env: TOKEN });
    expect(result.code).toBe(7);
    expect(hintOf(result.stderr)).toBe(`check the base URL (base-url in profile default of ${path.join(set.configDir, 'config.json')}) and that the service is running`);
  });

  it('login names it too', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const result = await runCli(['login', '--org', 'org_demo'], { env: { MKT_BASE_URL: url, MKT_API_KEY: 'demo.demo-secret', MKT_RETRIES: '0' } });
    expect(result.code).toBe(7);
    expect(hintOf(result.stderr)).toBe('check the base URL (MKT_BASE_URL) and that the service is running');
  });
});

describe('proxies, by their variables, only when a request goes through one', () => {
  it('HTTPS_PROXY that refuses the connection: named, with NO_PROXY', async () => {
    const proxy = `http://127.0.0.1:${await closedPort()}`;
    const result = await runCli(['quotes', 'EURUSD'], { env: { ...TOKEN, MKT_BASE_URL: 'https://api.example.test', HTTPS_PROXY: proxy } });
    expect(result.code).toBe(7);
    expect(hintOf(result.stderr)).toBe('check the base URL (MKT_BASE_URL) and that the service is running, and the proxy in HTTPS_PROXY (or NO_PROXY, for hosts that must bypass it)');
  });

  it('https_proxy, as spelled, and not when NO_PROXY lets the host bypass it', async () => {
    const proxy = `http://127.0.0.1:${await closedPort()}`;
    const through = await runCli(['quotes', 'EURUSD'], { env: { ...TOKEN, MKT_BASE_URL: 'https://api.example.test', https_proxy: proxy }, dispatcher: failing('ENOTFOUND') });
    expect(hintOf(through.stderr)).toBe('check the base URL (MKT_BASE_URL) and the DNS, and the proxy in https_proxy (or NO_PROXY, for hosts that must bypass it)');
    const bypassed = await runCli(['quotes', 'EURUSD'], {
      env: { ...TOKEN, MKT_BASE_URL: 'https://api.example.test', HTTPS_PROXY: proxy, NO_PROXY: '.example.test' }, dispatcher: failing('ENOTFOUND'),
    });
    expect(hintOf(bypassed.stderr)).toBe('check the base URL (MKT_BASE_URL) and the DNS');
  });

  it.each([
    ['407', 'Proxy response (407) !== 200 when HTTP Tunneling', 'the proxy wants credentials: put them in HTTPS_PROXY, e.g. http://user:password@proxy:3128'],
    ['403', 'Proxy response (403) !== 200 when HTTP Tunneling', 'check the proxy in HTTPS_PROXY, and NO_PROXY for the hosts it must not handle'],
  ])('a proxy answering %s', async (_status, message, hint) => {
    const result = await runCli(['quotes', 'EURUSD'], {
      env: { ...TOKEN, MKT_BASE_URL: 'https://api.example.test', HTTPS_PROXY: 'http://proxy.example.test:3128' }, dispatcher: failing(undefined, message),
    });
    expect(result.code).toBe(7);
    expect(hintOf(result.stderr)).toBe(hint);
  });
});

describe('the timeout and the CA file, as given', () => {
  it.each([
    ['MKT_TIMEOUT', [], { MKT_TIMEOUT: '200ms' }, 'MKT_TIMEOUT'],
    ['--timeout', ['--timeout', '200ms'], {}, '--timeout'],
  ])('a timeout set with %s: raise that', async (_name, argv, env, named) => {
    const silent = await servers.start(() => {});
    const result = await runCli(['quotes', 'EURUSD', ...argv], { env: { ...TOKEN, MKT_BASE_URL: silent.url, ...env } });
    expect(result.code).toBe(7);
    expect(hintOf(result.stderr)).toBe(`the service or the network is slow or unreachable; raise ${named}, or try again`);
  });

  it('a CA the system does not know, without a CA file: --ca-file or MKT_CA_FILE', async () => {
    const result = await runCli(['quotes', 'EURUSD'], { env: { ...TOKEN, MKT_BASE_URL: 'https://api.example.test' }, dispatcher: failing('UNABLE_TO_VERIFY_LEAF_SIGNATURE') });
    expect(hintOf(result.stderr)).toBe("trust the CA (PEM) that issued api.example.test's certificate: give its file with --ca-file or MKT_CA_FILE");
  });

  it('with MKT_CA_FILE: that file does not hold it', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'ca.pem');
    const result = await runCli(['quotes', 'EURUSD'], {
      env: { ...TOKEN, MKT_BASE_URL: 'https://api.example.test', MKT_CA_FILE: file }, dispatcher: failing('SELF_SIGNED_CERT_IN_CHAIN'),
    });
    expect(hintOf(result.stderr)).toBe(`${file} (from MKT_CA_FILE) does not hold the CA (PEM) that issued api.example.test's certificate: add it there`);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
