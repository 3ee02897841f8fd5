// A purpose-built HTTP server on 127.0.0.1, port 0, that answers as each test scripts it and
// records what it was sent.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface ScriptedServer {
  url: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

export type Responder = (request: SeenRequest, res: ServerResponse, raw: IncomingMessage) => void;

export interface ScriptOptions {
  /** Hand the request to `respond` unread (for mounting another listener); the body is not recorded. */
  passThrough?: boolean;
}

export async function startScriptedServer(respond: Responder, options: ScriptOptions = {}): Promise<ScriptedServer> {
  const requests: SeenRequest[] = [];
  const server = http.createServer((req, res) => {
    if (options.passThrough) {
      const seen = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: '' };
      requests.push(seen);
      return respond(seen, res, req);
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const seen = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(seen);
      respond(seen, res, req);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** Answers with a fixed status, headers and body text. */
export function reply(status: number, body: string, headers: Record<string, string> = { 'content-type': 'application/json' }): Responder {
  return (_request, res) => {
    res.writeHead(status, headers);
    res.end(body);
  };
}
