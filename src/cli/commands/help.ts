// mkt help [command | exit-codes | environment]: command help plus two reference topics.
import type { Command } from 'commander';
import { setArgumentValues } from '../completion/candidates.js';
import type { Deps } from '../deps.js';
import { EXIT_CODE_TABLE } from '../errors/exit-codes.js';
import { UsageError } from '../errors/errors.js';
import { formatDuration } from '../../shared/duration.js';
import { DEFAULT_MAX_WAIT_MS, DEFAULT_RETRIES, DEFAULT_TIMEOUT_MS, MAX_CA_FILE_BYTES } from '../../shared/limits.js';
import { formatBytes } from '../../shared/read-limited.js';

const ENVIRONMENT: ReadonlyArray<readonly [string, string]> = [
  ['MKT_BASE_URL', 'the service address (no built-in default)'],
  ['MKT_ORG', 'the organization, org_<id>'],
  ['MKT_PROFILE', 'the profile (default "default")'],
  ['MKT_TOKEN', 'an access token to use instead of the stored one (with MKT_ORG and MKT_BASE_URL, no login needed); in CI, from a secret store'],
  ['MKT_API_KEY', 'the API key for mkt login, in CI from a secret store (typed on a command line, a real key lands in shell history)'],
  ['MKT_CLIENT_ID, MKT_CLIENT_SECRET', 'client credentials for mkt token, and for getting and renewing tokens by themselves, each client its own (mkt status counts them)'],
  ['MKT_CONFIG_DIR', 'the directory of config.json (default: the OS config directory, e.g. ~/.config/mkt)'],
  ['MKT_FORMAT', 'the default output format of mkt quotes and mkt value, --watch included (and so of their errors: JSON with json or ndjson)'],
  ['MKT_PRECISION', 'how mkt value writes the figures it computes when --precision is not given: minor, full, or 0 to 34 places'],
  ['MKT_TIMEOUT, MKT_RETRIES, MKT_MAX_WAIT', `defaults for --timeout (${formatDuration(DEFAULT_TIMEOUT_MS)}), --retries (${DEFAULT_RETRIES}), --max-wait (${formatDuration(DEFAULT_MAX_WAIT_MS)})`],
  ['MKT_CA_FILE', `extra CA certificates (PEM, at most ${formatBytes(MAX_CA_FILE_BYTES)}) to trust; NODE_EXTRA_CA_CERTS works too`],
  ['HTTPS_PROXY, HTTP_PROXY, NO_PROXY', 'proxies (either case)'],
  ['MKT_DEBUG=1', 'print requests (secrets redacted) and stack traces; under a JSON format, as {"debug": {"message"}} lines'],
  ['MKT_ALLOW_INSECURE_HTTP=1', 'allow plain http to hosts other than loopback'],
  ['NO_COLOR, FORCE_COLOR, TERM=dumb', 'colour: off, on, off'],
  ['XDG_CACHE_HOME', "on Linux, where Node's compile cache for mkt lives ($XDG_CACHE_HOME/mkt; compiled code only)"],
  ['NODE_DISABLE_COMPILE_CACHE', 'set at all: no compile cache'],
];

const JSON_STDERR = `
Under a JSON format (--json, -f json or ndjson, MKT_FORMAT, the profile's format), every line on
stderr is JSON: {"warning": {"code", "message", "hint"}}, {"debug": {"message"}} (-v, MKT_DEBUG),
{"wait": {...}}, and the error, {"error": {"code", "message", "status", "exit_code", "hint",
"request_id"}}, last. The warning codes are listed in the README (Exit codes).
`;

/** The reference topics, by name: a Map, so that no name a user types finds Object's own members. */
const TOPICS = new Map<string, { summary: string; text: () => string }>([
  ['exit-codes', {
    summary: 'the exit codes, the same for every command',
    text: () => `Exit codes (the same for every command):\n${EXIT_CODE_TABLE.map(([code, meaning]) => `  ${String(code).padStart(3)}  ${meaning}`).join('\n')}\n${JSON_STDERR}`,
  }],
  ['environment', {
    summary: 'the environment variables mkt reads',
    text: () => {
      const width = Math.max(...ENVIRONMENT.map(([name]) => name.length)) + 2;
      return `Environment variables:\n${ENVIRONMENT.map(([name, meaning]) => `  ${name.padEnd(width)}${meaning}`).join('\n')}\n`;
    },
  }],
]);

export function registerHelp(program: Command, deps: Deps): void {
  program.helpCommand(false);
  const help = program.command('help')
    .argument('[topic...]', 'a command, or exit-codes, or environment')
    .description('show help for a command, the exit codes, or the environment variables')
    .action((topic: string[]) => {
      const [first] = topic;
      if (first === undefined) return program.outputHelp();
      const text = TOPICS.get(first)?.text;
      if (text) return deps.io.stdout.write(text());
      let command: Command | undefined = program;
      for (const name of topic) command = command === undefined ? undefined : subcommand(command, name);
      if (!command) {
        const commands = subcommands(program).map((c) => c.name());
        throw new UsageError(`no help topic or command "${topic.join(' ').slice(0, 80)}"`, `topics: ${[...TOPICS.keys()].join(', ')}; commands: ${commands.join(', ')}`);
      }
      command.outputHelp();
    });
  // `mkt help <TAB>`: a topic or a command, then that command's subcommands.
  setArgumentValues(help, (args) => {
    let command: Command | undefined = program;
    for (const name of args) command = command === undefined ? undefined : subcommand(command, name);
    const commands = command === undefined ? [] : subcommands(command).map((sub) => ({ value: sub.name(), description: sub.description() }));
    return args.length > 0 ? commands : [...[...TOPICS].map(([value, { summary }]) => ({ value, description: summary })), ...commands];
  });
}

/** The commands `mkt --help` lists under `command`: not the hidden __complete, not help itself. */
function subcommands(command: Command): Command[] {
  return command.createHelp().visibleCommands(command).filter((sub) => sub.name() !== 'help');
}

function subcommand(command: Command, name: string): Command | undefined {
  return subcommands(command).find((sub) => sub.name() === name || sub.aliases().includes(name));
}
