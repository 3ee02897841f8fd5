// One request on its way through the sandbox: what a route reads, how its errors are shaped, and
// who made it once that is known (for the request log).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SandboxContext } from './context.js';
import type { ErrorStyle } from './errors.js';

export interface Exchange {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  /** `req_…`, sent back as X-Request-Id and `request_id`. */
  readonly id: string;
  readonly path: string;
  /** The raw query string, without the `?`. */
  readonly query: string;
  readonly errorStyle: ErrorStyle;
  /** The authenticated client, once known; never an id the request merely claims. */
  clientId: string | undefined;
}

/** A route: answers the exchange, or throws a Reject (also from a returned promise). */
export type Route = (ctx: SandboxContext, ex: Exchange) => void | Promise<void>;
