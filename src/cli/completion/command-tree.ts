// The commander command tree as data for completion scripts: every visible command path with its
// subcommands, options (and whether they take a value, their choices) and the words its arguments
// accept. Read from the live program, so a new command or option completes without touching this.
import type { Command, Option } from 'commander';

/** Values looked up when the user presses Tab (they change after the script is generated). */
export type DynamicValues = 'profiles';

/** Options whose values come from the config store at completion time: `mkt __complete <kind>`. */
export const DYNAMIC_OPTIONS: Readonly<Record<string, DynamicValues>> = { '--profile': 'profiles' };

export interface OptionSpec {
  /** Short and long forms: ['-f', '--format']. */
  flags: string[];
  description: string;
  takesValue: boolean;
  /** From `.choices()`, e.g. --format's table, tsv, json... */
  choices: string[];
  dynamic: DynamicValues | undefined;
  /** The value is a file or directory name (`<file>`, `<path>`, `<dir>`). */
  files: boolean;
}

export interface CommandSpec {
  /** [] for the program itself, ['config', 'get'] for `mkt config get`. */
  path: string[];
  subcommands: Array<{ name: string; description: string }>;
  options: OptionSpec[];
  /** Words its arguments accept: their `.choices()`, or the command names for `help`. */
  words: string[];
}

/**
 * One entry per visible command, the program first, each with its own options. The program's go
 * before the command only (positional options: after it, the command's own parse reads them, and
 * every command defines the shared ones it takes).
 */
export function describeCommands(program: Command): CommandSpec[] {
  const specs: CommandSpec[] = [];
  const visit = (command: Command, path: string[]) => {
    const help = command.createHelp();
    const subcommands = help.visibleCommands(command);
    const options = help.visibleOptions(command).map(describeOption);
    const words = command.registeredArguments.flatMap((argument) => argument.argChoices ?? []);
    // `mkt help <command>` takes a command name; commander has no way to say so on the argument.
    if (path.length === 1 && command.name() === 'help') {
      words.push(...program.createHelp().visibleCommands(program).filter((sub) => sub !== command).map((sub) => sub.name()));
    }
    specs.push({
      path,
      subcommands: subcommands.flatMap((sub) => [sub.name(), ...sub.aliases()].map((name) => ({ name, description: sub.description() })))
        .filter((sub) => isSafeWord(sub.name)),
      options: options
        .map((option) => ({ ...option, flags: option.flags.filter(isSafeWord), choices: option.choices.filter(isSafeWord) }))
        .filter((option) => option.flags.length > 0),
      words: words.filter(isSafeWord),
    });
    // The implicit `help` placeholder commander adds is not in `commands`, so it is not descended into.
    for (const sub of subcommands) if (command.commands.includes(sub)) visit(sub, [...path, sub.name()]);
  };
  visit(program, []);
  return specs;
}

function describeOption(option: Option): OptionSpec {
  const flags = [option.short, option.long].filter((flag): flag is string => flag !== undefined);
  const valueName = /[<[]([^>\]]+)[>\]]/.exec(option.flags)?.[1] ?? '';
  return {
    flags,
    description: option.description,
    takesValue: option.required || option.optional,
    choices: option.argChoices ?? [],
    dynamic: option.long === undefined ? undefined : DYNAMIC_OPTIONS[option.long],
    files: /file|path|dir/i.test(valueName),
  };
}

/**
 * The words the scripts embed (commands, flags, choices) are checked, so none can break out of a
 * shell's quoting or zsh's name:description pairs; descriptions are quoted by each script.
 */
export function isSafeWord(word: string): boolean {
  return /^-{0,2}[A-Za-z0-9][A-Za-z0-9_.+-]*$/.test(word);
}

export interface CaseKeys {
  /** `path|name` for every subcommand. */
  commandKeys: string[];
  /** `path|flag` for every option that takes a value. */
  valueKeys: string[];
  /** `path|flag` keys grouped by how their values complete (the shell's own action text). */
  valueCases: Map<string, string[]>;
}

/** The `case` patterns both the bash and the zsh scripts look words up in. */
export function caseKeys(specs: readonly CommandSpec[], valueAction: (option: OptionSpec) => string | undefined): CaseKeys {
  const key = (spec: CommandSpec, word: string) => `${spec.path.join(' ')}|${word}`;
  const valueCases = new Map<string, string[]>();
  for (const spec of specs) {
    for (const option of spec.options) {
      const action = valueAction(option);
      if (action === undefined) continue;
      valueCases.set(action, [...(valueCases.get(action) ?? []), ...option.flags.map((flag) => key(spec, flag))]);
    }
  }
  return {
    commandKeys: specs.flatMap((spec) => spec.subcommands.map((sub) => key(spec, sub.name))),
    valueKeys: specs.flatMap((spec) => spec.options.filter((option) => option.takesValue).flatMap((option) => option.flags.map((flag) => key(spec, flag)))),
    valueCases,
  };
}
