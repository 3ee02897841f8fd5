// A real terminal for tests: a detached tmux session on its own server socket.
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

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

/** A tmux server of a test file's own, driven without blocking: its sessions run while the test waits. */
export interface TmuxServer {
  /** tmux with these arguments on the server (no configuration file read); its stdout. */
  tmux(...args: string[]): Promise<string>;
  /** What the session's pane shows. */
  screen(session: string): Promise<string>;
  /** Polls `probe` every 100 ms until it returns a value, for at most `ms`; the failure shows the screen. */
  waitFor<T>(what: string, session: string, probe: () => Promise<T | undefined>, ms?: number): Promise<T>;
  /** Ends the server, its sessions and what runs in them, and removes its socket file (kill-server leaves it). */
  close(): Promise<void>;
}

/** The server on socket `name` (tmuxSocket); tmux runs with `env()`, read at each call (a sandbox's URL is known once it has started). */
export function tmuxServer(name: string, env: () => NodeJS.ProcessEnv): TmuxServer {
  const tmux = async (...args: string[]) => (await run('tmux', ['-S', tmuxSocket(name), '-f', '/dev/null', ...args], { env: env(), timeout: 5000 })).stdout;
  const screen = (session: string) => tmux('capture-pane', '-p', '-t', session);
  return {
    tmux,
    screen,
    async waitFor(what, session, probe, ms = 10_000) {
      const deadline = Date.now() + ms;
      for (;;) {
        const value = await probe();
        if (value !== undefined) return value;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; the screen:\n${await screen(session).catch(() => '(gone)')}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async close() {
      const socket = (await tmux('display-message', '-p', '#{socket_path}').catch(() => '')).trim();
      await tmux('kill-server').catch(() => {});
      if (socket.endsWith(name)) fs.rmSync(socket, { force: true });
    },
  };
}
