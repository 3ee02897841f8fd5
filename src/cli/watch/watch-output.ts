// What the watch loop tells its output, the live board on a terminal or the NDJSON stream in a pipe.
import type { QuotesResult } from '../../api/index.js';
import type { QuoteChange } from '../../render/changes.js';

export interface PollUpdate {
  /** Only the quotes for symbols asked for. */
  result: QuotesResult;
  /** Symbols of the quotes the service sent unasked, which the watch dropped. */
  ignored: readonly string[];
  /** One per quote of `result.data`, compared with the previous poll. */
  changes: QuoteChange[];
  /** Successful polls so far, this one included. */
  polls: number;
  /** When the quotes arrived. */
  at: number;
  /** Set when the rate limit stretches the wait before the next poll: the time it is due. */
  throttledUntil: number | undefined;
}

export interface WatchOutput {
  start(): void;
  update(poll: PollUpdate): void;
  /** A 429: polling resumes at `until`. */
  rateLimited(until: number): void;
  /** A transient error (network, timeout, 5xx); the `failures`-th in a row, retried at `retryAt`. */
  failed(error: Error, retryAt: number, failures: number): void;
  /** Called about once a second while the watch waits, if present: the board redraws its ages. */
  tick?(): void;
  /**
   * Idempotent; restores whatever start() changed. `finished`: the watch ended by itself (--count
   * reached, an error), not by q, Ctrl-C, a signal or a closed output; the board then leaves its
   * last quotes on the screen.
   */
  stop(finished: boolean): void;
}
