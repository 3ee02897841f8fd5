// The one exit-code contract, for every command (README "Exit codes", `mkt help exit-codes`).
import {
  AbortError, ApiError, AuthError, ForbiddenError, InvalidRequestError, MktError, NetworkError, OptionsError, RateLimitError, ResponseError, ServerError,
} from '../../api/index.js';
import { ConfigError } from '../../config/errors.js';
import { InterruptSignal } from '../deps.js';
import { CheckFailedError, CredentialsError, IncompleteError, UsageError } from './errors.js';

export const ExitCode = {
  OK: 0,
  ERROR: 1,
  USAGE: 2,
  INCOMPLETE: 3,
  NOT_AUTHENTICATED: 4,
  FORBIDDEN: 5,
  RATE_LIMITED: 6,
  NETWORK: 7,
  CHECK_FAILED: 8,
  INTERRUPTED: 130,
} as const;

export const EXIT_CODE_TABLE: ReadonlyArray<readonly [number, string]> = [
  [ExitCode.OK, 'success'],
  [ExitCode.ERROR, 'unexpected: a response the client cannot use, or an internal error'],
  [ExitCode.USAGE, 'usage or local validation (bad flag, bad symbol, unknown profile, no base URL, a config file mkt cannot use), and 400 INVALID_REQUEST'],
  [ExitCode.INCOMPLETE, 'incomplete or doubtful result under --strict: quotes missing, stale, from the future, or that cannot be right; a valuation that leaves positions out (no quote, no rate)'],
  [ExitCode.NOT_AUTHENTICATED, 'not authenticated: no credentials, expired token, 401'],
  [ExitCode.FORBIDDEN, 'forbidden: 403 (no market.read scope, or no access to the organization)'],
  [ExitCode.RATE_LIMITED, 'rate limited: 429 after retries, or more waiting than --max-wait allows'],
  [ExitCode.NETWORK, 'network: unreachable, TLS, timeout, 5xx after retries'],
  [ExitCode.CHECK_FAILED, 'a check failed: a --check did not hold, or --until never held before --count ran out'],
  [ExitCode.INTERRUPTED, 'interrupted (Ctrl-C, SIGTERM; SIGHUP and SIGQUIT too while an --exec program runs)'],
];

export function exitCodeFor(error: unknown): number {
  if (error instanceof AbortError || error instanceof InterruptSignal) return ExitCode.INTERRUPTED;
  if (isCommanderError(error)) return error.exitCode === 0 ? ExitCode.OK : ExitCode.USAGE;
  if (error instanceof UsageError || error instanceof ConfigError || error instanceof OptionsError || error instanceof InvalidRequestError) return ExitCode.USAGE;
  if (error instanceof IncompleteError) return ExitCode.INCOMPLETE;
  if (error instanceof CheckFailedError) return ExitCode.CHECK_FAILED;
  if (error instanceof CredentialsError || error instanceof AuthError) return ExitCode.NOT_AUTHENTICATED;
  if (error instanceof ForbiddenError) return ExitCode.FORBIDDEN;
  if (error instanceof RateLimitError) return ExitCode.RATE_LIMITED;
  if (error instanceof NetworkError || error instanceof ServerError) return ExitCode.NETWORK;
  return ExitCode.ERROR;
}

/** The stable error code written in --json error objects. */
export function errorCodeFor(error: unknown): string {
  if (isCommanderError(error)) return 'USAGE';
  if (error instanceof InterruptSignal) return 'INTERRUPTED';
  if (error instanceof MktError) return error.code;
  return 'INTERNAL';
}

export function statusFor(error: unknown): number | null {
  // A rate-limit plan foreseen before any answer has status 0: nothing came back. A response the
  // client cannot use (a 200 that is not JSON, a 204) reports the status that came.
  return (error instanceof ApiError || error instanceof ResponseError) && error.status > 0 ? error.status : null;
}

/**
 * commander's parse errors (unknown option, missing argument, --help). Recognised by shape rather
 * than instanceof so that main does not load commander before it must.
 */
export function isCommanderError(error: unknown): error is Error & { code: string; exitCode: number } {
  return error instanceof Error && typeof (error as { exitCode?: unknown }).exitCode === 'number'
    && String((error as { code?: unknown }).code).startsWith('commander.');
}
