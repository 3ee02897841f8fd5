// `mkt mcp` as a process, spoken to in JSON-RPC lines: a call under way when the client closes
// stdin is answered, then exit 0, and only the protocol was on stdout (with -v, the request lines
// go to stderr, the token redacted); SIGTERM and SIGINT end it with exit 0, the call under way aborted and
// its connection closed; settings every call would refuse are refused before serving (exit 2).
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { baseEnv, mkt, runBin } from '../../helpers/bin.js';
import { tempDir } from '../../helpers/cli.js';
import { startFaultServer, type FaultServer } from '../../helpers/fault-server.js';
import { quote, quotesJson } from '../../helpers/quotes.js';

const TOKEN = 'tok-mcp-process-0123456789';

interface Server {
  child: ChildProcess;
  /** Each line written on stdout, parsed. */
  lines: unknown[];
  stdout(): string;
  stderr(): string;
  send(message: object): void;
  /** Resolves with the answer to request `id`. */
  answer(id: number): Promise<{ result?: { isError?: boolean; structuredContent?: unknown }; error?: { code: number; message: string } }>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const started: ChildProcess[] = [];
const services: FaultServer[] = [];
afterEach(async () => {
  for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await Promise.all(services.splice(0).map((service) => service.close()));
});

function startServer(env: Record<string, string>, args: string[] = []): Server {
  const child = spawn(...mkt(['mcp', ...args]), { env: baseEnv({ MKT_CONFIG_DIR: path.join(tempDir(), 'cfg'), ...env }), stdio: ['pipe', 'pipe', 'pipe'] });
  started.push(child);
  let stdout = '';
  let stderr = '';
  const lines: unknown[] = [];
  const waiting = new Map<number, (message: never) => void>();
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const message = JSON.parse(line) as { id?: number };
    lines.push(message);
    if (message.id !== undefined) waiting.get(message.id)?.(message as never);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return {
    child, lines, exited,
    stdout: () => stdout,
    stderr: () => stderr,
    send: (message) => child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`),
    answer: (id) => new Promise((resolve) => waiting.set(id, resolve)),
  };
}

/** initialize, and the notification that the client is ready. */
async function initialize(server: Server): Promise<void> {
  server.send({ id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
  await server.answer(0);
  server.send({ method: 'notifications/initialized' });
}

const getQuotes = (id: number) => ({ id, method: 'tools/call', params: { name: 'get_quotes', arguments: { symbols: ['EURUSD'] } } });

describe('mkt mcp as a process', () => {
  it('answers the call under way when the client closes stdin, exits 0, and writes only the protocol on stdout (-v: the requests on stderr, the token redacted)', async () => {
    let answer: (() => void) | undefined;
    const service = await startFaultServer((_req, res) => {
      answer = () => res.writeHead(200, { 'content-type': 'application/json' }).end(quotesJson([quote('EURUSD')]));
    });
    services.push(service);
    const server = startServer({ MKT_BASE_URL: service.url, MKT_TOKEN: TOKEN, MKT_ORG: 'org_demo' }, ['-v']);
    await initialize(server);
    server.send(getQuotes(1));
    await service.waitForRequests(1);
    server.child.stdin!.end();
    answer!();
    expect((await server.answer(1)).result?.structuredContent).toMatchObject({ data: [{ symbol: 'EURUSD' }] });
    expect(await server.exited).toEqual({ code: 0, signal: null });

    const written = server.stdout().split('\n').filter((line) => line !== '');
    expect(written.length).toBe(server.lines.length);
    for (const message of server.lines) expect(message).toMatchObject({ jsonrpc: '2.0' });
    expect(server.stderr()).toMatch(/GET http:\/\/127\.0\.0\.1:\d+\/v1\/market\/quotes\?symbols=EURUSD/);
    expect(server.stderr()).toContain('> authorization: Bearer [redacted]');
    expect(server.stderr() + server.stdout()).not.toContain(TOKEN);
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('ends with exit 0 on %s, the call under way aborted and its connection closed', async (signal) => {
    let closed = false;
    const service = await startFaultServer((_req, _res, context) => context.onClose(() => (closed = true)));
    services.push(service);
    const server = startServer({ MKT_BASE_URL: service.url, MKT_TOKEN: TOKEN, MKT_ORG: 'org_demo' });
    await initialize(server);
    server.send(getQuotes(1));
    await service.waitForRequests(1);
    server.child.kill(signal);
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(closed).toBe(true);
    expect(server.stderr()).toBe('');
  });

  it('answers a message over 10 MiB with -32600 and its id, drops it, answers the next, and exits 0 when stdin closes', async () => {
    const server = startServer({ MKT_BASE_URL: 'http://127.0.0.1:9', MKT_TOKEN: TOKEN, MKT_ORG: 'org_demo' });
    await initialize(server);
    const answers = [server.answer(1), server.answer(2)];
    server.child.stdin!.write(`{"method":"tools/call","params":{"name":"get_quotes","arguments":{"symbols":["${'X'.repeat(11 * 1024 * 1024)}"]}},"jsonrpc":"2.0","id":1}\n`);
    server.send({ id: 2, method: 'ping' });
    expect(await answers[0]).toMatchObject({ error: { code: -32600, message: expect.stringContaining('over the 10 MiB mkt mcp reads in one') } });
    expect(await answers[1]).toMatchObject({ result: {} });
    server.child.stdin!.end();
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(server.stderr()).toMatch(/^warning: mkt mcp: Invalid Request: the message is 11,534,\d{3} bytes, over the 10 MiB mkt mcp reads in one; it was dropped unread\n$/);
  });

  it('refuses before serving a setting every call would refuse (exit 2), and nothing is written on stdout', async () => {
    const result = await runBin(['mcp', '--timeout', 'soon'], { env: { MKT_CONFIG_DIR: path.join(tempDir(), 'cfg') } });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('error: --timeout must be a duration');
  });
});
