// startSandbox: the sandbox on its own node:http server, with the socket-level failures that never
// reach a request listener (malformed HTTP, oversized headers, timeouts, CONNECT) answered in the
// same JSON envelope, and timeouts that stop slow clients from holding connections.
import http, { type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { SandboxConfigError } from './config-error.js';
import { createContext } from './context.js';
import { ERROR_STATUS, rawErrorResponse, Reject, type ErrorCode } from './errors.js';
import { createRequestListener, logRequest, rejectRequest } from './handler.js';
import { clearReadyFile, readyFileContent, removeReadyFile, writeReadyFile, type WrittenFile } from './ready-file.js';
import type { SandboxOptions } from './options.js';

export interface StartSandboxOptions extends SandboxOptions {
  /** Interface to listen on (default 127.0.0.1: the sandbox is not meant to be reachable from elsewhere). */
  host?: string;
  /** Port (default 4010); 0 picks a free one. */
  port?: number;
  /** Time allowed to send the request headers (default 10 s). */
  headersTimeoutMs?: number;
  /** Time allowed to send the whole request (default 30 s). */
  requestTimeoutMs?: number;
  /**
   * Written once listening, atomically, with the URL and this process's PID as shell assignments
   * (`MKT_BASE_URL=…`, `MKT_SANDBOX_PID=…`); removed before listening and again by close().
   */
  readyFile?: string;
}

export interface Sandbox {
  /** Base URL, e.g. http://127.0.0.1:4010 (a wildcard host is reported as the loopback address). */
  url: string;
  port: number;
  host: string;
  close(): Promise<void>;
  server: Server;
}

export const DEFAULT_PORT = 4010;
export const DEFAULT_HOST = '127.0.0.1';
const MAX_HEADER_BYTES = 16 * 1024;
const LINGER_MS = 2_000;

function timeout(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1) throw new SandboxConfigError(`${name} must be a positive integer of milliseconds`);
  return value;
}

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

function clientErrorCode(code: string | undefined): [ErrorCode, string] {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return ['REQUEST_HEADER_FIELDS_TOO_LARGE', `request line and headers are larger than ${MAX_HEADER_BYTES / 1024} KiB`];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'HPE_HEADERS_TIMEOUT':
      return ['REQUEST_TIMEOUT', 'the request was not received in time'];
    case 'HPE_INVALID_EOF_STATE':
      return ['INVALID_REQUEST', 'malformed HTTP request: the connection ended in the middle of the request'];
    case 'HPE_INVALID_METHOD':
      return ['INVALID_REQUEST', 'malformed HTTP request: unknown method'];
    case 'HPE_INVALID_HEADER_TOKEN':
    case 'HPE_LF_EXPECTED':
    case 'HPE_CR_EXPECTED':
      return ['INVALID_REQUEST', 'malformed HTTP request: invalid header'];
    default:
      return ['INVALID_REQUEST', 'malformed HTTP request'];
  }
}

export async function startSandbox(options: StartSandboxOptions = {}): Promise<Sandbox> {
  const host = options.host ?? DEFAULT_HOST;
  const port = options.port ?? DEFAULT_PORT;
  if (typeof host !== 'string' || host === '') throw new SandboxConfigError('host must be a non-empty string');
  if (!Number.isSafeInteger(port) || port < 0 || port > 65_535) throw new SandboxConfigError(`port must be an integer from 0 to 65535, got ${String(port)}`);
  const headersTimeout = timeout('headersTimeoutMs', options.headersTimeoutMs, 10_000);
  const requestTimeout = Math.max(headersTimeout, timeout('requestTimeoutMs', options.requestTimeoutMs, 30_000));
  const ctx = createContext(options);
  const { readyFile } = options;
  if (readyFile !== undefined && (typeof readyFile !== 'string' || readyFile === '')) throw new SandboxConfigError('readyFile must be a non-empty path');
  if (readyFile !== undefined) await clearReadyFile(readyFile);

  const server = http.createServer(
    {
      keepAlive: true,
      // Longer than common clients' idle timeouts (undici: 4 s), so the server is not the side that
      // closes a connection a client is about to reuse.
      keepAliveTimeout: 5_000,
      headersTimeout,
      requestTimeout,
      // Node checks the two timeouts above on this interval (default 30 s, too coarse for them).
      connectionsCheckingInterval: Math.min(1_000, headersTimeout),
      maxHeaderSize: MAX_HEADER_BYTES,
      // Node would answer a missing Host with a bare 400; the sandbox does not need Host at all.
      requireHostHeader: false,
      noDelay: true,
    },
    createRequestListener(ctx),
  );

  // Answers written straight to the socket have no request to speak of: no method, path or client.
  const logSocketAnswer = (code: ErrorCode, requestId: string) => {
    if (ctx.options.onRequest === undefined) return;
    logRequest(ctx, { time: ctx.now(), method: undefined, path: undefined, status: ERROR_STATUS[code], clientId: undefined, durationMs: 0, requestId });
  };
  const answered = new WeakSet<Duplex>();
  const lingering = new Set<Duplex>();
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // Node reports every later chunk of a connection it can no longer parse; one answer is enough.
    if (answered.has(socket)) return;
    // Nothing can be answered on a dead socket, or while an earlier response is still being written.
    const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || (inFlight?.headersSent === true && !inFlight.writableFinished)) {
      socket.destroy();
      return;
    }
    answered.add(socket);
    const [code, message] = clientErrorCode(error.code);
    const requestId = ctx.nextRequestId();
    socket.end(rawErrorResponse(code, message, requestId));
    logSocketAnswer(code, requestId);
    // Close gently: destroying the socket while the client is still sending makes the kernel answer
    // with a reset, which can discard the response before the client reads it. Give it a moment.
    const linger = setTimeout(() => socket.destroy(), LINGER_MS);
    linger.unref();
    lingering.add(socket);
    socket.once('close', () => {
      clearTimeout(linger);
      lingering.delete(socket);
    });
  });
  // Node answers an unknown Expect with a bare 417; give it the envelope.
  server.on('checkExpectation', (req, res: ServerResponse) => {
    rejectRequest(ctx, req, res, new Reject('EXPECTATION_FAILED', 'only "Expect: 100-continue" is supported', { close: true }));
  });
  // Without a listener Node drops CONNECT requests silently.
  server.on('connect', (_req, socket: Duplex) => {
    if (!socket.writable) return socket.destroy();
    const requestId = ctx.nextRequestId();
    socket.end(rawErrorResponse('METHOD_NOT_ALLOWED', 'CONNECT is not supported', requestId));
    logSocketAnswer('METHOD_NOT_ALLOWED', requestId);
  });

  await new Promise<void>((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  // Errors after start (e.g. EMFILE on accept) are reported, not thrown at the event loop.
  server.on('error', (error) => ctx.options.onError(error));

  const address = server.address() as AddressInfo;
  const url = `http://${urlHost(host)}:${address.port}`;
  const ready = readyFileContent(url, process.pid);
  let written: WrittenFile | undefined;
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= new Promise<void>((resolve, reject) => {
      server.close((error) => (error ? reject(error) : resolve()));
      // Keep-alive connections would otherwise hold close() open until they idle out.
      server.closeAllConnections();
      for (const socket of lingering) socket.destroy();
    }).finally(() => (readyFile === undefined || written === undefined ? undefined : removeReadyFile(readyFile, written)));
    return closing;
  };
  if (readyFile !== undefined) {
    try {
      written = await writeReadyFile(readyFile, ready);
    } catch (error) {
      await close();
      throw error;
    }
  }
  return { url, port: address.port, host, server, close };
}
