// What a writer killed between its write and its rename leaves: the new file (a token, perhaps)
// beside the old one, and its lock. The next writer removes them, holding the lock (when every
// temporary file is a dead writer's), and so does a reader that finds the lock free.
import fs from 'node:fs';
import path from 'node:path';
import { LOCK_STALE_MS } from '../shared/limits.js';
import { temporaryPrefix } from './atomic-write.js';
import { removeAbandoned, tryLock } from './file-lock.js';

/** Removes the temporary files of writes of `target` and the lock family's abandoned files. Only holding `lock`. */
export function removeLeftovers(target: string, lock: string): void {
  const dir = path.dirname(target);
  const prefix = path.basename(temporaryPrefix(target));
  for (const name of fs.readdirSync(dir)) {
    // A write leaves regular files only; anything else of that name is not mkt's.
    if (name.startsWith(prefix) && fs.lstatSync(path.join(dir, name), { throwIfNoEntry: false })?.isFile()) {
      fs.rmSync(path.join(dir, name), { force: true });
    }
  }
  removeAbandoned(lock, LOCK_STALE_MS);
}

/**
 * For a reader: removes the leftovers seen in the listings `names` (of the target's directory) and
 * `locks` (of the lock's), if no one holds the lock. A read does not fail for what it could not tidy.
 */
export function tidyLeftovers(target: string, lock: string, names: string[], locks: string[]): void {
  const prefix = path.basename(temporaryPrefix(target));
  if (!names.some((name) => name.startsWith(prefix)) && !locks.some((name) => name.startsWith(path.basename(lock)))) return;
  try {
    const attempt = tryLock(lock, LOCK_STALE_MS);
    if (!('release' in attempt)) return;
    try {
      removeLeftovers(target, lock);
    } finally {
      attempt.release();
    }
  } catch {
    // The next write tries again.
  }
}
