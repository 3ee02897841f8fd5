// A client's hooks (options.ts, Hooks) around each attempt: beforeRequest sees the headers as a
// WHATWG Headers it may change, afterResponse the status and headers of the answer. Without hooks,
// nothing is built: the 100 requests of a long call pay nothing for them.
import type { HookRequest, Hooks } from './options.js';

interface Attempt {
  method: string;
  url: URL;
  operation: string;
  attempt: number;
}

/**
 * The headers to send, once every beforeRequest hook has had them, and the request the hooks saw
 * (undefined without hooks). What a hook throws is thrown as it is.
 */
export async function runBeforeRequest(
  hooks: Hooks | undefined, attempt: Attempt, headers: Record<string, string>,
): Promise<{ headers: Record<string, string>; request: HookRequest | undefined }> {
  if (!hooks?.beforeRequest?.length && !hooks?.afterResponse?.length) return { headers, request: undefined };
  const request: HookRequest = {
    method: attempt.method, url: attempt.url.href, headers: new Headers(headers), operation: attempt.operation, attempt: attempt.attempt,
  };
  for (const hook of hooks.beforeRequest ?? []) await hook(request);
  const sent: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    sent[name] = value;
  });
  return { headers: sent, request };
}

/** Every afterResponse hook, in turn, with the answer's head. */
export async function runAfterResponse(
  hooks: Hooks | undefined, request: HookRequest | undefined, response: { status: number; headers: Record<string, string> },
): Promise<void> {
  if (request === undefined || !hooks?.afterResponse?.length) return;
  const seen = { status: response.status, headers: new Headers(response.headers), method: request.method, url: request.url };
  for (const hook of hooks.afterResponse) await hook(seen, request);
}
