// Waiting inside a tool call, for a client that gives up on a call after a while: the budget a call
// waits within when `mkt mcp` is not told one, and the progress notifications that tell the client,
// while a call waits, that it is still being answered.
import type { WaitEvent } from '../../api/index.js';
import { describeWait } from '../output/progress.js';
import type { RequestHandlerExtra, ServerNotification, ServerRequest } from './sdk.js';

/**
 * What one call waits at most, in all, for retries and the rate limit, unless --max-wait or
 * MKT_MAX_WAIT says: MCP clients give up on a request after 60 s by default (the TypeScript SDK's
 * DEFAULT_REQUEST_TIMEOUT_MSEC; Claude Desktop's is alike), and the CLI's 90 s, a whole rate window,
 * would outlast them, so that the client got neither the result nor the wait it needs. 45 s leaves
 * the requests themselves 15 s; a wait the service asks past it is answered at once, with the wait.
 */
export const MCP_MAX_WAIT_MS = 45_000;

/** During a wait, a progress notification at least this often: well within any client's timeout. */
export const PROGRESS_EVERY_MS = 10_000;

/** What the SDK hands a tool's handler that a call uses: its signal, and the means to report progress. */
export type CallExtra = Pick<RequestHandlerExtra<ServerRequest, ServerNotification>, 'signal' | '_meta' | 'sendNotification'>;

/** A call's waits as progress notifications. */
export interface WaitProgress {
  onWait(event: WaitEvent): void;
  /** Stops the notifications (the call has answered). */
  stop(): void;
}

/**
 * When the request carries a progress token (`_meta.progressToken`), each wait is told as a
 * progress notification when it starts and every PROGRESS_EVERY_MS until it ends, with what is
 * waited for and how long is left: a client that resets its timeout on progress (the SDK's
 * `resetTimeoutOnProgress`) then keeps waiting for the answer, however long --max-wait lets it be.
 * `progress` counts the notifications (it must grow with each); there is no `total`.
 */
export function createWaitProgress(extra: CallExtra, now: () => number): WaitProgress {
  const progressToken = extra._meta?.progressToken;
  if (progressToken === undefined) return { onWait: () => {}, stop: () => {} };
  let progress = 0;
  let timer: ReturnType<typeof setInterval> | undefined;
  const stop = () => {
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
  };
  const tell = (message: string) => {
    progress += 1;
    // A client that has gone cannot be told; the call's own end says the rest.
    extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress, message } }).catch(() => {});
  };
  return {
    onWait(event) {
      stop();
      const end = now() + event.waitMs;
      tell(describeWait(event));
      timer = setInterval(() => {
        const left = end - now();
        if (left <= 0) return stop();
        // What is left, in whole seconds as the service counts waits (`49s`, not `48.9s`).
        tell(describeWait({ ...event, waitMs: Math.ceil(left / 1000) * 1000 }));
      }, PROGRESS_EVERY_MS);
      timer.unref();
    },
    stop,
  };
}
