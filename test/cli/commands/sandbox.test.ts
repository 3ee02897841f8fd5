// `mkt sandbox` in-process through main: the first line, the credentials, clean stop on the
// interrupt signal, and flag errors as usage errors (exit 2) without a stack trace.
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.js';
import { useServers } from '../../helpers/fault-server.js';
import { createTestDeps, runCli } from '../../helpers/cli.js';
import { getQuotes, getToken, waitFor } from '../../helpers/sandbox.js';

const { closeLater } = useServers();

describe('mkt sandbox', () => {
  it('prints the base URL first, then the demo credentials and commands, serves, and stops on the signal with exit 0', async () => {
    const controller = new AbortController();
    const test = createTestDeps({ signal: controller.signal });
    const running = main(['sandbox', '--port', '0', '--seed', '9', '--per-minute', '5'], test.deps);
    await waitFor(() => test.stdout().includes('mkt quotes EURUSD AAPL'));
    const lines = test.stdout().split('\n');
    expect(lines[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const url = lines[0]!;
    expect(test.stdout()).toContain(`export MKT_BASE_URL=${url}\n`);
    expect(test.stdout()).toContain('MKT_API_KEY=demo.demo-secret mkt login --org org_demo');
    expect(test.stdout()).toContain('demo-secret');
    const response = await getQuotes(url, await getToken(url), 'symbols=EURUSD');
    expect(response.status).toBe(200);
    expect(response.headers.get('ratelimit-limit')).toBe('5');
    controller.abort();
    expect(await running).toBe(0);
    await expect(fetch(`${url}/v1/market/quotes`)).rejects.toThrow();
  });

  it.each([
    [['--port', 'abc'], /--port must be a whole number, not "abc"/],
    [['--port', '70000'], /--port must be/],
    [['--port', '1.5'], /--port must be/],
    [['--per-minute', '-1'], /--per-minute must be a whole number, not "-1"/],
    [['--per-hour', '0'], /--per-hour must be/],
    [['--per-day', '1e3'], /--per-day must be/],
    [['--token-ttl', '0'], /--token-ttl must be/],
    [['--tokens-per-minute', '0'], /--tokens-per-minute must be/],
    [['--ready-file', ' '], /--ready-file must not be empty/],
    [['--max-symbols', 'many'], /--max-symbols must be/],
    [['--seed', '1.5'], /--seed must be/],
    [['--synthetic', '100000'], /--synthetic must be between 0 and 99999, not 100000/],
    [['--host', ' '], /--host must not be empty/],
    [['--clients', '/nonexistent/clients.json'], /cannot read clients file \/nonexistent\/clients\.json/],
  ])('refuses %j as a usage error (exit 2)', async (flags, pattern) => {
    const result = await runCli(['sandbox', '--port', '0', ...flags]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(pattern);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.stdout).toBe('');
  });

  it('turns a taken port into a usage error that suggests --port 0', async () => {
    const blocker = net.createServer();
    closeLater({ close: () => new Promise<void>((resolve) => blocker.close(() => resolve())) });
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    const result = await runCli(['sandbox', '--port', String(port)]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
    expect(result.stderr).toContain('--port 0');
  });
});
