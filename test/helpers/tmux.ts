// A real terminal for tests: a detached tmux session on its own server socket.
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';

export const hasTmux = (() => {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

export interface TmuxSession {
  screen(): string;
  /** Types text as it is (`send-keys -l`). */
  type(text: string): void;
  /** Named keys: Enter, C-c, q. */
  press(...keys: string[]): void;
  kill(): void;
}

/**
 * A tmux server socket named `name` in the run's temporary directory (npm test removes it at the
 * end): `tmux -L` would leave its socket in /tmp/tmux-<uid> for good.
 */
export function tmuxSocket(name: string): string {
  return path.join(os.tmpdir(), name);
}

/** Runs `command` with sh in a new session `columns` x `rows` on the server socket `name`. */
export function startTmux(name: string, command: string, columns = 120, rows = 20): TmuxSession {
  const tmux = (...args: string[]) => execFileSync('tmux', ['-S', tmuxSocket(name), ...args]).toString();
  tmux('new-session', '-d', '-x', String(columns), '-y', String(rows), 'sh', '-c', command);
  return {
    screen: () => tmux('capture-pane', '-p'),
    type: (text) => void tmux('send-keys', '-l', text),
    press: (...keys) => void tmux('send-keys', ...keys),
    kill: () => {
      try {
        tmux('kill-server');
      } catch {
        // already gone
      }
    },
  };
}

/** Polls `condition` every 50 ms, for at most `timeoutMs`. */
export async function waitUntil(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
