// Which shells this machine has, for the completion tests (zsh and fish are optional installs).
import { execFileSync } from 'node:child_process';

const has = (shell: string) => {
  try {
    execFileSync(shell, ['-c', 'exit 0'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

export const shells = { bash: has('bash'), zsh: has('zsh'), fish: has('fish') };
