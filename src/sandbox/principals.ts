// The clients the sandbox knows: two built-ins (documented in docs/sandbox.md) plus any given with
// `clients` / `--clients FILE`. The file is validated whole, with messages that name the entry and
// field, because a typo there otherwise shows up later as a puzzling 401 or 403.
import { UsageError } from '../shared/errors.js';
import { ORGANIZATION_PATTERN } from '../shared/patterns.js';
import { readFileLimited } from '../shared/read-limited.js';
import { whereJsonFails } from '../shared/text.js';
import { SandboxConfigError } from './config-error.js';

export interface SandboxClient {
  client_id: string;
  client_secret: string;
  /** Organizations the client may act for, each `org_<id>`. */
  orgs: string[];
  /** Granted scopes; `market.read` is the one the quotes endpoint requires. */
  scopes: string[];
  /** `approved` doubles the per-minute limit (the spec's burst note for approved market-data clients). */
  profile?: 'standard' | 'approved';
}

export const DEMO = {
  clientId: 'demo',
  clientSecret: 'demo-secret',
  org: 'org_demo',
  apiKey: 'demo.demo-secret',
} as const;

export const BUILT_IN_CLIENTS: readonly SandboxClient[] = [
  { client_id: DEMO.clientId, client_secret: DEMO.clientSecret, orgs: [DEMO.org], scopes: ['market.read'] },
  { client_id: 'noscope', client_secret: 'noscope-secret', orgs: [DEMO.org], scopes: [] },
];

/** No dot, because an API key is split at its first dot; no colon, because of HTTP Basic. */
const CLIENT_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
/** Visible ASCII: anything a shell, a JSON file and a form body carry without surprises. */
const CLIENT_SECRET_PATTERN = /^[\x21-\x7e]{1,256}$/;
/** RFC 6749 §3.3 scope-token: visible ASCII except `"` and `\`. */
export const SCOPE_TOKEN_PATTERN = /^[\x21\x23-\x5b\x5d-\x7e]{1,128}$/;
const CLIENT_KEYS = new Set(['client_id', 'client_secret', 'orgs', 'scopes', 'profile']);

/** Checks one client definition; `where` prefixes messages, e.g. `clients.json: entry 2`. */
function validateClient(value: unknown, where: string): SandboxClient {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new SandboxConfigError(`${where} must be an object with client_id, client_secret, orgs and scopes`);
  }
  const entry = value as Record<string, unknown>;
  for (const key of Object.keys(entry)) {
    if (!CLIENT_KEYS.has(key)) {
      throw new SandboxConfigError(`${where} has an unknown field ${JSON.stringify(key)} (allowed: ${[...CLIENT_KEYS].join(', ')})`);
    }
  }
  const { client_id: clientId, client_secret: clientSecret, orgs, scopes, profile } = entry;
  if (typeof clientId !== 'string' || !CLIENT_ID_PATTERN.test(clientId)) {
    throw new SandboxConfigError(`${where}: client_id must be 1 to 64 characters of A-Z, a-z, 0-9, _ or -`);
  }
  if (typeof clientSecret !== 'string' || !CLIENT_SECRET_PATTERN.test(clientSecret)) {
    throw new SandboxConfigError(`${where}: client_secret must be 1 to 256 visible ASCII characters`);
  }
  if (!Array.isArray(orgs) || orgs.length === 0 || !orgs.every((org) => typeof org === 'string' && ORGANIZATION_PATTERN.test(org))) {
    throw new SandboxConfigError(`${where}: orgs must be a non-empty array of ids of the form org_<id> (<id>: 1 to 64 of A-Z, a-z, 0-9, _ or -)`);
  }
  if (!Array.isArray(scopes) || !scopes.every((scope) => typeof scope === 'string' && SCOPE_TOKEN_PATTERN.test(scope))) {
    throw new SandboxConfigError(`${where}: scopes must be an array of scope strings such as "market.read"`);
  }
  if (profile !== undefined && profile !== 'standard' && profile !== 'approved') {
    throw new SandboxConfigError(`${where}: profile must be "standard" or "approved"`);
  }
  return {
    client_id: clientId,
    client_secret: clientSecret,
    orgs: [...new Set(orgs as string[])],
    scopes: [...new Set(scopes as string[])],
    ...(profile === undefined ? {} : { profile }),
  };
}

/** Validates a list of clients, rejecting ids that repeat or clash with the built-ins. */
export function validateClients(values: readonly unknown[], where: string): SandboxClient[] {
  const seen = new Set(BUILT_IN_CLIENTS.map((client) => client.client_id));
  return values.map((value, index) => {
    const client = validateClient(value, `${where}[${index}]`);
    if (seen.has(client.client_id)) {
      const builtIn = BUILT_IN_CLIENTS.some((c) => c.client_id === client.client_id);
      throw new SandboxConfigError(
        `${where}[${index}]: client_id ${JSON.stringify(client.client_id)} is ${builtIn ? 'a built-in client' : 'defined twice'}`,
      );
    }
    seen.add(client.client_id);
    return client;
  });
}

/** The most a clients file may hold: far more than any list of clients, far less than a device has. */
export const MAX_CLIENTS_FILE_BYTES = 1024 * 1024;

/**
 * Reads a `--clients` file: a JSON array of client objects, e.g.
 * `[{"client_id": "ci", "client_secret": "s3cret", "orgs": ["org_ci"], "scopes": ["market.read"]}]`.
 * Read as a stream with a byte cap, so a device or a pipe (/dev/zero) ends with an error instead of
 * filling memory, and `signal` stops the read at once. Throws SandboxConfigError naming the file and
 * the problem (or the limit), and AbortError when `signal` aborts.
 */
export async function loadClientsFile(path: string, signal?: AbortSignal): Promise<SandboxClient[]> {
  let text: string;
  try {
    text = await readFileLimited(path, `clients file ${path}`, MAX_CLIENTS_FILE_BYTES, signal);
  } catch (error) {
    if (error instanceof UsageError) throw new SandboxConfigError(error.message, error.hint);
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    throw new SandboxConfigError(`clients file ${path} is not valid JSON (${whereJsonFails(text, error)})`);
  }
  if (!Array.isArray(parsed)) {
    throw new SandboxConfigError(`clients file ${path} must hold a JSON array of clients, e.g. [{"client_id": "ci", "client_secret": "s3cret", "orgs": ["org_ci"], "scopes": ["market.read"]}]`);
  }
  return validateClients(parsed, `clients file ${path}: clients`);
}
