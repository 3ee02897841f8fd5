// Whether processes a test started are still there, read from /proc (Linux): a test that ends a
// program's process group proves it by the pids it wrote, not by what mkt says. A zombie counts as
// gone: it is dead, and only waits for a parent to reap it (PID 1 here may never do so).
import fs from 'node:fs';

export const hasProc = fs.existsSync('/proc/self/stat');

/** Whether `pid` is a live process (not a zombie). */
export function isAlive(pid: number): boolean {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return false;
  }
  // pid (comm) state ...: the command may hold spaces and parentheses, so the state follows the last ')'.
  return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
}

/** The live processes (zombies aside) of process group `pgid`. */
export function groupMembers(pgid: number): number[] {
  const members: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    // After the command: state, ppid, pgrp.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === pgid && state !== 'Z') members.push(Number(entry));
  }
  return members;
}

/**
 * Resolves once `done()` holds, checking every 20 ms, at most `limit` times (10 s): a killed process
 * takes a moment to die, a started one to write its pid. Rejects, saying `what`, if it never holds.
 */
export async function eventually(done: () => boolean, what: string, limit = 500): Promise<void> {
  for (let tries = 0; tries < limit; tries++) {
    if (done()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${what} did not happen within ${limit} checks`);
}

/** Kills what a test left running (a failed test's program), ignoring what is gone. */
export function killAll(pids: readonly number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
}
