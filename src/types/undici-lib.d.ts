// undici's own modules, imported one by one (src/api/undici.ts) so that a CLI run loads only the
// HTTP/1.1 client it uses. Typed through the package's public declarations.
declare module 'undici/lib/dispatcher/agent.js' {
  import type { Agent } from 'undici';
  const value: typeof Agent;
  export default value;
}
declare module 'undici/lib/dispatcher/env-http-proxy-agent.js' {
  import type { EnvHttpProxyAgent } from 'undici';
  const value: typeof EnvHttpProxyAgent;
  export default value;
}
declare module 'undici/lib/dispatcher/dispatcher.js' {
  import type { Dispatcher } from 'undici';
  const value: typeof Dispatcher;
  export default value;
}
declare module 'undici/lib/api/index.js' {
  const value: Record<string, unknown>;
  export default value;
}
declare module 'undici/lib/global.js' {
  import type { getGlobalDispatcher } from 'undici';
  const value: { getGlobalDispatcher: typeof getGlobalDispatcher };
  export default value;
}
