// The library's client as commands make it: createClient's own methods, checks and errors, with the
// seam for what the CLI injects (Deps' clock, waits and jitter). Commands call the service only
// through it, as any program does (docs: README, The library).
import type { Client, HttpOptions } from '../api/index.js';
import { createClientWith, type ClientSeam } from '../api/internal.js';

/** What the client is made with: its public options and the seam (the clock, waits and jitter of Deps). */
export type ClientSettings = HttpOptions & ClientSeam;

/** Where a client sends, and with which token: the service of the credentials, or of a login. */
export interface ClientTarget {
  baseUrl: string;
  accessToken?: string;
  organizationId?: string;
}

/**
 * The library's client for `target` with `settings`. Plain http to another machine was already
 * allowed or refused by the CLI's own rule (settings.ts: MKT_ALLOW_INSECURE_HTTP), so the client's
 * is not asked again.
 */
export function createCliClient(settings: ClientSettings, target: ClientTarget): Client {
  const { now, sleep, random, dispatcher, timeoutMs, retries, maxWaitMs, maxResponseBytes, signal, userAgent, onWait, onDebug } = settings;
  return createClientWith({
    baseUrl: target.baseUrl, accessToken: target.accessToken, organizationId: target.organizationId, allowInsecureHttp: true,
    dispatcher, timeoutMs, retries, maxWaitMs, maxResponseBytes, signal, userAgent, onWait, onDebug,
  }, { now, sleep, random });
}
