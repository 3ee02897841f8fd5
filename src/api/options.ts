// ClientOptions, the one options type of the library, and the shapes its members name: a wait told
// to onWait, the hooks a program adds to every request, and a token source. Types only. A new option
// is one member here (and its check in check-options.ts); the CLI's settings are derived from this
// type (src/cli/network/client-settings.ts), so the compiler points at the one place mkt must set it.
import type { Dispatcher } from 'undici';

export interface ClientOptions {
  /** The service's base address, e.g. https://api.example.com (the spec's {base_url}). */
  baseUrl: string;
  /**
   * Plain http:// is refused (OptionsError, code INSECURE_HTTP) for any host but this machine
   * (127.0.0.0/8, ::1, localhost), since keys and tokens would cross the network readable; true
   * allows it, for a network you trust.
   */
  allowInsecureHttp?: boolean;
  /**
   * The bearer token getQuotes sends when the call gives none: a token, or a function the client
   * asks for one (a TokenSource), once per call and again after the service refuses it (401).
   */
  accessToken?: string | TokenSource;
  /** The organization getQuotes acts for when the call gives none. */
  organizationId?: string;
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
  /** Aborting it ends a call, a request or a wait with an AbortError; already aborted, nothing is sent. */
  signal?: AbortSignal;
  userAgent?: string;
  /** Called as each wait starts (retries and pacing alike). */
  onWait?: (event: WaitEvent) => void;
  /** Debug lines; secrets are already redacted, control characters removed. */
  onDebug?: (line: string) => void;
  /** Functions run on every attempt of every request: before it is sent, and once its answer's head has come. */
  hooks?: Hooks;
}

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

/** What a TokenSource is asked with. */
export interface TokenContext {
  /** The token the service has just refused (401): the source should give another, or the same to give up. */
  rejected?: string;
  /** The call's signal, for a source that asks a server in turn. */
  signal?: AbortSignal;
}

/**
 * Where the client gets its bearer token: called once per call, and after a 401 once more, with
 * `rejected` set; the request is then repeated once with the new token. Returning the refused token
 * again gives up: the call fails with the 401's AuthError. What it throws fails the call as it is.
 */
export type TokenSource = (context: TokenContext) => string | Promise<string>;

/** A request as hooks see it, once per attempt. */
export interface HookRequest {
  readonly method: string;
  /** The whole URL, query included. */
  readonly url: string;
  /** What will be sent: a beforeRequest hook may set, change or delete any header. */
  readonly headers: Headers;
  /** The client method the request is for: `getQuotes`, `cliLogin`, `clientCredentials`. */
  readonly operation: string;
  /** 1 for the first attempt, 2 for the first retry... */
  readonly attempt: number;
}

/** A response's head as afterResponse hooks see it (the body is the client's to read). */
export interface HookResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly method: string;
  readonly url: string;
}

/**
 * Extension points, as ky has them: each hook runs in turn, on every attempt, and may be async.
 * One that throws fails the call with what it threw; nothing more is sent for that call.
 */
export interface Hooks {
  beforeRequest?: ReadonlyArray<(request: HookRequest) => void | Promise<void>>;
  afterResponse?: ReadonlyArray<(response: HookResponse, request: HookRequest) => void | Promise<void>>;
}
