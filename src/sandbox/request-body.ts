// Reading and decoding request bodies for the two auth endpoints: bounded in size, tolerant of
// clients that go away, and strict about what counts as JSON or a form.
import type { IncomingMessage } from 'node:http';

export const MAX_BODY_BYTES = 64 * 1024;

export type BodyResult = { kind: 'ok'; body: Buffer } | { kind: 'too-large' } | { kind: 'aborted' };

/**
 * Reads the body up to `limit` bytes. Past the limit it stops collecting at once and reports
 * 'too-large'; the caller answers 413 and closes the connection, so the rest is never parsed.
 * A client that disconnects mid-body yields 'aborted' (there is nobody left to answer).
 */
export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<BodyResult> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (result: BodyResult) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('close', onClose);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) finish({ kind: 'too-large' });
      else chunks.push(chunk);
    };
    const onEnd = () => finish({ kind: 'ok', body: Buffer.concat(chunks, size) });
    const onClose = () => finish({ kind: 'aborted' });
    // Stays attached after finish: a reset after we are done must not become an uncaught error.
    req.on('error', () => finish({ kind: 'aborted' }));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('close', onClose);
  });
}

export type MediaType = 'json' | 'form' | 'missing' | 'other';

/**
 * Classifies a Content-Type header. Parameters other than charset are ignored; a charset other
 * than UTF-8 makes the type unsupported, since bodies are decoded as UTF-8.
 */
export function mediaTypeOf(header: string | undefined): MediaType {
  if (header === undefined || header.trim() === '') return 'missing';
  const parts = header.split(';');
  const type = (parts[0] as string).trim().toLowerCase();
  for (let i = 1; i < parts.length; i++) {
    const param = parts[i] as string;
    const eq = param.indexOf('=');
    if (eq < 0) continue;
    if (param.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    const charset = param.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1').toLowerCase();
    if (charset !== 'utf-8' && charset !== 'utf8') return 'other';
  }
  if (type === 'application/json') return 'json';
  if (type === 'application/x-www-form-urlencoded') return 'form';
  return 'other';
}

/** A decoded body: field name to string value, or a field of the wrong JSON type. */
export type Fields = Map<string, unknown>;

export type DecodeResult = { ok: true; fields: Fields } | { ok: false; message: string };

export function decodeJsonBody(body: Buffer): DecodeResult {
  const text = body.toString('utf8');
  if (text.trim() === '') return { ok: false, message: 'request body is empty; send a JSON object' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, message: 'request body is not valid JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, message: 'request body must be a JSON object' };
  }
  return { ok: true, fields: new Map(Object.entries(value)) };
}

/**
 * application/x-www-form-urlencoded. RFC 6749 §3.2 forbids repeating a parameter, so a repeat
 * is an error rather than a silent choice between the values.
 */
export function decodeFormBody(body: Buffer): DecodeResult {
  const text = body.toString('utf8');
  if (text.trim() === '') return { ok: false, message: 'request body is empty; send the form fields' };
  const fields: Fields = new Map();
  for (const [name, value] of new URLSearchParams(text)) {
    if (fields.has(name)) return { ok: false, message: `form field ${quoteName(name)} is given more than once` };
    fields.set(name, value);
  }
  return { ok: true, fields };
}

/** A request-supplied name, safe and short enough to quote inside an error message. */
export function quoteName(name: string): string {
  return JSON.stringify(name.length > 64 ? `${name.slice(0, 64)}…` : name);
}
