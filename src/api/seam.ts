// What mkt hands the client beside the public options: the clock, the waits and the jitter, so that
// its tests replace them rather than wait. Only src/api/internal.ts passes it on (createClientWith),
// so createClient has one signature and no test seam in its types. Not part of the library.

export interface Seam {
  /** Milliseconds since the epoch. */
  now?: () => number;
  /** Resolves after `ms`, or rejects when `signal` aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** For the retries' jitter. */
  random?: () => number;
}
