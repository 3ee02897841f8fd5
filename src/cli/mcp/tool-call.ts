// One tool call, run as one run of a data command: the client is made by createCommandClient, as
// `mkt quotes` makes it (the profile, the token and its renewal, proxies, CAs, pacing, --max-wait),
// when the call needs it, from the settings, variables and config file as they are at that moment:
// the config file is read afresh for each call, so a `mkt login` in another terminal counts from
// the next call on. Its waits are within MCP_MAX_WAIT_MS unless --max-wait or MKT_MAX_WAIT says,
// and told to the client as progress when it asked for progress (wait-progress.ts). What the call
// opened (the dispatcher and its connections, the progress timers) is closed when it ends.
import type { Client } from '../../api/index.js';
import { ConfigStore } from '../../config/store.js';
import { DEFAULT_CONCURRENCY } from '../../shared/limits.js';
import { safeJson } from '../../shared/text.js';
import type { Warning } from '../../shared/warnings.js';
import { createCommandClient } from '../network/client.js';
import type { Deps } from '../deps.js';
import { diagnosticsOf } from '../output/diagnostics.js';
import type { NetworkFlags } from '../options/network.js';
import type { RunState } from '../run-state.js';
import { scrubSecrets, withScrubbedDiagnostics } from '../credentials/secrets.js';
import type { TargetFlags } from '../options/settings.js';
import type { CallToolResult } from './sdk.js';
import { toolError } from './tool-error.js';
import { markSettingsError } from './tool-hints.js';
import { createWaitProgress, MCP_MAX_WAIT_MS, type CallExtra } from './wait-progress.js';

export type McpFlags = TargetFlags & NetworkFlags;

/** The server's run: what every tool call works with. */
export interface McpSession {
  deps: Deps;
  /** `mkt mcp`'s own flags: every call uses them, as every command uses its own. */
  flags: McpFlags;
  /** The calls under way, so that the server can let them finish, or wait for their clean-up. */
  pending: Set<Promise<unknown>>;
  /** The config file's warnings (a file others can read), each said once, not at every call. */
  warned: Set<string>;
}

export interface ToolCall {
  /** The call's own: the config file as it is now, its signal, and the secrets it comes to hold, scrubbed from its diagnostics. */
  deps: Deps;
  /** The call's run: its explainer (the words of its errors), how its settings were given, its cleanups. */
  state: RunState;
  /** A data command's client for this call, aborted when the call is cancelled or the server stops. */
  client(): Promise<Client>;
  /**
   * Whether `text` holds a secret the call holds (the bearer token, a client secret, an API key):
   * such text from the service never goes into a result, which lands in the agent's context.
   */
  holdsSecret(text: string): boolean;
  /** Says on the server's stderr what the result leaves out. */
  warn(message: string): void;
}

/**
 * Runs `work` and answers with what it returns, as structured content and as the same JSON in a
 * text block (for clients that read no structured content); anything it throws becomes an isError
 * result worded as `mkt quotes` words it (tool-error.ts).
 */
export function answerCall(session: McpSession, extra: CallExtra, work: (call: ToolCall) => Promise<Record<string, unknown>>): Promise<CallToolResult> {
  const answer = runCall(session, extra, work);
  session.pending.add(answer);
  return answer.finally(() => session.pending.delete(answer));
}

async function runCall(session: McpSession, extra: CallExtra, work: (call: ToolCall) => Promise<Record<string, unknown>>): Promise<CallToolResult> {
  const deps = callDeps(session, extra.signal);
  const state: RunState = { exitCode: 0, cleanups: [] };
  const progress = createWaitProgress(extra, deps.now);
  state.cleanups.push(async () => progress.stop());
  const call: ToolCall = {
    deps,
    state,
    client: async () => {
      const command = await createCommandClient(deps, session.flags, state, { concurrency: DEFAULT_CONCURRENCY, longRunning: true, maxWaitMs: MCP_MAX_WAIT_MS })
        .catch((error: unknown) => {
          // Its settings' or credentials' fault: worded from them (tool-hints.ts).
          markSettingsError(error);
          throw error;
        });
      return command.with({
        onWait: (event) => {
          command.progress.onWait(event);
          progress.onWait(event);
        },
      });
    },
    holdsSecret: (text) => scrubSecrets(deps, text) !== text,
    warn: (message) => diagnosticsOf(session.deps).warn({ code: 'mcp_credential_withheld', message: `mkt mcp: ${message}` }),
  };
  try {
    const structured = await work(call);
    return { content: [{ type: 'text', text: safeJson(structured) }], structuredContent: structured };
  } catch (error) {
    return toolError(error, deps, state);
  } finally {
    for (const cleanup of state.cleanups.reverse()) await cleanup().catch(() => {});
  }
}

/**
 * The server's deps for one call: a store that reads the config file afresh (a run's store keeps
 * what it first read), a signal that aborts when the client cancels the call or the server stops,
 * diagnostics scrubbed of the secrets the call holds as well as the server's, and no stdout: that
 * is the protocol's, which the transport alone writes, so anything a command would write there
 * goes to stderr.
 */
function callDeps(session: McpSession, signal: AbortSignal): Deps {
  const { deps, warned } = session;
  const callSignal = AbortSignal.any([deps.signal, signal]);
  const onWarning = (warning: Warning) => {
    if (warned.has(warning.message)) return;
    warned.add(warning.message);
    diagnosticsOf(deps).warn(warning);
  };
  // Not a spread: the process's io reads stdin and its TTY flag lazily, through getters.
  const io = Object.create(deps.io, { stdout: { value: deps.io.stderr } }) as Deps['io'];
  const config = new ConfigStore({ dir: deps.config.dir, onWarning, signal: callSignal });
  return withScrubbedDiagnostics({ ...deps, io, config, signal: callSignal });
}
