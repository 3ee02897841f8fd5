// `mkt completion <shell>`: the shell's script, a shim that asks `mkt __complete` at each Tab.
import { BASH_SCRIPT } from './bash.js';
import { FISH_SCRIPT } from './fish.js';
import type { Shell } from './shells.js';
import { ZSH_SCRIPT } from './zsh.js';

export function completionScript(shell: Shell): string {
  switch (shell) {
    case 'bash': return BASH_SCRIPT;
    case 'zsh': return ZSH_SCRIPT;
    case 'fish': return FISH_SCRIPT;
  }
}
