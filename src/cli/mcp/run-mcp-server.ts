// `mkt mcp`: the Model Context Protocol over standard input and output, on the official SDK. Only
// the protocol goes to stdout (mkt's own transport writes it, through the run's IO, and answers
// every malformed message: stdio-transport.ts); everything of
// mkt's (warnings, progress, -v request lines) goes to stderr, as in every command. The server ends
// with exit 0 when the client closes its stdin (once the calls under way have answered) or on
// SIGINT or SIGTERM (the calls under way are aborted), with every call's connections closed.
import { printable } from '../../shared/text.js';
import { ExitCode } from '../errors/exit-codes.js';
import { createClientSettings } from '../network/client-settings.js';
import type { Deps } from '../deps.js';
import { diagnosticsOf } from '../output/diagnostics.js';
import type { RunState } from '../run-state.js';
import { resolveProfile } from '../options/settings.js';
import { VERSION } from '../version.js';
import { registerAuthStatus } from './auth-status-tool.js';
import { registerCheckQuotes } from './check-quotes-tool.js';
import { registerGetQuotes } from './get-quotes-tool.js';
import { McpServer } from './sdk.js';
import { StdioTransport } from './stdio-transport.js';
import type { McpFlags, McpSession } from './tool-call.js';
import { registerValuePortfolio } from './value-portfolio-tool.js';

/** Every tool, in the order tools/list gives them. */
const TOOLS = [registerGetQuotes, registerValuePortfolio, registerCheckQuotes, registerAuthStatus];

/** The requests the server answers: the protocol's own and the tools'; the SDK refuses any other (-32601). */
const METHODS: ReadonlySet<string> = new Set(['initialize', 'ping', 'tools/list', 'tools/call']);

const INSTRUCTIONS = `Market data from the Market Data Service through mkt, exact: every price and amount is a decimal string ("1.084150000000000001"), with every digit the service sent; compare and compute with them as decimals, never as floats. Every tool is read-only. The credentials are mkt's own (mkt login, MKT_TOKEN, or MKT_CLIENT_ID and MKT_CLIENT_SECRET): auth_status says whether they are usable, and what the user must do when not.`;

export async function runMcpServer(deps: Deps, flags: McpFlags): Promise<number> {
  await checkSettings(deps, flags);
  const session: McpSession = { deps, flags, pending: new Set(), warned: new Set() };
  const server = new McpServer({ name: 'mkt', version: VERSION }, { instructions: INSTRUCTIONS });
  for (const register of TOOLS) register(server, session);
  // A refusal may quote the client's bytes (a parse error's): made safe for a terminal, as any text from outside.
  const warn = (message: string) => diagnosticsOf(deps).warn({ code: 'mcp_protocol_error', message: `mkt mcp: ${printable(message)}` });
  server.server.onerror = (error) => warn(error.message);

  const stdin = deps.io.stdin;
  if (deps.io.stdinIsTTY) {
    deps.io.stderr.write('mkt mcp serves the Model Context Protocol on standard input and output, for an MCP client to start (mkt mcp --help); Ctrl-C ends it\n');
  }
  const ended = new Promise<'stdin' | 'signal'>((resolve) => {
    stdin.once('end', () => resolve('stdin'));
    stdin.once('close', () => resolve('stdin'));
    if (deps.signal.aborted) resolve('signal');
    deps.signal.addEventListener('abort', () => resolve('signal'), { once: true });
  });
  await server.connect(new StdioTransport(stdin, deps.io.stdout, { methods: METHODS, warn }));
  // The client has gone: the calls under way answer first (their own deadlines and --max-wait bound
  // them; the SDK sends each answer a few promise turns after the call's own), then the server
  // closes. A signal has aborted them already: the server closes first, and they only clean up.
  if (await ended === 'signal') await server.close();
  await Promise.allSettled([...session.pending]);
  await new Promise((resolve) => setImmediate(resolve));
  await server.close();
  return ExitCode.OK;
}

/**
 * The settings every call would refuse, refused before serving (exit 2), as any command refuses
 * them: --timeout, --retries, --max-wait, the CA file, the proxies (by making a call's dispatcher,
 * then closing it), and --profile. Credentials are looked for at each call: missing ones are the
 * call's error, and a `mkt login` while the server runs counts from the next call.
 */
async function checkSettings(deps: Deps, flags: McpFlags): Promise<void> {
  const trial: RunState = { exitCode: ExitCode.OK, cleanups: [] };
  try {
    await createClientSettings(deps, flags, trial, { longRunning: true });
  } finally {
    for (const cleanup of trial.cleanups.reverse()) await cleanup().catch(() => {});
  }
  resolveProfile(deps, flags.profile);
}
