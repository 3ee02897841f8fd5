// Ctrl-Z and `fg` for the live board, as less and htop do them. Suspending (the Ctrl-Z key read in
// raw mode, or SIGTSTP) gives the terminal back first (the normal screen, the cursor, cooked mode)
// and then really stops the process, so the shell's prompt lands on a usable terminal; once the job
// is continued the board takes the terminal again and is redrawn. A SIGCONT the board did not ask
// for (after `kill -STOP`, which cannot be caught) finds the terminal in whatever mode the shell
// left, so it takes the terminal again too.
import type { WatchTerminal } from './terminal.js';

/** What holds the terminal while the board runs: the screen (board-output.ts) and the keys (keys.ts). */
export interface Suspendable {
  /** Gives back what it took of the terminal. */
  suspend(): void;
  /** Takes it again, whatever state the terminal is in now. */
  resume(): void;
}

export interface JobControl {
  /** Suspends the board and stops the process; returns after the job is continued and redrawn. */
  suspend(): void;
  /** Stops listening for the signals; idempotent. */
  stop(): void;
}

/** `parts` in the order they took the terminal; they give it back in reverse. */
export function handleJobControl(terminal: WatchTerminal, parts: readonly Suspendable[]): JobControl {
  let stopped = false;
  const resume = () => {
    if (!stopped) for (const part of parts) part.resume();
  };
  const suspend = () => {
    if (stopped) return;
    for (const part of [...parts].reverse()) part.suspend();
    terminal.stopProcess();
    // Continued (or never stopped: the kernel ignores SIGTSTP in an orphaned process group). The
    // SIGCONT that continued the job arrives later as an event and redraws once more, harmlessly.
    resume();
  };
  const offSuspend = terminal.onSuspend(suspend);
  const offContinue = terminal.onContinue(resume);
  return {
    suspend,
    stop() {
      if (stopped) return;
      stopped = true;
      offSuspend();
      offContinue();
    },
  };
}
