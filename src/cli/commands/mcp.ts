// mkt mcp: mkt's data for AI agents, as a Model Context Protocol server on standard input and
// output (src/cli/mcp/). The server and the SDK under it load only when this command runs.
import type { Command } from 'commander';
import type { Deps } from '../deps.js';
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
for one run of mkt quotes (--max-wait: the waiting one call may do). Logs and -v request lines go
to stderr. It ends when the client closes its standard input, or on SIGINT or SIGTERM (exit 0).

The entry in a client's configuration (Claude Desktop, Cursor, a project's .mcp.json; the README
has VS Code's and the standalone executable's):
  { "mcpServers": { "mkt": { "command": "mkt", "args": ["mcp"] } } }

Examples:
  $ claude mcp add mkt -- mkt mcp
  $ mkt mcp --profile ci --max-wait 2m`);
  addNetworkOptions(addTargetOptions(command)).action(async (_options: McpFlags, self: Command) => {
    const { runMcpServer } = await import('../mcp/run-mcp-server.js');
    state.exitCode = await runMcpServer(deps, commandOptions<McpFlags>(self));
  });
}
