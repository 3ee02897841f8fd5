// What a writer that died leaves behind: its process is gone, its lock names it.
import { spawn } from 'node:child_process';
import os from 'node:os';

/** The pid of a process that has exited (and been reaped). */
export async function deadProcess(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

/** A lock file's text naming a writer on this host that no longer runs. */
export function deadLock(pid: number, id = `deadwriter${pid}`): string {
  return `${JSON.stringify({ host: os.hostname(), pid, start: '1', id })}\n`;
}
