// The shapes of one HTTP exchange with the service, apart from the code that makes it, so that the
// request, the pacer and the response reader each import them without importing one another: what
// a request is sent with (Transport), the request and its response, and the pacer's contract.
import type { ClientOptions } from './options.js';
import type { Seam } from './seam.js';
import type { RateLimitInfo } from './types.js';
import type { WaitBudget } from './wait-budget.js';

/** Where a call stands: requests done and in all (getQuotes: one per batch). */
export interface CallProgress {
  done: number;
  total: number;
}

/**
 * What a request is sent with: createClient's options and the seam, and what the requests of one
 * call share. Built once per client (client.ts), narrowed per call by spreading, never copied by name.
 */
export type Transport = Partial<ClientOptions> & Seam & {
  /**
   * Where waiting is counted. getQuotes makes one for all its batches and its pacing;
   * sendRequest makes its own from maxWaitMs when none is given.
   */
  waitBudget?: WaitBudget;
  /** What onWait reports as done and total; a single request when not given. */
  progress?: CallProgress;
};

export interface HttpRequest {
  method: 'GET' | 'POST';
  url: URL;
  headers: Record<string, string>;
  body?: string;
  /** GET: retried on retryable statuses and connection errors. Otherwise only when nothing was sent. */
  idempotent: boolean;
  /** The client method it is for (`getQuotes`): for hooks and errors. */
  operation: string;
  /** Whether a 2xx body may be shown in debug lines (an error body always is); default true. */
  logResponseBody?: boolean;
  /** What to say of a body past maxResponseBytes: how the caller asks for less (the endpoint's words). */
  tooLargeHint?: string;
  /** Asked before every attempt, told after it (src/api/pacer.ts). */
  pacer?: Pacer;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  method: string;
  url: string;
  operation: string;
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
