// The suite's purpose-built servers: real sockets on 127.0.0.1, port 0, answering as each test
// scripts them, including on purpose badly (cut connections, silence, trickles, huge bodies). Each
// records what it saw, so a test can assert on requests that must (or must never) arrive, and
// close() tears down every connection, including the ones a handler left hanging on purpose.
// useServers() closes them after each test. The one module for such servers: add to it.
import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach } from 'vitest';
import type { Quote } from '../../src/api/types.js';
import { quote, quotesJson } from './quotes.js';

interface SeenRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers: IncomingHttpHeaders;
  /** The body as text ('' with passThrough, which leaves it unread). */
  body: string;
  /** Date.now() when the request had fully arrived. */
  at: number;
}

interface HandlerContext {
  /** 0 for the first request this server sees. */
  index: number;
  body: string;
  /** What was sent, as recorded in `requests`. */
  request: SeenRequest;
  /** Called when the connection closes, however that happens (for handlers that keep writing). */
  onClose(callback: () => void): void;
}

export type FaultHandler = (req: IncomingMessage, res: ServerResponse, context: HandlerContext) => unknown;

export interface FaultServer {
  /** http://127.0.0.1:<port> (https:// with tls). */
  url: string;
  port: number;
  requests: SeenRequest[];
  /** Resolves once `count` requests have arrived; rejects after `timeoutMs`. */
  waitForRequests(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export interface FaultServerOptions {
  /** Serve https with this key and certificate. */
  tls?: { key: string; cert: string };
  /** A fixed port (default 0: any free one). */
  port?: number;
  /** Hand the request to the handler unread (for mounting another listener); the body is not recorded. */
  passThrough?: boolean;
}

export async function startFaultServer(handler: FaultHandler, options: FaultServerOptions = {}): Promise<FaultServer> {
  const requests: SeenRequest[] = [];
  const sockets = new Set<Socket>();
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const arrived = (req: IncomingMessage, res: ServerResponse, body: string) => {
    const index = requests.length;
    const request: SeenRequest = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, at: Date.now() };
    requests.push(request);
    for (const waiter of waiters.filter((w) => requests.length >= w.count)) waiter.resolve();
    const context: HandlerContext = { index, body, request, onClose: (callback) => req.socket.once('close', callback) };
    Promise.resolve(handler(req, res, context)).catch((error: unknown) => {
      res.destroy(error instanceof Error ? error : new Error(String(error)));
    });
  };
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    if (options.passThrough) return arrived(req, res, '');
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => arrived(req, res, Buffer.concat(chunks).toString('utf8')));
  };
  const server = options.tls ? https.createServer({ key: options.tls.key, cert: options.tls.cert }, listener) : http.createServer(listener);
  // A TLS server sees its sockets on 'secureConnection'; 'connection' gives the raw TCP one.
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  // Handshakes the client aborts (an unknown CA) are expected; they are not server failures.
  server.on('tlsClientError', () => {});
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    port,
    requests,
    waitForRequests(count, timeoutMs = 10_000) {
      if (requests.length >= count) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the server saw ${requests.length} of ${count} requests within ${timeoutMs} ms`)), timeoutMs);
        waiters.push({ count, resolve: () => {
          clearTimeout(timer);
          resolve();
        } });
      });
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * For handlers that need only what was sent: `respond` gets the recorded request (body read), the
 * response, and the raw request.
 */
export type Responder = (request: SeenRequest, res: ServerResponse, raw: IncomingMessage) => void;

export function startScriptedServer(respond: Responder, options: FaultServerOptions = {}): Promise<FaultServer> {
  return startFaultServer((req, res, { request }) => respond(request, res, req), options);
}

/** Answers with a fixed status, headers and body text. */
export function reply(status: number, body: string, headers: Record<string, string> = { 'content-type': 'application/json' }): Responder {
  return (_request, res) => {
    res.writeHead(status, headers);
    res.end(body);
  };
}

export interface Servers {
  /** A fault server, closed after this test. */
  start(handler: FaultHandler, options?: FaultServerOptions): Promise<FaultServer>;
  /** startScriptedServer's, closed after this test. */
  script(respond: Responder, options?: FaultServerOptions): Promise<FaultServer>;
  /** A server answering every request with `status` and the JSON `body`, closed after this test. */
  answering(status: number, body: string): Promise<FaultServer>;
  /** Anything else with a close() (proxies, sandboxes, agents), closed after this test. */
  closeLater<T extends { close(): Promise<void> }>(thing: T): T;
}

/** Call once at the top of a test file (or of a describe block): what it starts is closed after each test there. */
export function useServers(): Servers {
  const open: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((thing) => thing.close()));
  });
  const closeLater = <T extends { close(): Promise<void> }>(thing: T): T => {
    open.push(thing);
    return thing;
  };
  const start = async (handler: FaultHandler, options?: FaultServerOptions) => closeLater(await startFaultServer(handler, options));
  return {
    start,
    closeLater,
    script: async (respond, options) => closeLater(await startScriptedServer(respond, options)),
    answering: (status, body) => start((_req, res) => res.writeHead(status, { 'content-type': 'application/json' }).end(body)),
  };
}

/** A valid quotes body for `symbols` (prices are made up and exact, the time is now). */
export function quotesBody(symbols: readonly string[]): string {
  const timestamp = new Date().toISOString();
  return JSON.stringify({ data: symbols.map((symbol) => quote(symbol, '1.08505', '1.08515', '1.08510', timestamp)) });
}

/** The symbols asked for in a quotes request's query. */
export function symbolsOf(req: IncomingMessage): string[] {
  const query = new URL(req.url ?? '/', 'http://x').searchParams.get('symbols');
  return query ? query.split(',') : [];
}

/** Answers a quotes request with 200 and a quote for each symbol asked for. */
export function sendQuotes(req: IncomingMessage, res: ServerResponse, headers: Record<string, string> = {}): void {
  const body = quotesBody(symbolsOf(req));
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

/** A JSON error in the common envelope. */
export function sendError(res: ServerResponse, status: number, code: string, headers: Record<string, string> = {}): void {
  const body = JSON.stringify({ error: { code, message: `fault server says ${code}` } });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

/**
 * Writes `chunk` every `everyMs` until the connection closes or `max` writes are done, whichever is
 * first (every loop in this suite is bounded).
 */
export function trickle(socket: Socket, chunk: string, everyMs: number, max = 200): void {
  let writes = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || writes++ >= max) {
      clearInterval(timer);
      return;
    }
    socket.write(chunk);
  }, everyMs);
  socket.once('close', () => clearInterval(timer));
}

/**
 * Streams `total` bytes of JSON-ish filler with backpressure; reports how many were written before
 * the client went away, and whether all were.
 */
export function streamFiller(res: ServerResponse, total: number): Promise<{ written: number; finished: boolean }> {
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  let written = 0;
  return new Promise((resolve) => {
    let done = false;
    const end = (finished: boolean) => {
      if (done) return;
      done = true;
      resolve({ written, finished });
    };
    res.once('close', () => end(written >= total && res.writableFinished));
    const pump = () => {
      while (written < total && !res.destroyed) {
        const size = Math.min(chunk.length, total - written);
        written += size;
        if (!res.write(size === chunk.length ? chunk : chunk.subarray(0, size))) {
          res.once('drain', pump);
          return;
        }
      }
      if (written >= total && !res.destroyed) res.end(() => end(true));
    };
    pump();
  });
}

/**
 * Answers a quotes request with 200 and, of `quotes`, those for the symbols asked for (in any case),
 * in the wire form: prices as JSON numbers with every digit given, so a test can send literals the
 * sandbox never would (1.084150000000000001), and symbols holding anything.
 */
export function sendTheseQuotes(req: IncomingMessage, res: ServerResponse, quotes: readonly Quote[]): void {
  const asked = new Set(symbolsOf(req).map((symbol) => symbol.toUpperCase()));
  const body = quotesJson(quotes.filter((item) => asked.has(item.symbol.toUpperCase())));
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}
