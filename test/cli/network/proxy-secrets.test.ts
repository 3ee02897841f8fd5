// Proxy credentials are secrets (issue 19, item 4): never in an error or under --verbose, whether
// mkt words the proxy URL itself or a proxy echoes the request back; a proxy URL that cannot be
// used is exit 2 naming the variable, without its password.
import { describe, expect, it } from 'vitest';
import { sendQuotes, useServers } from '../../helpers/fault-server.js';
import { startForwardProxy } from './forward-proxy.js';
import { quotesEnv } from '../../helpers/quotes-env.js';
import { runCli } from '../../helpers/cli.js';

const { start: server, closeLater } = useServers();

const PASSWORD = 'PROXY_pw_5e0c1b';
const BASIC = Buffer.from(`alice:${PASSWORD}`).toString('base64');
const noWait = async () => {};

describe('a proxy URL that cannot be used: exit 2, naming the variable, never the password', () => {
  it.each([
    ['an unencoded / in the password', `http://alice:${PASSWORD}/x@127.0.0.1:3128`, 'it cannot be parsed'],
    ['a bad %-escape in the password', `http://alice:${PASSWORD}%zz@127.0.0.1:3128`, 'a bad %-escape in its user name or password'],
    ['a bad %-escape in the user name', `http://al%zzice:${PASSWORD}@127.0.0.1:3128`, 'a bad %-escape in its user name or password'],
  ])('%s', async (_what, value, why) => {
    for (const name of ['HTTPS_PROXY', 'http_proxy']) {
      const run = await runCli(['quotes', 'EURUSD', '--verbose'], { env: quotesEnv('https://api.example.test', { [name]: value }) });
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(new RegExp(`^error: ${name} is not a valid proxy URL \\(${why.replace(/[()]/g, '\\$&')}\\): "http://\\[redacted\\]@127\\.0\\.0\\.1:3128"\\n`));
      expect(run.stderr).not.toContain('internal error');
      expect(run.stderr + run.stdout).not.toContain(PASSWORD);
      expect(run.stdout).toBe('');
    }
  });
});

describe('a proxy that echoes the request in a 502', () => {
  it.each([[[]], [['--verbose']]])('%j: Proxy-Authorization reaches the proxy, never the output', async (flags) => {
    const api = await server((req, res) => sendQuotes(req, res));
    const echo = closeLater(await startForwardProxy({ echoIn502: true }));
    const proxyUrl = echo.url.replace('http://', `http://alice:${PASSWORD}@`);
    const run = await runCli(['quotes', 'EURUSD', ...flags], {
      env: quotesEnv(`http://proxied.test:${api.port}`, { HTTP_PROXY: proxyUrl, MKT_ALLOW_INSECURE_HTTP: '1' }), sleep: noWait,
    });
    expect(run.code).toBe(7);
    expect(echo.seen[0]!.headers['proxy-authorization']).toBe(`Basic ${BASIC}`);
    expect(run.stderr).toContain('502');
    expect(run.stderr + run.stdout).not.toContain(BASIC);
    expect(run.stderr + run.stdout).not.toContain(PASSWORD);
  });
});
