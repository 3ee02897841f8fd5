// mkt mcp: mkt's data for AI agents, as a Model Context Protocol server on standard input and
// output (src/cli/mcp/). The server and the SDK under it load only when this command runs.
import type { Command } from 'commander';
import { formatDuration } from '../../shared/duration.js';
import { MAX_MCP_MESSAGE_BYTES } from '../../shared/limits.js';
import { formatBytes } from '../../shared/read-limited.js';
import type { Deps } from '../deps.js';
import { MCP_MAX_WAIT_MS, PROGRESS_EVERY_MS } from '../mcp/wait-progress.js';
import { commandOptions } from '../options/command-options.js';
import { addNetworkOptions } from '../options/network.js';
import { addTargetOptions } from '../options/target.js';
import type { RunState } from '../run-state.js';
import type { McpFlags } from '../mcp/tool-call.js';

export function registerMcp(program: Command, deps: Deps, state: RunState): void {
  const command = program.command('mcp')
    .description('serve quotes, valuations, checks and the credentials\' status to AI agents: a Model Context Protocol server on stdin and stdout (read-only)')
    .addHelpText('after', `
An MCP client (Claude Desktop, Claude Code, VS Code, Cursor...) starts it and talks to it on its
standard input and output; nothing else is written there. Tools: get_quotes, value_portfolio,
check_quotes, auth_status. Every price and amount is a decimal string, with every digit. No tool
logs in, logs out or changes the settings: each call uses the profile, token and settings that mkt
quotes would use at that moment (run \`mkt login\` first, or give MKT_TOKEN, or MKT_CLIENT_ID and
MKT_CLIENT_SECRET, in the client's configuration), and the network options hold for each call as
for one run of mkt quotes. Logs and -v request lines go to stderr. It ends when the client closes
its standard input, or on SIGINT or SIGTERM (exit 0).

A malformed message gets its JSON-RPC 2.0 error at once: -32700 for a line that is not JSON (id
null), -32600 for one that is no request (a bad id, say), -32602 for bad params (a bad
_meta.progressToken), and -32600 for a message over ${formatBytes(MAX_MCP_MESSAGE_BYTES)}, which is dropped; the server goes on.
Batches are run only under protocol 2025-03-26, the one version that has them. An error's hint
names the tool's arguments and the server's args and env (the entry's "args" and "env" below), and
an unasked symbol from the service that holds the token is withheld from the result, and counted.

--max-wait is the waiting one call may do, for retries and the rate limit: ${formatDuration(MCP_MAX_WAIT_MS)} unless given,
not mkt's 90s, because MCP clients give up on a call after 60s by default; a call that would need
longer answers at once with an error giving the wait (retry_after_ms). A client that sends a
progress token gets a progress notification as each wait starts and every ${formatDuration(PROGRESS_EVERY_MS)} while it lasts: with
its timeout reset on progress, it can wait for a longer --max-wait.

The entry in a client's configuration (Claude Desktop, Cursor, a project's .mcp.json; the README
has VS Code's and the standalone executable's):
  { "mcpServers": { "mkt": { "command": "mkt", "args": ["mcp"] } } }

Examples:
  $ claude mcp add mkt -- mkt mcp          # Claude Code starts it (set-up)
  $ mkt mcp --profile ci --max-wait 2m     # serves until its standard input ends (long-running)`);
  addNetworkOptions(addTargetOptions(command));
  // The network options' own words give the CLI's default.
  const maxWait = command.options.find((option) => option.long === '--max-wait');
  if (maxWait) maxWait.description = `the most time one tool call spends waiting for retries and rate limits, in all (env MKT_MAX_WAIT; default ${formatDuration(MCP_MAX_WAIT_MS)}, within the 60s after which MCP clients give up on a call)`;
  command.action(async (_options: McpFlags, self: Command) => {
    const { runMcpServer } = await import('../mcp/run-mcp-server.js');
    state.exitCode = await runMcpServer(deps, commandOptions<McpFlags>(self));
  });
}
