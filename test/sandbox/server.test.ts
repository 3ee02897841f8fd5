// startSandbox and createSandboxHandler as a library: addresses, option checking, closing, and the
// safety net for the unexpected.
import http from 'node:http';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { createSandboxHandler, SandboxConfigError, startSandbox, type Sandbox, type StartSandboxOptions } from '../../src/sandbox/index.js';
import { useServers } from '../helpers/fault-server.js';
import { envelopeCode, getQuotes, getToken, postJson } from '../helpers/sandbox.js';

const { closeLater } = useServers();

async function start(options: StartSandboxOptions = {}): Promise<Sandbox> {
  const sandbox = await startSandbox({ port: 0, ...options });
  closeLater(sandbox);
  return sandbox;
}

describe('startSandbox', () => {
  it('listens on 127.0.0.1 by default and reports its URL and port', async () => {
    const sandbox = await start();
    expect(sandbox.host).toBe('127.0.0.1');
    expect(sandbox.port).toBeGreaterThan(0);
    expect(sandbox.url).toBe(`http://127.0.0.1:${sandbox.port}`);
    expect((sandbox.server.address() as net.AddressInfo).address).toBe('127.0.0.1');
    expect((await fetch(`${sandbox.url}/nowhere`)).status).toBe(404);
  });

  it('rejects with EADDRINUSE when the port is taken', async () => {
    const first = await start();
    await expect(startSandbox({ port: first.port })).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });

  it('closes promptly with keep-alive connections open, and close() can be called twice', async () => {
    // Long timeouts, so that a close() waiting for the idle connection would take a minute.
    const sandbox = await start({ headersTimeoutMs: 60_000, requestTimeoutMs: 60_000 });
    const agent = new http.Agent({ keepAlive: true });
    await new Promise<void>((resolve, reject) => {
      http.get(`${sandbox.url}/nowhere`, { agent }, (response) => {
        response.resume();
        response.on('end', resolve);
      }).on('error', reject);
    });
    // An idle connection that has not even sent a request.
    const idle = net.connect(sandbox.port, '127.0.0.1');
    await new Promise((resolve) => idle.once('connect', resolve));
    const ended = new Promise((resolve) => idle.once('close', resolve));
    // A close() that waited for the idle connection would outlast the test's timeout; the connection
    // is ended by the server, not by its timeouts. No duration is asserted.
    await sandbox.close();
    await sandbox.close();
    await ended;
    agent.destroy();
    idle.destroy();
  });

  it.each<[string, StartSandboxOptions, RegExp]>([
    ['a negative port', { port: -1 }, /port/],
    ['a port above 65535', { port: 65_536 }, /port/],
    ['a fractional port', { port: 1.5 }, /port/],
    ['an empty host', { host: '' }, /host/],
    ['a zero token TTL', { tokenTtlSeconds: 0 }, /token TTL/],
    ['a zero per-minute limit', { limits: { perMinute: 0 } }, /per-minute/],
    ['a negative per-hour limit', { limits: { perHour: -5 } }, /per-hour/],
    ['a fractional per-day limit', { limits: { perDay: 2.5 } }, /per-day/],
    ['a NaN max symbols', { maxSymbols: Number.NaN }, /max symbols/],
    ['too many synthetic symbols', { synthetic: 100_000 }, /synthetic/],
    ['a fractional seed', { seed: 0.5 }, /seed/],
    ['a client clashing with demo', { clients: [{ client_id: 'demo', client_secret: 'x', orgs: ['org_x'], scopes: [] }] }, /built-in/],
    ['a client id with a dot', { clients: [{ client_id: 'a.b', client_secret: 'x', orgs: ['org_x'], scopes: [] }] }, /client_id/],
    ['a zero headers timeout', { headersTimeoutMs: 0 }, /headersTimeoutMs/],
  ])('refuses %s with a SandboxConfigError', async (_name, options, pattern) => {
    const attempt = startSandbox({ port: 0, ...options });
    await expect(attempt).rejects.toBeInstanceOf(SandboxConfigError);
    await expect(attempt).rejects.toThrow(pattern);
  });

  it('answers 500 INTERNAL without details when something unexpected throws, and keeps serving', async () => {
    const errors: unknown[] = [];
    let failing = false;
    const sandbox = await start({
      now: () => {
        if (failing) throw new Error('clock exploded at /secret/path');
        return Date.now();
      },
      onError: (error) => errors.push(error),
    });
    const token = await getToken(sandbox.url);
    failing = true;
    const broken = await getQuotes(sandbox.url, token, 'symbols=EURUSD');
    expect(broken.status).toBe(500);
    expect(envelopeCode(broken.json)).toBe('INTERNAL');
    expect(broken.text).not.toContain('exploded');
    expect(broken.text).not.toContain('/secret/path');
    const brokenLogin = await postJson(`${sandbox.url}/v1/auth/token`, { client_id: 'demo', client_secret: 'demo-secret', grant_type: 'client_credentials' });
    expect(brokenLogin.status).toBe(500);
    expect(errors).toHaveLength(2);
    failing = false;
    expect((await getQuotes(sandbox.url, token, 'symbols=EURUSD')).status).toBe(200);
  });
});

describe('createSandboxHandler', () => {
  it('mounts on a node:http server of your own', async () => {
    const server = http.createServer(createSandboxHandler({ seed: 3 }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closeLater({ close: () => new Promise<void>((resolve) => { server.close(() => resolve()); server.closeAllConnections(); }) });
    const url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
    const token = await getToken(url);
    expect((await getQuotes(url, token, 'symbols=EURUSD')).status).toBe(200);
  });

  it('checks its options when created', () => {
    expect(() => createSandboxHandler({ maxSymbols: 0 })).toThrow(SandboxConfigError);
  });
});

describe('closing after a malformed request', () => {
  it('does not wait for a connection that is lingering after an error answer', async () => {
    const sandbox = await start();
    const socket = net.connect(sandbox.port, '127.0.0.1');
    const answer = new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk.toString('latin1');
        if (text.includes('\r\n\r\n')) resolve(text);
      });
    });
    socket.on('error', () => {});
    socket.write('HELLO\r\n\r\n');
    expect(await answer).toMatch(/^HTTP\/1\.1 400 /);
    const ended = new Promise((resolve) => socket.once('close', resolve));
    // The lingering connection would hold close() for its timeouts, past the test's own: the server
    // ends it. No duration is asserted.
    await sandbox.close();
    await ended;
  });
});
