// Builds a fresh commander program per run, bound to the injected IO: no process.exit, no shared
// state between runs (tests build many).
import { Command } from 'commander';
import type { Deps } from './deps.js';
import type { RunState } from './run-state.js';
import { diagnosticsOf } from './output/diagnostics.js';
import { diagnosticsAsJson } from './options/format.js';
import { createTerminal } from './output/terminal.js';
import { VERSION } from './version.js';
import { addTargetOptions } from './options/target.js';
import { QUIET_HELP } from './options/network.js';
import { registerConfig } from './commands/config.js';
import { registerCompletion } from './commands/completion.js';
import { registerHelp } from './commands/help.js';
import { registerLogin } from './commands/login.js';
import { registerLogout } from './commands/logout.js';
import { registerMcp } from './commands/mcp.js';
import { registerQuotes } from './commands/quotes.js';
import { registerSandbox } from './commands/sandbox.js';
import { registerStatus } from './commands/status.js';
import { registerToken } from './commands/token.js';
import { registerValue } from './commands/value.js';

/** Adds a command to the program, bound to the run's deps and state. */
export type RegisterCommand = (program: Command, deps: Deps, state: RunState) => void;

/** Every command, in the order `mkt --help` lists them: the one list of them. */
export const COMMANDS: readonly RegisterCommand[] = [
  registerLogin, registerToken, registerLogout, registerStatus, registerConfig, registerQuotes, registerValue, registerMcp, registerSandbox, registerCompletion, registerHelp,
];

/** `commands`: COMMANDS, unless a test adds one of its own (a command main knows nothing of). */
export function createProgram(deps: Deps, state: RunState, commands: readonly RegisterCommand[] = COMMANDS): Command {
  const program = new Command('mkt')
    .description('Market Data Service from the command line: log in, get exact quotes, run a local sandbox.')
    .version(VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    // Shared flags go before the command too (`mkt --profile ci quotes EURUSD`), as gh, aws and
    // kubectl take them; after it, the command's own parse takes them, and its value wins.
    .enablePositionalOptions()
    .showSuggestionAfterError(true)
    .addHelpText('after', `
The shared options go before or after the command: \`mkt --profile ci quotes EURUSD\`.

Examples:
  $ mkt login --org org_demo                   # prompts for the API key, masked (interactive)
  $ mkt login --with-api-key --org org_demo < key.txt
  $ mkt quotes EURUSD AAPL                     # a table on a terminal, TSV in a pipe
  $ mkt quotes EURUSD --json | jq '.data[0].mid'
  $ mkt sandbox --port 0                       # a local Market Data Service with a demo key (long-running)

Run \`mkt help exit-codes\` for the exit codes and \`mkt help environment\` for the environment variables.`);
  addTargetOptions(program);
  program
    .option('-v, --verbose', 'print each request and response on stderr (secrets redacted; JSON lines under a JSON format)')
    .option('-q, --quiet', QUIET_HELP);
  configure(program, deps, state);

  for (const register of commands) register(program, deps, state);
  for (const command of program.commands) configure(command, deps, state);
  // The run's terminal, once the flags are parsed: --no-color holds for every command, before it or
  // after; and whether stderr is JSON lines, which follows the command's format (output/diagnostics.ts).
  program.hook('preAction', (_program, action) => {
    diagnosticsOf(deps).decide(diagnosticsAsJson(deps, action));
    state.terminal = createTerminal(deps, { noColor: colorRefused(action) });
  });
  return program;
}

const NO_COLOR_HELP = 'never use colour (also NO_COLOR=1 or TERM=dumb)';

/** --no-color given to the command that runs or to one above it (`mkt --no-color quotes`, `mkt quotes --no-color`). */
function colorRefused(command: Command): boolean {
  for (let current: Command | null = command; current !== null; current = current.parent) {
    if (current.opts<{ color?: boolean }>().color === false) return true;
  }
  return false;
}

function configure(command: Command, deps: Deps, state: RunState): void {
  // Every command takes --no-color, as it takes the other shared flags, before it or after it.
  if (!command.options.some((option) => option.long === '--no-color')) command.option('--no-color', NO_COLOR_HELP);
  command
    // main words an error for the command that ran, in its output format: known as soon as it is
    // chosen, so that a flag it fails to parse (`mkt quotes --json --bogus`) is worded for it too.
    .hook('preSubcommand', (_parent, sub) => {
      state.command = sub;
    })
    .exitOverride()
    .configureOutput({
      writeOut: (text) => deps.io.stdout.write(text),
      // commander writes help here only when a command group runs without a subcommand (`mkt`,
      // `mkt config`): gh prints that help on stdout and exits 0, and so does mkt (main).
      writeErr: (text) => deps.io.stdout.write(text),
      // main reports parse errors itself, in text or JSON, with the exit code table's code.
      outputError: () => {},
      getOutHelpWidth: () => deps.io.columns ?? 80,
      getErrHelpWidth: () => deps.io.columns ?? 80,
    });
  for (const sub of command.commands) configure(sub, deps, state);
}
