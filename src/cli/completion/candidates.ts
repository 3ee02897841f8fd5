// A command's own candidates for its arguments and options, where commander's `.choices()` cannot say
// them (cobra's ValidArgsFunction and RegisterFlagCompletionFunc): `mkt help <TAB>` takes a topic or
// a command path, `--base <TAB>` a currency code. Read at Tab time; kept apart from the generator so
// that registering one costs a command nothing at start-up.
import type { Command, Option } from 'commander';

export interface Candidate {
  value: string;
  description?: string;
}

/** The candidates for the next argument, given the arguments typed before it. */
export type ArgumentValues = (args: readonly string[]) => Candidate[];

const VALUES = new WeakMap<Command, ArgumentValues>();
const OPTION_VALUES = new WeakMap<Option, () => readonly Candidate[]>();

export function setArgumentValues(command: Command, values: ArgumentValues): Command {
  VALUES.set(command, values);
  return command;
}

export function argumentValues(command: Command): ArgumentValues | undefined {
  return VALUES.get(command);
}

/** `values` gives the candidates for the option's value, without making them its choices (which help would list). */
export function setOptionValues(option: Option, values: () => readonly Candidate[]): Option {
  OPTION_VALUES.set(option, values);
  return option;
}

export function optionValues(option: Option): (() => readonly Candidate[]) | undefined {
  return OPTION_VALUES.get(option);
}
