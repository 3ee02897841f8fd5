// What one run of mkt shares between main and the command that runs: main creates it, the command
// sets what it returns and what to clean up. Its own module, so that commands need nothing of main's
// (main -> program -> command -> main was an import cycle, if only of types).
import type { Command } from 'commander';

export interface RunState {
  /** What main returns when the command finishes without throwing. */
  exitCode: number;
  /** Run by main after the command, last registered first (closing HTTP connections, say). */
  cleanups: Array<() => Promise<void>>;
  /** The command that runs, set once its options are parsed: main words its errors for it. */
  command?: Command;
  /** How many symbols `mkt quotes` asked for, to word a rate-limit plan. */
  symbolCount?: number;
}
