// `mkt completion <shell>`: the script for one shell, from the live command tree.
import type { Command } from 'commander';
import { bashScript } from './bash.js';
import { describeCommands } from './command-tree.js';
import { fishScript } from './fish.js';
import type { Shell } from './shells.js';
import { zshScript } from './zsh.js';

export function generateCompletion(shell: Shell, program: Command): string {
  const specs = describeCommands(program);
  switch (shell) {
    case 'bash': return bashScript(specs);
    case 'zsh': return zshScript(specs);
    case 'fish': return fishScript(specs);
  }
}
