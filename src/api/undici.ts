// undici, loaded when the first request needs a dispatcher rather than with the library: a program
// that imports mkt and never sends pays nothing for it. Its public entry point only: the CLI's
// bundle swaps in a smaller one at build time (scripts/undici-cli.js), library users get undici.
import type { Dispatcher } from 'undici';

let undici: Promise<typeof import('undici')> | undefined;
const load = () => (undici ??= import('undici'));

/** What the CLI builds its dispatcher from (src/cli/network/dispatcher.ts): agents, pools, proxies, connectors. */
export async function loadDispatcherParts(): Promise<Pick<typeof import('undici'), 'Agent' | 'Client' | 'Dispatcher' | 'Pool' | 'ProxyAgent' | 'buildConnector'>> {
  const { Agent, Client, Dispatcher, Pool, ProxyAgent, buildConnector } = await load();
  return { Agent, Client, Dispatcher, Pool, ProxyAgent, buildConnector };
}

/** undici's process-wide dispatcher, for library callers that pass none. */
export async function globalDispatcher(): Promise<Dispatcher> {
  return (await load()).getGlobalDispatcher();
}
