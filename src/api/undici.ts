// undici, a module at a time. Its index loads fetch, WebSocket, caches and mocks as well, and touches
// globals that make Node load its own bundled copy of undici: about 25 ms of every CLI run for
// nothing the client uses. The client needs only the HTTP/1.1 dispatchers, through the dispatch()
// every dispatcher has (./exchange.ts); the proxy agent also opens its tunnels with connect(), which
// undici's index attaches to every dispatcher. undici is CommonJS: a bundler's dynamic import gives
// its exports as `default`.
import type { Agent, Dispatcher, EnvHttpProxyAgent } from 'undici';

const cjs = <T>(module: { default: T }): T => module.default ?? (module as T);

export async function loadAgent(): Promise<typeof Agent> {
  return cjs(await import('undici/lib/dispatcher/agent.js'));
}

export async function loadEnvHttpProxyAgent(): Promise<typeof EnvHttpProxyAgent> {
  const [module, dispatcher, connect] = await Promise.all([
    import('undici/lib/dispatcher/env-http-proxy-agent.js'), import('undici/lib/dispatcher/dispatcher.js'), import('undici/lib/api/api-connect.js'),
  ]);
  (cjs(dispatcher).prototype as unknown as Record<string, unknown>).connect ??= cjs(connect);
  return cjs(module);
}

/** undici's process-wide dispatcher, for library callers that pass none. */
export async function globalDispatcher(): Promise<Dispatcher> {
  return cjs(await import('undici/lib/global.js')).getGlobalDispatcher();
}
