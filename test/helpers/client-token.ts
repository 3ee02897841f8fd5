// A config file's members for a client-credentials token that is the client's own, as mkt stores
// one (src/cli/credentials/client-tokens.ts): the file's fingerprint key and the token's secret fingerprint,
// computed here with node:crypto from the README's rule (an HMAC-SHA256 of the secret keyed with the
// key's 32 bytes), not by the code under test.
import { createHmac } from 'node:crypto';

/** A fixed key (32 bytes, base64url), so that a test can write a file with fingerprints in it. */
export const FINGERPRINT_KEY = Buffer.alloc(32, 7).toString('base64url');

/** `hmac-sha256:<hex>` of `secret` under `key`. */
export function fingerprintOf(secret: string, key = FINGERPRINT_KEY): string {
  return `hmac-sha256:${createHmac('sha256', Buffer.from(key, 'base64url')).update(secret).digest('hex')}`;
}
