// Replacing a file so that a reader sees the old one or the new one, never half of either: the new
// text is written whole to a temporary file beside it (mode 0600, whatever the umask), flushed, and
// renamed over it. This is what is left of conf's writer (atomically), whose signal handlers gave one
// Ctrl-C two outcomes (README, "The config file").
import fs from 'node:fs';
import { FILE_MODE } from './modes.js';

/** The prefix of the temporary files a write of `target` leaves if it is killed before its rename. */
export function temporaryPrefix(target: string): string {
  return `${target}.tmp-`;
}

/** Replaces `target` (a file, not a link to one) with `text`, mode 0600. */
export function writeAtomically(target: string, text: string): void {
  const temporary = `${temporaryPrefix(target)}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
  const fd = fs.openSync(temporary, 'wx', FILE_MODE);
  try {
    fs.writeFileSync(fd, text);
    fs.fchmodSync(fd, FILE_MODE); // the umask may have narrowed it
    fs.fsyncSync(fd);
  } catch (error) {
    fs.closeSync(fd);
    fs.rmSync(temporary, { force: true });
    throw error;
  }
  fs.closeSync(fd);
  try {
    fs.renameSync(temporary, target);
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    throw error;
  }
}
