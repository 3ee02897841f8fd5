// What the watch loop (run-watch.ts) needs of a resource to watch it: how to poll it once, what the
// pacing reads of a poll, what --until is decided on, and its three outputs (the live board on a
// terminal, plain tables on a terminal that cannot move its cursor, a stream in a pipe). The loop
// owns the rest, the same for every resource: the interval, rate-limit stretching, backoff,
// --count, --until and --exec, q, Ctrl-C, SIGTERM, Ctrl-Z and an output that goes away. Quotes are
// its first user (quotes-watch.ts); a resource drawn as its declared table can take its outputs
// from document-outputs.ts.
import type { Client, RateLimitInfo } from '../../api/index.js';
import type { CheckSubject } from '../../render/checks/check-model.js';
import type { FieldNames } from '../../render/fields.js';
import type { Deps } from '../deps.js';
import type { Checkable } from '../options/checks.js';
import type { Terminal } from '../output/terminal.js';
import type { BoardOutput } from './board-output.js';
import type { WatchTerminal } from './terminal.js';
import type { WatchOutput } from './watch-output.js';
import type { WatchSettings, WatchStream } from './watch-settings.js';

/** What an output is made with. */
export interface OutputContext<N extends string = string> {
  deps: Deps;
  /** The run's terminal: colour, characters, clock, stdout and stderr. */
  screen: Terminal;
  /** Its live size and resizes (the board), and job control. */
  terminal: WatchTerminal;
  /** The format, --fields, the interval, --count. */
  settings: WatchSettings<N>;
}

/** What the pacing reads of a poll (pace.ts): the requests it sent, and the rate limit's headers of the last answer. */
interface PollPacing {
  requests: number;
  rateLimit: RateLimitInfo | undefined;
}

/**
 * A resource the watch can poll. R is what one poll gives its outputs (an object: the loop adds the
 * poll's number, time and throttling to it); T and D are the rows and the document --until checks.
 *
 * Missing and unasked: `keys` are what was asked for; a key with no row at a poll is missing (the
 * outputs say so, and an --until that applies to it fails at that poll). What the service sends
 * besides is the resource's to leave out in poll() and its outputs' to mention (quotes: `unasked`,
 * one warning); it never reaches the checks.
 */
export interface WatchedResource<R extends object, T = unknown, D = unknown, N extends string = string> {
  /** The resource's declaration: the format and --fields are checked against it, --until against its checks. */
  model: FieldNames<N> & Checkable<T, D>;
  /** The symbols asked for, upper-cased: an --until naming another is refused before any request. */
  keys: readonly string[];
  /** What the watch writes in a pipe. */
  pipe: WatchStream;
  /** Requests a poll keeps in flight at once: the client's connections. */
  connections: number;
  /**
   * One poll, each request tried once: the next poll is the retry, paced by the loop. The client
   * and `signal` end with the watch. Errors are the library's (a transient one is shown and retried).
   */
  poll(client: Client, signal: AbortSignal): Promise<R>;
  pacing(result: R): PollPacing;
  /** What --until is decided on at a poll: its rows, its document, and the keys asked for. */
  subject(result: R): CheckSubject<T, D>;
  /** The live board (the format is the table, on a terminal that can redraw). */
  createBoard(context: OutputContext<N>): BoardOutput<R>;
  /** A table per poll, one after another (TERM=dumb). */
  createPlain(context: OutputContext<N>): WatchOutput<R>;
  /** In a pipe, in `context.settings.format`, one of `pipe.formats`. */
  createStream(context: OutputContext<N>): WatchOutput<R>;
}
