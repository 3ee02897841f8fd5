// A small forward proxy for the proxy tests: plain-http requests in absolute form
// (`GET http://host/path`) are forwarded, `CONNECT host:port` is answered 200 and piped. It records
// what it saw and can resolve made-up host names (`quotes.test`) that only it knows. It can also
// misbehave: never answer a CONNECT, close each connection at once, or echo a request in a 502.
import http, { type IncomingMessage } from 'node:http';
import net, { type AddressInfo, type Socket } from 'node:net';

interface ProxySighting {
  kind: 'absolute-form' | 'connect';
  /** `GET http://127.0.0.1:1234/v1/market/quotes?...` or `CONNECT 127.0.0.1:1234`. */
  line: string;
  /** The host:port asked for. */
  target: string;
  headers: IncomingMessage['headers'];
}

export interface ForwardProxy {
  url: string;
  seen: ProxySighting[];
  /** TCP connections accepted. */
  connections(): number;
  close(): Promise<void>;
}

export interface ForwardProxyOptions {
  /** host:port the proxy connects to instead, e.g. { 'quotes.test:80': '127.0.0.1:4321' }. */
  hosts?: Record<string, string>;
  /** Answer every CONNECT with this status instead of tunnelling. */
  refuseConnect?: number;
  /** Read every CONNECT and never answer it. */
  silentConnect?: boolean;
  /** Read every CONNECT and close the connection without an answer. */
  closeConnect?: boolean;
  /** Close each connection as soon as it is accepted, before reading anything. */
  closeAtOnce?: boolean;
  /** Answer absolute-form requests 502 with the request's head in the body, as some proxies do. */
  echoIn502?: boolean;
}

export async function startForwardProxy(options: ForwardProxyOptions = {}): Promise<ForwardProxy> {
  const seen: ProxySighting[] = [];
  const sockets = new Set<Socket>();
  let connections = 0;
  const route = (target: string) => {
    const mapped = options.hosts?.[target] ?? target;
    const at = mapped.lastIndexOf(':');
    return { host: mapped.slice(0, at).replace(/^\[|\]$/g, ''), port: Number(mapped.slice(at + 1)) };
  };

  const server = http.createServer((req, res) => {
    const line = `${req.method} ${req.url}`;
    if (!req.url || !/^http:\/\//.test(req.url)) {
      // Origin-form: a client that thought this was the service itself.
      res.writeHead(400, { 'content-type': 'text/plain' }).end('this is a proxy: send absolute-form requests');
      return;
    }
    const target = new URL(req.url);
    seen.push({ kind: 'absolute-form', line, target: target.host.includes(':') ? target.host : `${target.host}:80`, headers: req.headers });
    if (options.echoIn502) {
      const head = [line, ...Object.entries(req.headers).map(([name, value]) => `${name}: ${String(value)}`)].join('\n');
      res.writeHead(502, { 'content-type': 'text/plain' }).end(`upstream failed for:\n${head}\n`);
      return;
    }
    const { host, port } = route(target.port ? target.host : `${target.hostname}:80`);
    const upstream = http.request({ host, port, method: req.method, path: `${target.pathname}${target.search}`, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.headersSent ? res.destroy() : res.writeHead(502).end('bad gateway'));
    req.pipe(upstream);
  });

  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    const target = req.url ?? '';
    seen.push({ kind: 'connect', line: `CONNECT ${target}`, target, headers: req.headers });
    sockets.add(client);
    client.once('close', () => sockets.delete(client));
    client.on('error', () => {});
    if (options.silentConnect) return;
    if (options.closeConnect) {
      client.destroy();
      return;
    }
    if (options.refuseConnect !== undefined) {
      client.end(`HTTP/1.1 ${options.refuseConnect} Refused\r\ncontent-length: 0\r\n\r\n`);
      return;
    }
    const { host, port } = route(target);
    const upstream = net.connect(port, host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.once('close', () => {
      sockets.delete(upstream);
      client.destroy();
    });
    upstream.on('error', () => client.destroy());
    client.once('close', () => upstream.destroy());
  });
  server.on('connection', (socket: Socket) => {
    connections++;
    if (options.closeAtOnce) {
      socket.destroy();
      return;
    }
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    connections: () => connections,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
