// What mkt hands the client beside the public options: the clock, the waits and the jitter, so that
// its tests replace them rather than wait. Only src/api/internal.ts (createClientWith) files one,
// beside the options object it hands createClient, so that createClient has one signature and no
// test seam in its types. Not part of the library.

export interface Seam {
  /** Milliseconds since the epoch. */
  now?: () => number;
  /** Resolves after `ms`, or rejects when `signal` aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** For the retries' jitter. */
  random?: () => number;
}

/** The seam of an options object createClientWith made; createClient looks its options up here. */
export const seams = new WeakMap<object, Seam>();
