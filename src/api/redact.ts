// Secrets never reach debug output: these names are redacted in headers, JSON bodies and form bodies.
import { REDACTED, safeJson } from '../shared/text.js';

export { REDACTED };

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
