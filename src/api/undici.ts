// undici, a module at a time. Its index loads fetch, WebSocket, caches and mocks as well, and touches
// globals that make Node load its own bundled copy of undici: about 25 ms of every CLI run for
// nothing the client uses. These are the modules of the HTTP/1.1 dispatchers and the request()
// API, which undici's index attaches to every dispatcher; this does the same. undici is CommonJS:
// a bundler's dynamic import gives its exports as `default`.
import type { Agent, Dispatcher, EnvHttpProxyAgent } from 'undici';

const cjs = <T>(module: { default: T }): T => module.default ?? (module as T);

let api: Promise<void> | undefined;

/** Dispatcher.prototype.request() and friends, as undici's index.js installs them. */
function installApi(): Promise<void> {
  api ??= Promise.all([import('undici/lib/dispatcher/dispatcher.js'), import('undici/lib/api/index.js')])
    .then(([dispatcher, methods]) => {
      const prototype = cjs(dispatcher).prototype as unknown as Record<string, unknown>;
      for (const [name, method] of Object.entries(cjs(methods))) prototype[name] ??= method;
    });
  return api;
}

export async function loadAgent(): Promise<typeof Agent> {
  const [module] = await Promise.all([import('undici/lib/dispatcher/agent.js'), installApi()]);
  return cjs(module);
}

export async function loadEnvHttpProxyAgent(): Promise<typeof EnvHttpProxyAgent> {
  const [module] = await Promise.all([import('undici/lib/dispatcher/env-http-proxy-agent.js'), installApi()]);
  return cjs(module);
}

/** undici's process-wide dispatcher, for library callers that pass none. */
export async function globalDispatcher(): Promise<Dispatcher> {
  const [module] = await Promise.all([import('undici/lib/global.js'), installApi()]);
  return cjs(module).getGlobalDispatcher();
}
