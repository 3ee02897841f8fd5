// TLS with a certificate from a private CA: refused without the CA (with a message that names the
// fix), accepted with --ca-file or MKT_CA_FILE. NODE_EXTRA_CA_CERTS is read by Node at start-up, so
// it is tested on the built bin in process.test.ts.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sendQuotes, useServers } from '../../helpers/fault-server.js';
import { useTestCertificates } from '../../helpers/tls.js';
import { startForwardProxy } from './forward-proxy.js';
import { API_KEY, quotesEnv, TOKEN_RESPONSE } from '../../helpers/quotes-env.js';
import { runCli } from '../../helpers/cli.js';

const { start: server, closeLater } = useServers();

const certificates = useTestCertificates();

async function httpsQuotes() {
  return server((req, res) => sendQuotes(req, res), { tls: certificates() });
}

describe('a certificate signed by a CA the system does not know', () => {
  it('without the CA: exit 7, naming the CA to trust, and no request reaches the server', async () => {
    const api = await httpsQuotes();
    const run = await runCli(['quotes', 'EURUSD'], { env: quotesEnv(api.url) });
    expect(run.code).toBe(7);
    expect(run.stderr).toMatch(/^error: certificate signed by an unknown authority\b.*\(GET https:\/\/127\.0\.0\.1:\d+\/v1\/market\/quotes\)\n/);
    expect(run.stderr).toMatch(/\nhint: .*the CA \(PEM\) that issued 127\.0\.0\.1's certificate/);
    expect(api.requests).toHaveLength(0);
  });

  it.each([
    ['--ca-file', (file: string) => ({ argv: ['--ca-file', file], env: {} })],
    ['MKT_CA_FILE', (file: string) => ({ argv: [], env: { MKT_CA_FILE: file } })],
  ])('with %s: succeeds', async (_name, setting) => {
    const api = await httpsQuotes();
    const { argv, env } = setting(certificates().caFile);
    const run = await runCli(['quotes', 'EURUSD', ...argv], { env: quotesEnv(api.url, env) });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('EURUSD');
    expect(api.requests).toHaveLength(1);
  });

  it('with --ca-file, by host name (localhost is in the certificate)', async () => {
    const api = await httpsQuotes();
    const run = await runCli(['quotes', 'EURUSD', '--ca-file', certificates().caFile], { env: quotesEnv(`https://localhost:${api.port}`) });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
  });

  it('login over TLS with --ca-file', async () => {
    const api = await server((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(TOKEN_RESPONSE), { tls: certificates() });
    const run = await runCli(['login', '--ca-file', certificates().caFile], { env: { MKT_BASE_URL: api.url, MKT_API_KEY: API_KEY, MKT_ORG: 'org_demo' } });
    expect(run.stderr).toContain('Logged in to https://127.0.0.1:');
    expect(run.code).toBe(0);
  });

  it('--ca-file wins over MKT_CA_FILE', async () => {
    const api = await httpsQuotes();
    const run = await runCli(['quotes', 'EURUSD', '--ca-file', certificates().caFile], { env: quotesEnv(api.url, { MKT_CA_FILE: '/nonexistent/ca.pem' }) });
    expect(run.code).toBe(0);
  });
});

describe('an unusable CA file: exit 2 before any connection', () => {
  it.each([
    ['a missing file', () => ({ file: path.join(certificates().dir, 'missing.pem'), message: /cannot read the CA file .*missing\.pem \(from --ca-file\)/ })],
    ['a file without a certificate', () => {
      const file = path.join(certificates().dir, 'not-a-cert.pem');
      fs.writeFileSync(file, 'hello\n');
      return { file, message: /not-a-cert\.pem \(from --ca-file\) holds no PEM certificate/ };
    }],
  ])('%s', async (_name, make) => {
    const api = await httpsQuotes();
    const { file, message } = make();
    const run = await runCli(['quotes', 'EURUSD', '--ca-file', file], { env: quotesEnv(api.url) });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(api.requests).toHaveLength(0);
  });
});

describe('other TLS failures name their cause', () => {
  it('https:// to a server that speaks plain http: exit 7', async () => {
    const api = await server((req, res) => sendQuotes(req, res));
    const run = await runCli(['quotes', 'EURUSD'], { env: quotesEnv(`https://127.0.0.1:${api.port}`) });
    expect(run.code).toBe(7);
    expect(run.stderr).toMatch(/^error: TLS handshake with 127\.0\.0\.1:\d+ failed/);
    expect(run.stderr).toContain('hint: check the scheme: http:// or https://');
  });

  it('a certificate for another host name: exit 7', async () => {
    // quotes.test resolves only at the proxy; the certificate is for localhost and 127.0.0.1.
    const api = await httpsQuotes();
    const proxy = closeLater(await startForwardProxy({ hosts: { [`quotes.test:${api.port}`]: `127.0.0.1:${api.port}` } }));
    const run = await runCli(['quotes', 'EURUSD', '--ca-file', certificates().caFile], {
      env: quotesEnv(`https://quotes.test:${api.port}`, { HTTPS_PROXY: proxy.url }),
    });
    expect(run.code).toBe(7);
    expect(run.stderr).toMatch(/^error: the server's certificate does not match quotes\.test/);
    expect(api.requests).toHaveLength(0);
  });
});
