// Target 4 of issue 6: the sandbox under load. autocannon (in this process) against one server at a
// time, each in its own process on 127.0.0.1: `mkt sandbox` with raised limits, a Prism mock of the
// same endpoint (docs/openapi.yaml) and bench/fixed-server.js. GET quotes for 10 symbols.
/* global fetch */
import { createServer } from 'node:net';
import { join } from 'node:path';
import { startServer } from '../processes.js';
import { summarize } from '../series.js';
import { blockedRow, judge } from '../rows.js';
import { BENCH_DIR, ensureBenchDeps, getToken } from '../setup.js';

const SYMBOLS = 'EURUSD,GBPUSD,USDJPY,USDCHF,AUDUSD,AAPL,MSFT,NVDA,AMZN,GOOGL';
const PATH = `/v1/market/quotes?symbols=${SYMBOLS}`;
const RAISED = '1000000000';

const VS_PRISM = { target: '4 load', what: 'sandbox vs Prism mock, requests/s', kind: 'ratio', op: '>=', limit: 5, unit: 'rps' };
const P99 = { target: '4 load', what: 'sandbox p99 latency', kind: 'abs', op: '<=', limit: 10, unit: 'ms' };
const VS_FIXED = { target: '4 load', what: 'sandbox vs bare node:http fixed body, requests/s', kind: 'ratio', op: '>=', limit: 0.5, unit: 'rps' };

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function servers(ctx, deps) {
  const node = process.execPath;
  return [
    {
      name: 'sandbox',
      start: () => startServer({
        name: 'mkt sandbox',
        file: node,
        args: [ctx.mkt, 'sandbox', '--host', '127.0.0.1', '--port', '0', '--per-minute', RAISED, '--per-hour', RAISED, '--per-day', RAISED],
        env: ctx.env(),
      }),
      token: (url) => getToken(url),
    },
    {
      name: 'prism',
      blocked: deps.prismBlocked,
      // -v warn: Prism logs every request at the default level, which would slow it down; the
      // comparison is with Prism at its fastest.
      start: async () => {
        const port = await freePort();
        return startServer({
          name: 'Prism',
          file: node,
          args: [deps.prismBin, 'mock', join(BENCH_DIR, '..', 'docs', 'openapi.yaml'), '-h', '127.0.0.1', '-p', String(port), '-v', 'warn'],
          env: ctx.env(),
          url: `http://127.0.0.1:${port}`,
          readyPath: PATH,
          timeoutMs: 60_000,
        });
      },
      token: async () => 'bench-token',
    },
    {
      name: 'fixed',
      start: () => startServer({ name: 'fixed-server.js', file: node, args: [join(BENCH_DIR, 'fixed-server.js'), '--port', '0'], env: ctx.env() }),
      token: async () => 'unused',
    },
  ];
}

async function checkServer(name, url, headers) {
  const response = await fetch(new URL(PATH, url), { headers, signal: AbortSignal.timeout(10_000) });
  const text = await response.text();
  const count = response.ok ? JSON.parse(text).data?.length : undefined;
  if (count !== 10) throw new Error(`${name}: GET ${PATH} answered HTTP ${response.status} with ${count ?? 'no'} quotes: ${text.slice(0, 200)}`);
}

function fire(autocannon, options, seconds) {
  return new Promise((resolve, reject) => {
    const instance = autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
    // Bounded even if a server stops answering: autocannon's own duration plus a margin.
    const timer = setTimeout(() => instance.stop(), (seconds + 30) * 1000);
    instance.on('done', () => clearTimeout(timer));
  });
}

export async function load(ctx) {
  const { connections, seconds, warmupSeconds, rounds } = ctx.load();
  const deps = ensureBenchDeps(ctx.log);
  if (deps.blocked) return [VS_PRISM, P99, VS_FIXED].map((spec) => blockedRow({ ...spec, node: `node ${process.versions.node}` }, deps.blocked));

  const list = servers(ctx, deps);
  const results = Object.fromEntries(list.map((s) => [s.name, { rps: [], p99: [], error: s.blocked }]));
  for (let round = 0; round < rounds; round++) {
    for (const server of list) {
      if (results[server.name].error) continue;
      ctx.log(`4 load: ${server.name}, round ${round + 1} of ${rounds}: ${connections} connections, ${seconds} s (after ${warmupSeconds} s of warm-up)`);
      let running;
      try {
        running = await server.start();
        const headers = { accept: 'application/json', authorization: `Bearer ${await server.token(running.url)}`, 'x-organization-id': 'org_demo' };
        await checkServer(server.name, running.url, headers);
        const options = { url: `${running.url}${PATH}`, connections, headers, timeout: 10 };
        if (warmupSeconds > 0) await fire(deps.autocannon, { ...options, duration: warmupSeconds }, warmupSeconds);
        const result = await fire(deps.autocannon, { ...options, duration: seconds }, seconds);
        const bad = result.non2xx + result.errors + result.timeouts;
        if (bad > 0) throw new Error(`${server.name}: ${result.non2xx} non-2xx responses, ${result.errors} errors, ${result.timeouts} timeouts of ${result.requests.total} requests`);
        ctx.log(`  ${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ${result.requests.total} requests`);
        results[server.name].rps.push(result.requests.average);
        results[server.name].p99.push(result.latency.p99);
      } catch (error) {
        ctx.log(`  error: ${error.message}`);
        results[server.name].error = error.message.split('\n')[0];
      } finally {
        await running?.stop();
      }
    }
  }

  const series = (name, metric, unit) => ({ label: `${name} ${metric}`, unit, samples: results[name][metric], ...summarize(results[name][metric]) });
  for (const name of Object.keys(results)) {
    if (results[name].rps.length > 0) ctx.record(`4 load ${name} [node ${process.versions.node}]`, [series(name, 'rps', 'rps'), series(name, 'p99', 'ms')]);
  }
  const node = `node ${process.versions.node}`;
  const row = (spec, a, b) => {
    const missing = [a, b].filter(Boolean).map((name) => results[name].error).find(Boolean);
    if (missing) return blockedRow({ ...spec, node }, missing, results[a].error ? 'error' : (list.find((s) => s.name === b)?.blocked ? 'blocked' : 'error'));
    return judge({ ...spec, node, a: series(a, spec.unit === 'ms' ? 'p99' : 'rps', spec.unit), b: b && series(b, 'rps', 'rps') });
  };
  return [row(VS_PRISM, 'sandbox', 'prism'), row(P99, 'sandbox'), row(VS_FIXED, 'sandbox', 'fixed')];
}
