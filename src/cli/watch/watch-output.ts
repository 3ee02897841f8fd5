// What the watch loop tells its output (the live board on a terminal, the tables on a dumb one, the
// stream in a pipe), for any watched resource: R is what one poll of it gives (quotes: QuotePoll).
import type { QuotesResult } from '../../api/index.js';
import type { QuoteChange } from '../../render/changes.js';

/** Where the watch stands at a poll, whatever the resource. */
export interface PollStatus {
  /** Successful polls so far, this one included. */
  polls: number;
  /** When the poll's answer arrived. */
  at: number;
  /** Set when the rate limit stretches the wait before the next poll: the time it is due. */
  throttledUntil: number | undefined;
}

/** A successful poll: the resource's result and where the watch stands. */
export type PollUpdate<R> = R & PollStatus;

/** What a poll of quotes gives their outputs. */
export interface QuotePoll {
  /** Only the quotes for symbols asked for. */
  result: QuotesResult;
  /** Symbols of the quotes the service sent unasked, which the watch dropped. */
  ignored: readonly string[];
  /** One per quote of `result.data`, compared with the previous poll. */
  changes: QuoteChange[];
}

export interface WatchOutput<R> {
  start(): void;
  /** A poll's result; the loop waits for it before the next poll. */
  update(poll: PollUpdate<R>): void | Promise<void>;
  /** A 429: polling resumes at `until`. */
  rateLimited(until: number): void;
  /** A transient error (network, timeout, 5xx); the `failures`-th in a row, retried at `retryAt`. */
  failed(error: Error, retryAt: number, failures: number): void;
  /** Called about once a second while the watch waits, if present: the board redraws its ages. */
  tick?(): void;
  /**
   * Idempotent; restores whatever start() changed. `finished`: the watch ended by itself (--count
   * reached, --until held, an error), not by q, Ctrl-C, a signal or a closed output; the board then
   * leaves its last poll on the screen. `ending`: a line for people saying why it ended, when
   * --until held (`--until held at poll 3: EURUSD.bid > 1.09`): below the last board or table; a
   * stream, read by programs, writes nothing.
   */
  stop(finished: boolean, ending?: string): void;
}
