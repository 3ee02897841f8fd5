// Successful answers: one place for the headers every response carries.
import type { OutgoingHttpHeaders } from 'node:http';
import { JSON_CONTENT_TYPE } from './errors.js';
import type { Exchange } from './exchange.js';

/** 200 with `body`; `headers` (a fresh object, added to here) holds the route's own, e.g. RateLimit-*. */
export function sendOk(ex: Exchange, body: string, headers: OutgoingHttpHeaders = {}, contentType = JSON_CONTENT_TYPE): void {
  headers['Content-Type'] = contentType;
  headers['Content-Length'] = Buffer.byteLength(body);
  // Tokens must not be cached (RFC 6749 §5.1), nor quotes (the data licence); the rest is not worth it.
  headers['Cache-Control'] = 'no-store';
  headers['X-Content-Type-Options'] = 'nosniff';
  headers['X-Request-Id'] = ex.id;
  ex.res.writeHead(200, headers);
  ex.res.end(body);
}
