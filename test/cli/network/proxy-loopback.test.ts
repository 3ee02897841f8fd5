// Loopback is never proxied (issue 19, item 2): plain http is allowed to loopback only because it
// stays on the machine, and a proxy (often another machine) would see the API key and the token.
// Plain http through a proxy needs MKT_ALLOW_INSECURE_HTTP=1, as plain http to any other host does.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO } from '../../../src/sandbox/index.js';
import { runCli, tempDir } from '../../helpers/cli.js';
import { sendQuotes, useServers } from '../../helpers/fault-server.js';
import { startTestSandbox } from '../../helpers/sandbox.js';
import { useTestCertificates } from '../../helpers/tls.js';
import { startForwardProxy } from './forward-proxy.js';
import { quotesEnv, TOKEN } from '../../helpers/quotes-env.js';

const { start: server, closeLater } = useServers();

const certificates = useTestCertificates();

describe('loopback goes direct whatever the proxy variables say', () => {
  it.each(['HTTP_PROXY', 'http_proxy'])('%s: login and quotes to http://127.0.0.1 never reach the proxy', async (name) => {
    const sandbox = closeLater(await startTestSandbox());
    const forward = closeLater(await startForwardProxy());
    const configDir = path.join(tempDir(), 'config');
    const env = { [name]: forward.url, HTTPS_PROXY: forward.url };
    const login = await runCli(['login', '--org', DEMO.org, '--base-url', sandbox.url], { env: { ...env, MKT_API_KEY: DEMO.apiKey }, configDir, now: sandbox.clock.now });
    expect(login.stderr).toContain('Logged in');
    expect(login.code).toBe(0);
    const quotes = await runCli(['quotes', 'EURUSD', '--verbose'], { env, configDir, now: sandbox.clock.now });
    expect(quotes.code).toBe(0);
    expect(quotes.stdout).toContain('EURUSD');
    expect(quotes.stderr).toContain('; bypassed for: loopback');
    // Neither the API key nor the Bearer token crossed the proxy: it saw no connection at all.
    expect(forward.connections()).toBe(0);
    expect(forward.seen).toEqual([]);
  });

  it('https to 127.0.0.1 with HTTPS_PROXY set: direct', async () => {
    const api = await server((req, res) => sendQuotes(req, res), { tls: certificates() });
    const forward = closeLater(await startForwardProxy());
    const run = await runCli(['quotes', 'EURUSD', '--ca-file', certificates().caFile], { env: quotesEnv(api.url, { HTTPS_PROXY: forward.url }) });
    expect(run.code).toBe(0);
    expect(api.requests[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(forward.connections()).toBe(0);
  });
});

describe('plain http through a proxy', () => {
  it('to another host: exit 2 unless MKT_ALLOW_INSECURE_HTTP=1, nothing sent', async () => {
    const forward = closeLater(await startForwardProxy());
    const run = await runCli(['quotes', 'EURUSD'], { env: quotesEnv('http://proxied.test:8080', { HTTP_PROXY: forward.url }) });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^error: refusing to send credentials over plain http to proxied\.test:8080/);
    expect(run.stdout).toBe('');
    expect(forward.connections()).toBe(0);
  });
});
