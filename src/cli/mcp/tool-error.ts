// A failed tool call as a tool result (isError), never a crash of the server: the words `mkt
// quotes` writes on stderr for the same error (errors/explain.ts, the command's explainer, the hints), then
// the JSON error object `mkt quotes --json` writes, so that an agent reads what happened and what to
// do, and a program reads the code and, for a rate limit, the wait it would need.
import { ApiError, RateLimitError } from '../../api/index.js';
import { formatDuration, tryAgainAt } from '../../shared/duration.js';
import { safeJson } from '../../shared/text.js';
import type { Deps } from '../deps.js';
import { errorCodeFor, exitCodeFor, statusFor } from '../errors/exit-codes.js';
import { debugStack, reportWords, type Explainer } from '../errors/explain.js';
import { isDebug } from '../io.js';
import type { RunState } from '../run-state.js';
import type { CallToolResult } from './sdk.js';
import { entryNames, SERVER_ARGS, SERVER_ENV } from './tool-hints.js';

/** The JSON error object of `mkt quotes --json`, and the wait a rate limit needs. */
interface ToolErrorJson {
  error: {
    code: string;
    message: string;
    status: number | null;
    /** What `mkt quotes` would exit with: 2 usage, 4 credentials, 5 forbidden, 6 rate limited, 7 network... */
    exit_code: number;
    hint: string | null;
    request_id: string | null;
    /** A rate limit's wait, in milliseconds, where the service or the client's plan gave one. */
    retry_after_ms?: number;
  };
}

/** `error`, met while a tool call ran with `state`, as the call's result. */
export function toolError(error: unknown, deps: Deps, state: RunState): CallToolResult {
  const exitCode = exitCodeFor(error);
  // The settings named as the server's entry gives them: `--timeout in the server's args`.
  const { message, hint, requestId } = reportWords(error, deps, withWait(deps, state.explain), entryNames(state.names), {
    internalHint: `add MKT_DEBUG=1 to ${SERVER_ENV} for details on its stderr, and report it if it persists`,
    interrupted: 'interrupted: the call was cancelled, or the server is stopping',
  });
  if (isDebug(deps.env) && error instanceof Error) deps.io.stderr.write(`${debugStack(deps, error)}\n`);

  const retryAfterMs = error instanceof RateLimitError ? error.retryAfterMs ?? error.plan?.waitMs : undefined;
  const json: ToolErrorJson = {
    error: {
      code: errorCodeFor(error), message, status: statusFor(error), exit_code: exitCode, hint: hint ?? null, request_id: requestId ?? null,
      ...(retryAfterMs === undefined ? {} : { retry_after_ms: retryAfterMs }),
    },
  };
  const words = `error: ${message}\n${hint ? `hint: ${hint}\n` : ''}${requestId ? `request id: ${requestId}\n` : ''}`;
  return { isError: true, content: [{ type: 'text', text: words }, { type: 'text', text: safeJson(json) }] };
}

/**
 * The command's words, and for a 429 whose wait is longer than --max-wait, when to call again: an
 * agent cannot pass a flag, but it can wait (the server's own --max-wait is its client's setting).
 */
function withWait(deps: Deps, own: Explainer | undefined): Explainer {
  return (error, names) => {
    const words = own?.(error, names);
    if (words?.hint !== undefined || !(error instanceof ApiError) || error.status !== 429) return words;
    const { retryAfterMs, maxWaitMs } = error;
    if (retryAfterMs === undefined || maxWaitMs === undefined || retryAfterMs <= maxWaitMs) return words;
    return {
      ...words,
      hint: `call again after ${tryAgainAt(retryAfterMs, deps)}; this server waits at most ${formatDuration(maxWaitMs)} within a call (--max-wait in ${SERVER_ARGS}, or MKT_MAX_WAIT in ${SERVER_ENV})`,
    };
  };
}
