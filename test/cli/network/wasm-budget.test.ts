// The WebAssembly tier-up budget (src/cli/network/wasm-budget.ts): set once per short run, after the run's
// connection is open (Node's own modules loaded before it keep their code cache) and before undici
// compiles its HTTP parser; through a proxy before the tunnel opens; never for `--watch`.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { sendQuotes, useServers } from '../../helpers/fault-server.js';
import { BIN, EXE, baseEnv, collect } from '../../helpers/bin.js';
import { runCli, tempDir } from '../../helpers/cli.js';
import { skippingTime } from '../../helpers/fake-time.js';
import { useTestCertificates } from '../../helpers/tls.js';
import { startForwardProxy } from './forward-proxy.js';
import { quotesEnv } from '../../helpers/quotes-env.js';

const { start: server, closeLater } = useServers();
const certificates = useTestCertificates();
const quotesServer = (tls = false) => server((req, res) => sendQuotes(req, res), tls ? { tls: certificates() } : undefined);

// The one module that sets the flag, replaced by a recorder: in the process the source runs in, the
// real one leaves V8 alone (it acts in the bundle only), and the connection guard is what calls it.
const budget = vi.hoisted(() => ({ seen: undefined as undefined | (() => unknown), calls: [] as unknown[] }));
vi.mock('../../../src/cli/network/wasm-budget.js', () => ({
  spareWasmTierUp: () => {
    if (budget.seen !== undefined) budget.calls.push(budget.seen());
  },
}));

/** What the server and the proxy had seen each time the command asked for the budget. */
function recorder(seen: () => { requests: number; proxyConnections?: number }) {
  budget.seen = seen;
  budget.calls = [];
  return { get calls() {
    return budget.calls;
  } };
}

describe('in the process: when a command asks for the budget', () => {
  it('a one-shot quotes asks once its connection is open, before its request is sent', async () => {
    const api = await quotesServer();
    const budget = recorder(() => ({ requests: api.requests.length }));
    const result = await runCli(['quotes', 'EURUSD', '--json'], { env: quotesEnv(api.url) });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(api.requests).toHaveLength(1);
    expect(budget.calls).toEqual([{ requests: 0 }]);
  });

  it('--watch never asks: V8 tunes a command that runs until stopped', async () => {
    const api = await quotesServer();
    const budget = recorder(() => ({ requests: api.requests.length }));
    // The interval passes on a clock its sleep moves on: a sleep that returns at once beside the real
    // clock left the watch spinning through the second.
    const time = skippingTime();
    const result = await runCli(['quotes', 'EURUSD', '--watch', '--count', '2', '--interval', '1s'], {
      env: quotesEnv(api.url), now: time.now, sleep: time.sleep,
    });
    expect(result.code).toBe(0);
    expect(api.requests).toHaveLength(2);
    expect(budget.calls).toEqual([]);
  });

  it('through an HTTPS_PROXY tunnel it asks before the proxy is reached: undici parses the answer to CONNECT', async () => {
    const api = await quotesServer(true);
    const forward = closeLater(await startForwardProxy({ hosts: { [`proxied.test:${api.port}`]: `127.0.0.1:${api.port}` } }));
    const budget = recorder(() => ({ requests: api.requests.length, proxyConnections: forward.connections() }));
    const result = await runCli(['quotes', 'EURUSD', '--ca-file', certificates().caFile], {
      env: quotesEnv(api.url.replace('127.0.0.1', 'proxied.test'), { HTTPS_PROXY: forward.url }),
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(forward.connections()).toBe(1);
    expect(budget.calls).toEqual([{ requests: 0, proxyConnections: 0 }]);
  });
});

// The built bin, with a preload that records each V8 flag set, what Node had loaded then, and each
// WebAssembly module compiled. Not for the standalone executable, which takes no -r.
const HOOK = `
const fs = require('node:fs');
const v8 = require('node:v8');
const events = [];
// Connections open and TLS handshakes done, counted as the client sees them.
const done = { connect: 0, secureConnect: 0 };
const emit = require('node:net').Socket.prototype.emit;
require('node:net').Socket.prototype.emit = function (name, ...args) {
  if (name in done) done[name]++;
  return emit.call(this, name, ...args);
};
const set = v8.setFlagsFromString;
v8.setFlagsFromString = (flags) => {
  const loaded = process.moduleLoadList.filter((name) => name.startsWith('NativeModule '));
  events.push({ flag: flags, loaded: ['net', '_http_common', 'tls'].filter((name) => loaded.includes('NativeModule ' + name)), ...done });
  return set(flags);
};
const Module = WebAssembly.Module;
WebAssembly.Module = class extends Module {
  constructor(bytes) { events.push({ wasm: true }); super(bytes); }
};
process.on('exit', () => fs.writeFileSync(process.env.HOOK_OUT, JSON.stringify(events)));
`;

describe.skipIf(EXE !== undefined)('the built bin', () => {
  const run = async (args: string[], baseUrl: string, extraEnv: Record<string, string> = {}) => {
    const dir = tempDir();
    try {
      fs.writeFileSync(path.join(dir, 'hook.cjs'), HOOK);
      const out = path.join(dir, 'events.json');
      const env = baseEnv({ ...quotesEnv(baseUrl, extraEnv), HOOK_OUT: out, MKT_CONFIG_DIR: path.join(dir, 'config'), XDG_CACHE_HOME: path.join(dir, 'cache') });
      const child = spawn(process.execPath, ['-r', path.join(dir, 'hook.cjs'), BIN, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
      const result = await collect(child, performance.now(), '', 20_000);
      return { ...result, events: JSON.parse(fs.readFileSync(out, 'utf8')) as Array<Record<string, unknown>> };
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };

  it('mkt quotes sets the flag once, with its connection open, before llhttp is compiled', async () => {
    const api = await quotesServer();
    const result = await run(['quotes', 'EURUSD', '--json'], api.url);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.events).toEqual([{ flag: '--wasm-tiering-budget=1000000000', loaded: ['net', '_http_common'], connect: 1, secureConnect: 0 }, { wasm: true }]);
  });

  it('over https, after the handshake: node:tls is loaded and compiled with its cache', async () => {
    const api = await quotesServer(true);
    const result = await run(['quotes', 'EURUSD', '--json', '--ca-file', certificates().caFile], api.url);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.events).toEqual([{ flag: '--wasm-tiering-budget=1000000000', loaded: ['net', '_http_common', 'tls'], connect: 1, secureConnect: 1 }, { wasm: true }]);
  });

  it('through HTTP_PROXY, before the connection to the proxy opens', async () => {
    const api = await quotesServer();
    const forward = closeLater(await startForwardProxy({ hosts: { [`proxied.test:${api.port}`]: `127.0.0.1:${api.port}` } }));
    const result = await run(['quotes', 'EURUSD', '--json'], api.url.replace('127.0.0.1', 'proxied.test'), { HTTP_PROXY: forward.url, MKT_ALLOW_INSECURE_HTTP: '1' });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(forward.seen).toHaveLength(1);
    expect(result.events).toEqual([{ flag: '--wasm-tiering-budget=1000000000', loaded: ['net', '_http_common'], connect: 0, secureConnect: 0 }, { wasm: true }]);
  });

  it('mkt quotes --watch leaves V8 as it is', async () => {
    const api = await quotesServer();
    const result = await run(['quotes', 'EURUSD', '--watch', '--count', '1'], api.url);
    expect(result.code).toBe(0);
    expect(result.events).toEqual([{ wasm: true }]);
  });
});
