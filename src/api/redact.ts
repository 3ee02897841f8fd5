// Secrets never reach debug output or errors: these names are redacted in headers, JSON bodies and
// form bodies, and the values a call holds are scrubbed from whatever a server echoes back.
import { ApiError, MktError } from './errors.js';
import { REDACTED, redactSecrets, safeJson } from '../shared/text.js';

const SECRET_KEYS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key', 'api-key', 'apikey',
  'api_key', 'client_secret', 'client_assertion', 'access_token', 'refresh_token', 'id_token', 'token', 'password', 'secret']);

export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    out[name] = SECRET_KEYS.has(name.toLowerCase()) ? redactCredential(value) : value;
  }
  return out;
}

/** Keeps the scheme of an Authorization value (`Bearer [redacted]`), drops the credential. */
function redactCredential(value: string): string {
  const scheme = /^(Bearer|Basic|Token)\s/i.exec(value);
  return scheme ? `${scheme[1]} ${REDACTED}` : REDACTED;
}

/** A request or response body for a debug line: JSON and form bodies with secret fields replaced. */
export function redactBody(body: string, contentType: string | undefined): string {
  if (body === '') return '(empty body)';
  const type = (contentType ?? '').toLowerCase();
  if (type.includes('application/x-www-form-urlencoded')) {
    const params = new URLSearchParams(body);
    for (const key of [...params.keys()]) if (SECRET_KEYS.has(key.toLowerCase())) params.set(key, REDACTED);
    return params.toString();
  }
  try {
    return safeJson(redactValue(JSON.parse(body)));
  } catch {
    // Not JSON: an HTML error page or plain text could echo anything, so show only its size.
    return `(${Buffer.byteLength(body)} bytes of ${type || 'unknown type'}, not shown)`;
  }
}

function redactValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactValue);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) out[key] = SECRET_KEYS.has(key.toLowerCase()) ? REDACTED : redactValue(inner);
  return out;
}

/**
 * `error` with every secret of `secrets` scrubbed from its message, hint, request id and stack, and
 * from those of its causes: a server may quote the Authorization header in an error message. A cause
 * that cannot be changed (a DOMException's message is a getter) and holds a secret is dropped.
 */
export function scrubError(error: unknown, secrets: readonly string[]): unknown {
  if (secrets.length === 0) return error;
  let parent: Error | undefined;
  for (let current = error, depth = 0; current instanceof Error && depth < 5; parent = current, current = current.cause, depth++) {
    const keys = ['message', 'stack', ...(current instanceof MktError ? ['hint'] : []), ...(current instanceof ApiError ? ['requestId'] : [])];
    if (!keys.every((key) => scrub(current as unknown as Record<string, unknown>, key, secrets)) && parent !== undefined) {
      parent.cause = undefined;
      break;
    }
  }
  return error;
}

/** Whether `target[key]` holds no secret now. */
function scrub(target: Record<string, unknown>, key: string, secrets: readonly string[]): boolean {
  const value = target[key];
  if (typeof value !== 'string') return true;
  const clean = redactSecrets(value, secrets);
  if (clean === value) return true;
  try {
    target[key] = clean;
    return target[key] === clean;
  } catch {
    return false;
  }
}
