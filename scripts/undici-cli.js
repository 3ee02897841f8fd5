// What the CLI's bundle gets for `import('undici')` (scripts/build.js): the HTTP/1.1 dispatchers and
// request(), which is all mkt uses. undici's index also loads fetch, WebSocket, the caches, the mocks
// and the HTTP/2 client, and makes Node load its own copy of undici: tens of milliseconds of every
// run (docs/benchmarks.md, "undici-alias"). The library (dist/api.*) imports undici itself.
// It can go when undici's index costs a CLI run less than 5 ms, or loads those parts lazily.
import Agent from 'undici/lib/dispatcher/agent.js';
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';
import EnvHttpProxyAgent from 'undici/lib/dispatcher/env-http-proxy-agent.js';
import api from 'undici/lib/api/index.js';
import { getGlobalDispatcher } from 'undici/lib/global.js';

// What undici's index does for every dispatcher: request(), stream(), pipeline() and the rest.
Object.assign(Dispatcher.prototype, api);

export { Agent, EnvHttpProxyAgent, getGlobalDispatcher };
