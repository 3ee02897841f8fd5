// Issue 19, item 12 (the last part): an unsolicited `100 Continue` before the answer is skipped, as
// RFC 9110 §15.2 asks of a client, instead of failing each attempt as a connection reset (exit 7).
// A raw TCP server writes the answers byte for byte, in one write or split where a reader could
// trip: inside the 100's status line, before its empty line, between the 100 and the 200.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import tls from 'node:tls';
import { afterEach, describe, expect, it } from 'vitest';
import { startForwardProxy } from './forward-proxy.js';
import { runBin } from '../../helpers/bin.js';
import { runCli, tempDir } from '../../helpers/cli.js';
import { useTestCertificates, type TestCertificates } from '../../helpers/tls.js';

const QUOTES = '{"data":[{"symbol":"EURUSD","bid":1.10005,"ask":1.10007,"mid":1.10006,"timestamp":"2026-11-24T12:00:00Z"}]}';
const OK = `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(QUOTES)}\r\n\r\n${QUOTES}`;
const CONTINUE = 'HTTP/1.1 100 Continue\r\n\r\n';

/**
 * Between two writes: a few turns of the event loop, which the client (in this process, or a child
 * on the same machine's loopback) uses to read the first write on its own. Turns, not a timer.
 */
const BREAK = Symbol('a break between writes');
const turns = async (count = 10) => {
  for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve));
};

interface RawServer {
  url: string;
  port: number;
  /** The request line of each request, in order. */
  requests: string[];
  /** Connections accepted. */
  connections: number;
  close(): Promise<void>;
}

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

/** Answers each request (mkt's are GETs: a head, no body) with `answer`'s writes, in order; over TLS with `certificates`. */
async function rawServer(answer: Array<string | typeof BREAK>, certificates?: TestCertificates): Promise<RawServer> {
  const sockets = new Set<net.Socket>();
  const state = { requests: [] as string[], connections: 0 };
  const onConnection = (socket: net.Socket) => {
    state.connections++;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let pending = '';
    let answering = Promise.resolve();
    socket.on('data', (chunk: Buffer) => {
      pending += chunk.toString('latin1');
      for (let end = pending.indexOf('\r\n\r\n'); end !== -1; end = pending.indexOf('\r\n\r\n')) {
        state.requests.push(pending.slice(0, pending.indexOf('\r\n')));
        pending = pending.slice(end + 4);
        answering = answering.then(async () => {
          for (const part of answer) {
            if (part === BREAK) await turns();
            else await new Promise<void>((resolve) => socket.write(part, 'latin1', () => resolve()));
          }
        });
      }
    });
  };
  const server = certificates
    ? tls.createServer({ key: certificates.key, cert: certificates.cert }, onConnection).on('tlsClientError', () => {})
    : net.createServer(onConnection);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  const raw: RawServer = {
    url: `${certificates ? 'https' : 'http'}://127.0.0.1:${port}`,
    port,
    get requests() {
      return state.requests;
    },
    get connections() {
      return state.connections;
    },
    close: () => new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    }),
  };
  open.push(raw);
  return raw;
}

const certificates = useTestCertificates();
const env = (url: string) => ({ MKT_BASE_URL: url, MKT_TOKEN: 'tok-test', MKT_ORG: 'org_demo' });

describe('an unsolicited 100 Continue before the answer', () => {
  it.each<[string, Array<string | typeof BREAK>]>([
    ['in the same write as the 200', [CONTINUE + OK]],
    ['without a reason phrase', ['HTTP/1.1 100\r\n\r\n' + OK]],
    ['split inside its status line', ['HTTP/1.1 10', BREAK, `0 Continue\r\n\r\n${OK}`]],
    ['split before its empty line', ['HTTP/1.1 100 Continue\r\n', BREAK, `\r\n${OK}`]],
    ['and the 200 in separate writes', [CONTINUE, BREAK, OK]],
    ['followed by a 200 split before its status code', [`${CONTINUE}HTTP/1.1 `, BREAK, OK.slice('HTTP/1.1 '.length)]],
    ['twice, the second with a header field', [`${CONTINUE}HTTP/1.1 100 Continue\r\nx-progress: 1\r\n\r\n${OK}`]],
    ['twice, each in its own write', [CONTINUE, BREAK, CONTINUE, BREAK, OK]],
  ])('%s is skipped', async (_name, answer) => {
    const server = await rawServer(answer);
    const result = await runCli(['quotes', 'EURUSD', '--format', 'tsv'], { env: env(server.url) });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^EURUSD\t1\.10005\t1\.10007\t1\.10006\t/m);
    expect(server.requests).toEqual(['GET /v1/market/quotes?symbols=EURUSD HTTP/1.1']);
  });

  it('is skipped before each answer on a kept-alive connection (--watch --count 2)', async () => {
    const server = await rawServer([CONTINUE, BREAK, OK]);
    // The watch's waits are a few turns of the event loop, no time: enough for the first poll's
    // connection to be free again, so that the second poll is sent on it.
    const result = await runCli(['quotes', 'EURUSD', '--watch', '--count', '2', '--interval', '1s'], {
      env: env(server.url), sleep: () => turns(),
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split('\n')).toHaveLength(2);
    expect(server.requests).toHaveLength(2);
    expect(server.connections).toBe(1);
  });

  it('is skipped over TLS', async () => {
    const server = await rawServer([CONTINUE, BREAK, OK], certificates());
    const result = await runCli(['quotes', 'EURUSD', '--format', 'tsv', '--ca-file', certificates().caFile], { env: env(server.url) });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^EURUSD\t1\.10005\t/m);
  });

  it('is skipped through an HTTPS_PROXY tunnel', async () => {
    const server = await rawServer([CONTINUE, BREAK, OK], certificates());
    // Loopback is never proxied: the service is proxied.test, a name only the proxy resolves.
    const proxy = await startForwardProxy({ hosts: { [`proxied.test:${server.port}`]: `127.0.0.1:${server.port}` } });
    open.push(proxy);
    const result = await runCli(['quotes', 'EURUSD', '--format', 'tsv', '--ca-file', certificates().caFile], {
      env: { ...env(`https://proxied.test:${server.port}`), HTTPS_PROXY: proxy.url },
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^EURUSD\t1\.10005\t/m);
    expect(proxy.seen.map((seen) => seen.line)).toEqual([`CONNECT proxied.test:${server.port}`]);
  });

  it('is skipped by the built bin (exit 0, not 7)', async () => {
    const server = await rawServer([CONTINUE, BREAK, OK]);
    const dir = tempDir();
    try {
      const result = await runBin(['quotes', 'EURUSD', '--format', 'tsv'], { env: { ...env(server.url), MKT_CONFIG_DIR: path.join(dir, 'cfg') } });
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/^EURUSD\t1\.10005\t/m);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
