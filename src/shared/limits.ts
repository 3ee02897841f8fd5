// Every limit and default of the client and the CLI, in one place: what a request may take (time,
// retries, bytes), how calls are batched and paced, when a token is renewed, how far clocks may
// disagree. createClient's options (src/api/options.ts) and the CLI's flags take their defaults
// from here, and the CLI its caps on what it reads; a change here is a change to the README's tables.

// --- One request (src/api/request.ts; createClient's options) ---

/** Deadline for each attempt, covering connect, headers and body (timeoutMs, --timeout). */
export const DEFAULT_TIMEOUT_MS = 15_000;
/** Retries of an idempotent request after 429, 502, 503, 504 or a connection error (retries, --retries). */
export const DEFAULT_RETRIES = 2;
/** The most retries createClient takes; the CLI's --retries stops at MAX_CLI_RETRIES. */
export const MAX_RETRIES = 100;
export const MAX_CLI_RETRIES = 10;
/** The most one call spends waiting, for retries and rate-limit windows (maxWaitMs, --max-wait): a one-minute window and then some. */
export const DEFAULT_MAX_WAIT_MS = 90_000;
/** Larger responses are refused (maxResponseBytes). */
export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;
/** Retry backoff without Retry-After: full jitter on 500 ms, doubling, at most 8 s. */
export const BACKOFF_BASE_MS = 500;
export const BACKOFF_CAP_MS = 8_000;
/** Node turns a longer setTimeout into 1 ms (TimeoutOverflowWarning). */
export const MAX_TIMER_MS = 2 ** 31 - 1;
/**
 * The largest response header block: Node's default (--max-http-header-size), given explicitly so
 * that undici need not load node:http to read it (scripts/build.js, docs/benchmarks.md).
 */
export const MAX_HEADER_SIZE = 16 * 1024;

// --- GET /v1/market/quotes (src/api/quotes.ts) ---

/** Symbols per request; left unset, it also shrinks to what the service says it takes. */
export const DEFAULT_BATCH_SIZE = 100;
/** Requests in flight at once. */
export const DEFAULT_CONCURRENCY = 4;
/** The most symbols per request, and requests in flight, a caller may ask for. */
export const MAX_BATCH_SIZE = 10_000;
export const MAX_CONCURRENCY = 64;

// --- What the service's headers and bodies may say ---

/** The longest wait a rate-limit header or Retry-After is taken to ask for; anything longer is read as this. */
export const MAX_HEADER_WAIT_MS = 365 * 86_400_000;
/** Two rate-limit reset times this close apart describe the same window (Reset is in whole seconds). */
export const SAME_WINDOW_MS = 1000;
/**
 * The longest lifetime taken from expires_in: ten years. A larger figure (1e13 has been seen) is
 * read as ten years, so that the expiry is a date that can be stored and printed.
 */
export const MAX_EXPIRES_IN_SECONDS = 10 * 365 * 86_400;
/**
 * How far a quote's timestamp may lie ahead of this machine's clock before it is a quote from the
 * future: two clocks a few seconds apart are common (a VM that slept, a laptop off NTP), a quote
 * stamped later than that is not a latest quote, however fresh it reads.
 */
export const CLOCK_SKEW_MS = 10_000;

// --- Tokens the CLI stores (src/cli/credentials/credentials.ts, token-renewal.ts) ---

/**
 * Tokens with less than this left are renewed when client credentials are at hand: a tenth of the
 * token's lifetime, at most a minute. A fixed minute would renew a 30 s token at every poll of a
 * watch; a tenth lets it serve 27 s, and an hour's token 59 minutes.
 */
export const RENEW_BEFORE_MS = 60_000;
export const RENEW_FRACTION = 0.1;
/**
 * Tokens kept per profile for clients other than the profile's own (MKT_CLIENT_ID and
 * MKT_CLIENT_SECRET): the most recently minted that have not expired. Sixteen CI jobs with sixteen
 * clients sharing one config file keep their own tokens; a seventeenth replaces the oldest.
 */
export const MAX_CLIENT_TOKENS = 16;
/** How long a run waits for the config file's lock (a token renewal: beyond the holder's own token request). */
export const LOCK_WAIT_MS = 10_000;
/** A lock whose holder cannot be checked (another host's, or an older mkt's, empty) is abandoned after this. */
export const LOCK_STALE_MS = 10_000;
/** The config file, as read or as mkt would write it: larger is refused. A thousand profiles with tokens take about 400 KB. */
export const MAX_CONFIG_BYTES = 16 * 1024 * 1024;
/** How deep the config file's values may nest: mkt's own go five levels deep (the file, profiles, a profile, its client_tokens, a token). */
export const MAX_CONFIG_DEPTH = 64;

// --- mkt quotes --watch (src/cli/watch/) ---

/** --interval: start to start, at least a second. */
export const DEFAULT_INTERVAL_MS = 2000;
export const MIN_INTERVAL_MS = 1000;
/** The longest wait between polls after transient errors, or 429s that ask for no wait mkt can read. */
export const MAX_WATCH_BACKOFF_MS = 30_000;
/** --count. */
export const MAX_WATCH_COUNT = 1_000_000;

// --- --exec's program (src/cli/exec/run-program.ts) ---

/**
 * After mkt passes a signal on to its program, how long the program, and whatever of its process
 * group holds its output, has to end before mkt kills the group (SIGKILL).
 */
export const EXEC_GRACE_MS = 5_000;

// --- What the CLI reads ---

/** A duration flag (--timeout, --max-wait, --interval...) is at most a day. */
export const MAX_DURATION_MS = 24 * 3_600_000;
/** A secret on standard input (--with-api-key, --with-client-secret). */
export const MAX_SECRET_BYTES = 64 * 1024;
/** --symbols-file, or the symbols on standard input. */
export const MAX_SYMBOLS_FILE_BYTES = 16 * 1024 * 1024;
/** A positions file (mkt value), or positions text a program parses: the cap of --symbols-file. */
export const MAX_POSITIONS_FILE_BYTES = 16 * 1024 * 1024;
/** The problems of a positions file listed at once (the rest are counted): enough to fix a file in one pass. */
export const MAX_POSITIONS_PROBLEMS = 20;
/**
 * How deep a positions file's JSON may nest: an array of position objects is 2 deep, and members
 * mkt ignores may nest a little more. Deeper text is refused, saying so, before the parser recurses.
 */
export const MAX_POSITIONS_JSON_DEPTH = 64;
/**
 * The numbers a valuation computes with (src/shared/decimal-bounds.ts): at most this many
 * significant digits, digits before the point and places after it. 100 is ample for money (a
 * market quotes a dozen digits, a ledger keeps a few places), and keeps every product and sum of a
 * valuation cheap: the exact cost grows with the digits.
 */
export const MAX_SIGNIFICANT_DIGITS = 100;
export const MAX_INTEGER_DIGITS = 100;
export const MAX_FRACTION_DIGITS = 100;
/**
 * The most positions `mkt value` and `mkt mcp`'s value_portfolio take: a valuation keeps every
 * position, its exact figures and its document in memory, about 4.5 KB a position at its largest
 * (the table, in a base the positions are converted to, with costs): 150,000 peaked at 640 MiB on
 * Node 24 (200,000 at 895 MiB, 250,000 at 1,085 MiB), well under 1 GB in every format. A 16 MiB
 * file of 1.9 million one-line positions is refused before it is parsed instead of taking 3 GB.
 * Ample for a book of lots (the benchmark's largest is 100,000).
 */
export const MAX_POSITIONS = 150_000;
/** --ca-file and MKT_CA_FILE: a CA bundle of every public root is about 220 KB; a larger file is not one. */
export const MAX_CA_FILE_BYTES = 4 * 1024 * 1024;
/** One message (a line) mkt mcp reads, as the MCP SDK's own stdio transport reads at most (STDIO_DEFAULT_MAX_BUFFER_SIZE). */
export const MAX_MCP_MESSAGE_BYTES = 10 * 1024 * 1024;
