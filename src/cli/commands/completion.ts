// mkt completion bash|zsh|fish (issue 7): a completion script generated from the command tree at
// run time, so every command, option and --format value completes without a list to keep up to
// date. Profile names change after the script is installed, so the script asks the hidden
// `mkt __complete profiles` for them at Tab time instead of embedding them.
import { Argument, type Command } from 'commander';
import { SHELLS, type Shell } from '../completion/shells.js';
import type { Deps } from '../deps.js';
import { UsageError } from '../errors.js';
import type { RunState } from '../run-state.js';
import { PROFILE_PATTERN } from '../settings.js';

/** What `mkt __complete <kind>` can list. */
const DYNAMIC: Record<string, (deps: Deps) => string[]> = {
  // Only names --profile accepts. The file can hold any key (written by hand or by another tool), and
  // a shell is about to read these lines: `$(...)` in one must never reach it as a candidate.
  profiles: (deps) => deps.config.profileNames().filter((name) => PROFILE_PATTERN.test(name)),
};

export function registerCompletion(program: Command, deps: Deps, state: RunState): void {
  program.command('completion')
    .description('print a shell completion script: commands, options, --format values, profile names')
    .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(SHELLS))
    .addHelpText('after', `
Load it in the current shell:
  bash:  source <(mkt completion bash)
  zsh:   source <(mkt completion zsh)        # after compinit
  fish:  mkt completion fish | source

Install it for every new shell:
  bash:  mkt completion bash > ~/.local/share/bash-completion/completions/mkt
         (or add "source <(mkt completion bash)" to ~/.bashrc)
  zsh:   mkt completion zsh > "\${fpath[1]}/_mkt"   # any directory in $fpath
  fish:  mkt completion fish > ~/.config/fish/completions/mkt.fish

Profile names are looked up when you press Tab, so new profiles complete without reinstalling.`)
    .action(async (shell: Shell) => {
      // The generators load only for this command, not on every run of mkt.
      const { generateCompletion } = await import('../completion/generate.js');
      deps.io.stdout.write(generateCompletion(shell, program));
      state.exitCode = 0;
    });

  // Called by the scripts at Tab time; hidden from help. Prints one value per line, and nothing at
  // all when the values cannot be read: a completion must never print an error into the prompt.
  program.command('__complete', { hidden: true })
    .argument('<kind>', Object.keys(DYNAMIC).join(', '))
    .action((kind: string) => {
      const list = DYNAMIC[kind];
      if (list === undefined) throw new UsageError(`nothing to complete for "${kind.slice(0, 40)}"`, `known: ${Object.keys(DYNAMIC).join(', ')}`);
      let values: string[] = [];
      try {
        values = list(deps);
      } catch {
        values = [];
      }
      if (values.length > 0) deps.io.stdout.write(`${values.join('\n')}\n`);
    });
}
