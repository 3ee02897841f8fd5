// What other users can see of config.json and its directory, said in words. mkt sets a mode only on
// what it creates: the directory when it makes it (0700), and the file at every write (0600, a new
// file renamed into place). A directory it did not make (a home, the working directory, a shared
// /tmp) keeps its mode, whatever it is: the token stays private by the file's own mode, and a warning
// says what is open and how to close it, when mkt writes a secret there. A file others can read is
// said at every read. Reading never changes a mode.
import fs from 'node:fs';
import type { Warning } from '../shared/warnings.js';
import { isPrivateGroup } from './others-can-write.js';

export const FILE_MODE = 0o600;
export const DIR_MODE = 0o700;

export interface PermissionReport {
  path: string;
  exists: boolean;
  /** With the sticky, setuid and setgid bits: 0o1777 for /tmp. */
  fileMode: number | undefined;
  dirMode: number | undefined;
  /** Neither the file nor its directory is open to other users. */
  safe: boolean;
}

/** "0600", "0755", "1777". */
export function formatMode(mode: number): string {
  return mode.toString(8).padStart(4, '0');
}

export function permissionReport(file: string, dir: string): PermissionReport {
  const fileStat = statOf(file);
  const dirStat = statOf(dir);
  const safe = process.platform === 'win32'
    || ((fileStat === undefined || exposed(fileStat, 0o077) === 0) && (dirStat === undefined || exposed(dirStat, 0o066) === 0));
  return { path: file, exists: fileStat !== undefined, fileMode: modeOf(fileStat), dirMode: modeOf(dirStat), safe };
}

/**
 * What other users can read of config.json, with what closes it; nothing is changed. Said at every
 * read, as ssh says it of a private key: the file holds the token.
 */
export function fileWarnings(file: string): Warning[] {
  if (process.platform === 'win32') return [];
  const stat = statOf(file);
  if (stat === undefined || exposed(stat, 0o077) === 0) return [];
  const mode = formatMode(stat.mode & 0o7777);
  const close = `chmod ${formatMode(stat.mode & 0o700)} ${file}`;
  const next = (stat.mode & 0o200) !== 0 ? `mkt closes it at its next write, or run ${close}` : `run ${close}`;
  return [{ code: 'config_file_readable', message: `${file} is readable by other users (mode ${mode})`, hint: stat.uid === process.getuid?.() ? next : `its owner can close it with ${close}` }];
}

/**
 * What other users can see of `dir`, config.json's directory, with what closes it; nothing is
 * changed. Said when mkt has just written a secret there (the file itself is 0600 by then), not at
 * every read: a 0755 directory is what mkdir makes, in CI above all, and nothing in it is theirs to
 * read. A directory others may only pass through (0711) shows them nothing.
 */
export function directoryWarnings(dir: string): Warning[] {
  if (process.platform === 'win32') return [];
  const stat = statOf(dir);
  if (stat === undefined || exposed(stat, 0o066) === 0) return [];
  const mode = formatMode(stat.mode & 0o7777);
  const kept = `config.json is kept private by its own mode (${formatMode(FILE_MODE)})`;
  if ((stat.mode & 0o1000) !== 0 && (stat.mode & 0o022) !== 0) {
    return [{
      code: 'config_dir_shared', message: `${dir} is shared with other users (mode ${mode}): ${kept}, but they can see what is in it and hold its lock`,
      hint: 'a directory of your own is better (set MKT_CONFIG_DIR)',
    }];
  }
  const close = `chmod ${formatMode(stat.mode & 0o700)} ${dir}`;
  return [{
    code: 'config_dir_readable', message: `${dir} is readable by other users (mode ${mode}): ${kept}`,
    hint: stat.uid === process.getuid?.() ? `if the directory should be yours alone: ${close}` : `its owner can close it with ${close}`,
  }];
}

/**
 * The bits of `mask` that let users other than the owner in: those of all users, and the group's
 * unless the group is the owner's own (see isPrivateGroup).
 */
function exposed(stat: fs.Stats, mask: number): number {
  const bits = stat.mode & mask;
  if ((bits & 0o070) === 0) return bits;
  return isPrivateGroup(stat.gid, stat.uid) ? bits & 0o007 : bits;
}

function statOf(target: string): fs.Stats | undefined {
  try {
    return fs.statSync(target);
  } catch {
    return undefined;
  }
}

function modeOf(stat: fs.Stats | undefined): number | undefined {
  return stat === undefined ? undefined : stat.mode & 0o7777;
}
