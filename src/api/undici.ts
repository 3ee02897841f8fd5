// undici, loaded when the first request needs a dispatcher rather than with the library: a program
// that imports mkt and never sends pays nothing for it. Its public entry point only: the CLI's
// bundle swaps in a smaller one at build time (scripts/undici-cli.js), library users get undici.
import type { Agent, Dispatcher, EnvHttpProxyAgent } from 'undici';

let undici: Promise<typeof import('undici')> | undefined;
const load = () => (undici ??= import('undici'));

export async function loadAgent(): Promise<typeof Agent> {
  return (await load()).Agent;
}

export async function loadEnvHttpProxyAgent(): Promise<typeof EnvHttpProxyAgent> {
  return (await load()).EnvHttpProxyAgent;
}

/** undici's process-wide dispatcher, for library callers that pass none. */
export async function globalDispatcher(): Promise<Dispatcher> {
  return (await load()).getGlobalDispatcher();
}
