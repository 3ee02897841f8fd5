// mkt completion bash|zsh|fish: a small script per shell that asks the hidden `mkt __complete` for
// the candidates at each Tab, as cobra's scripts do. One generator (completion/complete.ts) reads
// the live command tree, so every command, option and choice completes without a list to keep up
// to date, and profile names are read from the config file when Tab is pressed.
import { Argument, type Command } from 'commander';
import { SHELLS, type Shell } from '../completion/shells.js';
import type { Deps } from '../deps.js';
import { UsageError } from '../errors/errors.js';
import { choiceParser } from '../options/choice-parser.js';
import type { RunState } from '../run-state.js';
import { PROFILE_PATTERN } from '../options/settings.js';

export function registerCompletion(program: Command, deps: Deps, state: RunState): void {
  program.command('completion')
    .description('print a shell completion script: commands, options and their values (formats, fields, currencies, file names), profile names')
    .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(SHELLS).argParser(shellNamed))
    .addHelpText('after', `
Load it in the current shell:
  $ source <(mkt completion bash)            # bash (set-up)
  $ source <(mkt completion zsh)             # zsh, after compinit (set-up)
  $ mkt completion fish | source             # fish (set-up)

Install it for every new shell (for bash, adding the first line to ~/.bashrc does as well):
  $ mkdir -p ~/.local/share/bash-completion/completions && mkt completion bash > ~/.local/share/bash-completion/completions/mkt
  $ mkt completion zsh > "\${fpath[1]}/_mkt"   # zsh: any directory in $fpath (set-up)
  $ mkdir -p ~/.config/fish/completions && mkt completion fish > ~/.config/fish/completions/mkt.fish

The script asks mkt for the candidates at each Tab: new commands, options and profiles complete
without reinstalling it.`)
    .action(async (shell: Shell) => {
      // The scripts load only for this command, not on every run of mkt.
      const { completionScript } = await import('../completion/script.js');
      deps.io.stdout.write(completionScript(shell));
      state.exitCode = 0;
    });

  // Called by the scripts at each Tab, with the words after `mkt` (after a `--`, so that none is
  // taken for an option of its own); hidden from help. A completion never prints an error into the
  // prompt: whatever fails, the answer is no candidates and the error directive.
  program.command('__complete', { hidden: true })
    .description('the candidates for the last word: one per line, then :<directive>')
    .argument('[words...]')
    .helpOption(false)
    .allowUnknownOption()
    .passThroughOptions()
    .action(async (words: string[]) => {
      const { complete, Directive, formatCompletion } = await import('../completion/complete.js');
      let answer: string;
      try {
        answer = formatCompletion(complete(program, words, new Map([['--profile', () => profileNames(deps)]])));
      } catch {
        answer = `:${Directive.error}\n`;
      }
      deps.io.stdout.write(answer);
      state.exitCode = 0;
    });
}

const shellNamed = choiceParser(SHELLS, (given, valid) => new UsageError(`mkt completion has no script for ${given}`, `the shells are ${valid}: mkt completion bash`));

/**
 * The profiles --profile accepts that hold something. The file can hold any key (written by hand or
 * by another tool), and a shell is about to read these lines: `$(...)` in one must never reach it.
 */
function profileNames(deps: Deps): string[] {
  return deps.config.profileNames().filter((name) => PROFILE_PATTERN.test(name) && Object.keys(deps.config.profile(name) ?? {}).length > 0);
}
