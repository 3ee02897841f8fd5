// What one run of mkt shares between main and the command that runs: main creates it, the command
// sets what it returns and what to clean up. Its own module, so that commands need nothing of main's
// (main -> program -> command -> main was an import cycle, if only of types).
import type { Command } from 'commander';
import type { Explainer, SettingNames } from './hints/words.js';
import type { Terminal } from './output/terminal.js';

export interface RunState {
  /** What main returns when the command finishes without throwing. */
  exitCode: number;
  /** Run by main after the command, last registered first (closing HTTP connections, say). */
  cleanups: Array<() => Promise<void>>;
  /** The command that runs, set once its options are parsed: main words its errors for it. */
  command?: Command;
  /**
   * The running command's words for its errors, registered when it runs: main asks it first, then
   * words what it leaves unsaid generically (errors/explain.ts). A command without one gets only those.
   */
  explain?: Explainer;
  /** The run's terminal, made by program.ts once the command's flags are parsed (output/terminal.ts). */
  terminal?: Terminal;
  /** How the settings of the run's client were given (network/client.ts), for hints that name them. */
  names?: SettingNames;
  /** With --exec, the words after its `--`: the program's arguments (main.ts, exec/split-program-args.ts). */
  programArgs?: readonly string[];
}
