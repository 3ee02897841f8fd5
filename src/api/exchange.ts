// One HTTP exchange through Dispatcher.dispatch, the interface every undici dispatcher has: the
// status, the headers and the whole body. undici's request() makes the same call, then wraps it in
// an async resource and streams the body through a Readable; at 100 requests a run, that costs
// more than the rest of the exchange, and its module more start-up time (docs/benchmarks.md).
import type { Dispatcher } from 'undici';

export interface Exchange {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface ExchangeOptions {
  signal: AbortSignal;
  /** Bodies past this size (declared or received) end the exchange with tooLarge(status). */
  maxBytes: number;
  tooLarge: (statusCode: number) => Error;
}

/** Rejects with undici's error, with tooLarge's, or with the signal's reason once it aborts. */
export function exchange(dispatcher: Dispatcher, request: Dispatcher.DispatchOptions, options: ExchangeOptions): Promise<Exchange> {
  const { signal, maxBytes, tooLarge } = options;
  return new Promise((resolve, reject) => {
    let controller: Dispatcher.DispatchController | undefined;
    let settled = false;
    let statusCode = 0;
    let headers: Exchange['headers'] = {};
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = () => {
      settled = true;
      signal.removeEventListener('abort', onAbort);
    };
    const fail = (error: Error) => {
      if (settled) return;
      settle();
      reject(error);
    };
    // Aborted while queued or connecting: fail now, and abort once undici hands over the controller.
    const onAbort = () => {
      const reason = signal.reason instanceof Error ? signal.reason : new Error('aborted');
      controller?.abort(reason);
      fail(reason);
    };
    const stop = (error: Error) => {
      controller?.abort(error);
      fail(error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    dispatcher.dispatch(request, {
      onRequestStart(started) {
        controller = started;
        if (settled) started.abort(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      },
      onResponseStart(_controller, status, received) {
        statusCode = status;
        headers = received;
        const declared = Number(received['content-length']);
        if (Number.isFinite(declared) && declared > maxBytes) stop(tooLarge(status));
      },
      onResponseData(_controller, chunk) {
        if (settled) return;
        size += chunk.length;
        if (size > maxBytes) stop(tooLarge(statusCode));
        else chunks.push(chunk);
      },
      onResponseEnd() {
        if (settled) return;
        settle();
        resolve({ statusCode, headers, body: Buffer.concat(chunks, size) });
      },
      onResponseError(_controller, error) {
        fail(error);
      },
    });
  });
}
