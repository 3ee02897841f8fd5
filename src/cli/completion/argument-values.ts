// A command's own candidates for its arguments, where commander's `.choices()` cannot say them (cobra's
// ValidArgsFunction): `mkt help <TAB>` takes a topic or a command path. Kept apart from the generator so
// that registering one costs a command nothing at start-up.
import type { Command } from 'commander';

export interface Candidate {
  value: string;
  description?: string;
}

/** The candidates for the next argument, given the arguments typed before it. */
export type ArgumentValues = (args: readonly string[]) => Candidate[];

const VALUES = new WeakMap<Command, ArgumentValues>();

export function setArgumentValues(command: Command, values: ArgumentValues): Command {
  VALUES.set(command, values);
  return command;
}

export function argumentValues(command: Command): ArgumentValues | undefined {
  return VALUES.get(command);
}
