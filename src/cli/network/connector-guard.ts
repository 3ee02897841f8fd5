// Every connection mkt opens goes through guardConnector (dispatcher.ts): a deadline for a proxy's
// tunnel, an end on the run's signal, a failed CONNECT that fails the request (one attempt of the
// retry policy) rather than a reconnection without end, an unsolicited `100 Continue` dropped
// before undici sees it (interim-responses.ts), and, for a short run, the one V8 flag that keeps
// undici's parser on V8's baseline compiler, set as undici is about to compile it (wasm-budget.ts).
import type { TLSSocket } from 'node:tls';
import type { buildConnector } from 'undici';
import { formatDuration } from '../../shared/duration.js';
import { MAX_HEADER_SIZE } from '../../shared/limits.js';
import { skipUnsolicitedContinue } from './interim-responses.js';
import { spareWasmTierUp } from './wasm-budget.js';

export type Connector = buildConnector.connector;

interface Guard {
  /** For a tunnel: the most the connection to the proxy, its answer to CONNECT and the TLS handshake inside may take. */
  deadlineMs?: number;
  /** The connection is to a proxy (undici parses its answer to CONNECT itself). */
  proxied?: boolean;
  /** The command ends after a few responses (not `--watch`): the V8 flag of wasm-budget.ts is worth setting. */
  shortRun?: boolean;
}

/**
 * `connector` with an end: the run's signal fails the connection at once, and `deadlineMs` (for a
 * tunnel: the connection to the proxy, its answer to CONNECT and the TLS handshake inside) fails it
 * when it passes. The connector is handed a signal that aborts whatever is left (undici's ProxyAgent
 * passes it to its CONNECT request). A proxy that closed the connection is reported as a reset:
 * undici would take its own "socket closed" for a reason to reconnect at once, without end. The
 * connection undici gets skips an unsolicited `100 Continue` (interim-responses.ts); an HTTP/2 one
 * (never negotiated: mkt does not set allowH2) is left alone.
 *
 * For a short run, the V8 flag is set once a direct connection is open, before undici parses on it
 * (Node's TLS has loaded and kept its code cache by then); through a proxy (`proxied`) before the
 * connection opens, since undici parses the proxy's answer to CONNECT on a connection of its own.
 */
export function guardConnector(connector: Connector, signal: AbortSignal, guard: Guard): Connector {
  const { deadlineMs, proxied = false, shortRun = false } = guard;
  const beforeParser = shortRun ? spareWasmTierUp : undefined;
  return (options, callback) => {
    if (signal.aborted) return callback(connectError('UND_ERR_ABORTED', 'interrupted'), null);
    if (proxied) beforeParser?.();
    const rest = new AbortController();
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const settle = (...args: Parameters<buildConnector.Callback>) => {
      if (settled) {
        args[1]?.destroy();
        return;
      }
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      if (args[0]) {
        rest.abort();
      } else {
        if (!proxied) beforeParser?.();
        if ((args[1] as TLSSocket).alpnProtocol !== 'h2') skipUnsolicitedContinue(args[1], MAX_HEADER_SIZE);
      }
      callback(...args);
    };
    const onAbort = () => settle(connectError('UND_ERR_ABORTED', 'interrupted'), null);
    signal.addEventListener('abort', onAbort, { once: true });
    if (deadlineMs !== undefined) {
      timer = setTimeout(() => settle(connectError('UND_ERR_CONNECT_TIMEOUT',
        `no connection through the proxy within ${formatDuration(deadlineMs)}`), null), deadlineMs);
    }
    const withSignal = { ...options, signal: rest.signal } as buildConnector.Options;
    connector(withSignal, (...args) => {
      const error = args[0];
      if (error && ['UND_ERR_SOCKET', 'UND_ERR_INFO'].includes((error as NodeJS.ErrnoException).code ?? '')) {
        return settle(connectError('ECONNRESET', `the proxy closed the connection: ${error.message}`, error), null);
      }
      settle(...args);
    });
  };
}

function connectError(code: string, message: string, cause?: unknown): Error {
  return Object.assign(new Error(message, { cause }), { code });
}

