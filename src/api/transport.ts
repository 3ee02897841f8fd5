// The shapes of one HTTP exchange with the service, apart from the code that makes it, so that the
// request, the pacer and the response reader each import them without importing one another: what a
// program sets (HttpOptions, WaitEvent), what the client adds inside (TransportOptions), the request
// and its response, and the pacer's contract.
import type { Dispatcher } from 'undici';
import type { RateLimitInfo } from './types.js';
import type { WaitBudget } from './wait-budget.js';

/** A wait about to start: told to onWait, so that a program can say why nothing is happening. */
export interface WaitEvent {
  /** `rate-limit`: pacing, until the rate-limit window resets; `retry`: before another attempt. */
  kind: 'rate-limit' | 'retry';
  waitMs: number;
  /** Why: `rate limited`, `503 Service Unavailable`, `connection reset`, `no requests left in this rate-limit window`. */
  reason: string;
  /** Requests of this call done so far, and in all (one per batch of symbols; 1 for a token request). */
  done: number;
  total: number;
  /** For a retry: the attempt about to start (2 = the first retry), and the retries allowed. */
  attempt?: number;
  retries?: number;
}

/** What a library user sets (createClient's options). */
export interface HttpOptions {
  /** undici dispatcher (Agent, ProxyAgent, MockAgent...); default: undici's global one. */
  dispatcher?: Dispatcher;
  /** Deadline for each attempt, covering connect, headers and body. Default 15 s. */
  timeoutMs?: number;
  /** Retries of an idempotent request after 429, 502, 503, 504 or a connection error. Default 2. */
  retries?: number;
  /**
   * The most wall-clock time one call (getQuotes with all its batches) spends waiting: for retries
   * and for the rate limit's window to reset. Waits that overlap count once. Default 90 s, a full
   * one-minute window and then some. A wait the client can foresee past it fails at once, with a
   * RateLimitError whose `plan` gives the numbers, before any request the limit would refuse.
   */
  maxWaitMs?: number;
  /** Larger responses are refused. Default 32 MiB. */
  maxResponseBytes?: number;
  signal?: AbortSignal;
  userAgent?: string;
  /** Called as each wait starts (retries and pacing alike). */
  onWait?: (event: WaitEvent) => void;
  /** Debug lines; secrets are already redacted, control characters removed. */
  onDebug?: (line: string) => void;
}

/** Where a call stands: requests done and in all (getQuotes: one per batch). */
export interface CallProgress {
  done: number;
  total: number;
}

/** HttpOptions plus the seams tests and the CLI use; not part of the public API. */
export interface TransportOptions extends HttpOptions {
  /**
   * Where waiting is counted. getQuotes makes one for all its batches and its pacing;
   * sendRequest makes its own from maxWaitMs when none is given.
   */
  waitBudget?: WaitBudget;
  /** What onWait reports as done and total; a single request when not given. */
  progress?: CallProgress;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
}

export interface HttpRequest {
  method: 'GET' | 'POST';
  url: URL;
  headers: Record<string, string>;
  body?: string;
  /** GET: retried on retryable statuses and connection errors. Otherwise only when nothing was sent. */
  idempotent: boolean;
  /** Asked before every attempt, told after it (src/api/pacer.ts). */
  pacer?: Pacer;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  method: string;
  url: string;
  attempts: number;
  rateLimit: RateLimitInfo | undefined;
  /** How long the service asked to wait (Retry-After, or the rate-limit reset on a 429). */
  retryAfterMs: number | undefined;
  /** Set when retrying stopped because the next wait would pass the budget. */
  gaveUpOnBudget: boolean;
}

export interface Pacer {
  /**
   * Resolves when the next attempt may be sent, after waiting for the window's reset if it is spent.
   * Rejects with a RateLimitError (`plan` set) when the waiting the requests still to send need
   * would pass maxWaitMs.
   */
  acquire(): Promise<void>;
  /** The attempt is over: how it was answered (undefined after a network error). */
  release(answer?: PacedAnswer): void;
  /** Throws as acquire() would when the requests still to send cannot fit maxWaitMs: before a retry waits. */
  check(): void;
}

export interface PacedAnswer {
  status: number;
  rateLimit: RateLimitInfo | undefined;
  /** For a 429: how long the service asked to wait (the retry announces that wait). */
  retryAfterMs: number | undefined;
}
