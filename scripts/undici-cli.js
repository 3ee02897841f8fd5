// What the CLI's bundle gets for `import('undici')` (scripts/build.js): the HTTP/1.1 dispatchers and
// request(), which is all mkt uses. undici's index also loads fetch, WebSocket, the caches, the mocks
// and the HTTP/2 client, and makes Node load its own copy of undici: tens of milliseconds of every
// run (docs/benchmarks.md, "undici-alias"). The library (dist/api.*) imports undici itself.
// It can go when undici's index costs a CLI run less than 5 ms, or loads those parts lazily.
import Agent from 'undici/lib/dispatcher/agent.js';
import Client from 'undici/lib/dispatcher/client.js';
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';
import Pool from 'undici/lib/dispatcher/pool.js';
import ProxyAgent from 'undici/lib/dispatcher/proxy-agent.js';
import buildConnector from 'undici/lib/core/connect.js';
import api from 'undici/lib/api/index.js';
import { getGlobalDispatcher } from 'undici/lib/global.js';

// What undici's index does for every dispatcher: request(), stream(), pipeline() and the rest.
Object.assign(Dispatcher.prototype, api);

export { Agent, Client, Dispatcher, Pool, ProxyAgent, buildConnector, getGlobalDispatcher };
