// Whether the config file can be trusted, as ssh asks of ~/.ssh: whoever can change config.json
// decides where the token and the client secret are sent (its base_url), so it must be this user's
// (or root's), in directories only they can change. A file or directory of another user, or one that
// others can write to, is refused before anything is read from it or sent; a directory that others
// can write to but that has the sticky bit (as /tmp) is not refused, since nobody can remove or rename
// this user's files in it. Windows keeps this in ACLs, not modes: there nothing is checked. The same
// rule, in its own words, holds --exec's program (assertTrustedEntry, assertTrustedChain).
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError } from './errors.js';
import { formatMode } from './modes.js';
import { accountName, othersCanWrite } from './others-can-write.js';

const RISK = "who could change mkt's settings, such as where the token and client secret are sent";

/** How a rule's refusals are worded and raised: the config file's here, --exec's program's (src/cli/exec/trust-program.ts). */
export interface TrustRule {
  /** What whoever could change the entry could do: the end of each refusal. */
  risk: string;
  /** The hint for an entry of another user. */
  ownerHint: (at: string) => string;
  /** The chmod that makes a file (not a directory) no one else's to change: `bit` is o-w or g-w. */
  fileFix: (at: string, bit: 'o-w' | 'g-w') => string;
  /** The hint for an entry others can change, given the chmod that fixes it. */
  modeHint: (fix: string) => string;
  refuse: (message: string, hint: string) => Error;
}

/** How a file, the link to it and the directories above either are named in a refusal. */
export interface EntryNames {
  file: string;
  link: string;
  /** A directory above the file a link leads to. */
  aboveTarget: (at: string) => string;
}

const CONFIG_RULE: TrustRule = {
  risk: RISK,
  ownerHint: (at) => `use a directory of your own (set MKT_CONFIG_DIR), or, if ${at} should be yours: sudo chown "$USER" ${at}`,
  fileFix: (at) => `chmod 600 ${at}`,
  modeHint: (fix) => `${fix}, or set MKT_CONFIG_DIR to a directory of your own`,
  refuse: (message, hint) => new ConfigError(message, hint),
};

/** Refuses `dir`, where config.json lives (or will), if another user can change it or a directory above it. */
export function assertTrustedDirectory(dir: string): void {
  assertTrustedChain(nearestExisting(dir), CONFIG_RULE, (at) => describe(at, dir));
}

/**
 * Refuses config.json, opened with status `stat`, if it is another user's or others can write to it;
 * when it is a symbolic link, so is what it leads to (and the directories above that), and the link.
 */
export function assertTrustedFile(file: string, stat: fs.Stats): void {
  assertTrustedEntry(file, stat, CONFIG_RULE, {
    file: `the config file ${file}`,
    link: `the config file ${file} (a symbolic link)`,
    aboveTarget: (at) => `${at}, which holds the file the config file ${file} links to,`,
  });
}

/**
 * Under `rule`: refuses `file` (`stat`, its status through any link) if it is another user's (root
 * aside) or others can write to it; when it is a symbolic link, the link if another user made it,
 * and every directory above what it leads to. The directories above `file` itself are
 * assertTrustedChain's.
 */
export function assertTrustedEntry(file: string, stat: fs.Stats, rule: TrustRule, names: EntryNames): void {
  const uid = process.getuid?.();
  if (uid === undefined) return;
  check(file, stat, uid, names.file, rule);
  const link = fs.lstatSync(file, { throwIfNoEntry: false });
  if (link?.isSymbolicLink() !== true) return;
  // A link's own mode means nothing (always 0777); who made it does, in a directory shared by sticky bit.
  check(file, link, uid, names.link, rule, { ownerOnly: true });
  const target = fs.realpathSync.native(file);
  for (const at of chain(path.dirname(target))) check(at, fs.statSync(at, { throwIfNoEntry: false }), uid, names.aboveTarget(at), rule);
}

/** Under `rule`: refuses `dir` or a directory above it (as named, and as it really is) that another user owns or can change; `name` names each in a refusal. */
export function assertTrustedChain(dir: string, rule: TrustRule, name: (at: string) => string): void {
  const uid = process.getuid?.();
  if (uid === undefined) return;
  for (const at of chain(dir)) check(at, fs.statSync(at, { throwIfNoEntry: false }), uid, name(at), rule);
}

function check(at: string, stat: fs.Stats | undefined, uid: number, what: string, rule: TrustRule, options: { ownerOnly?: boolean } = {}): void {
  if (stat === undefined) return;
  if (stat.uid !== uid && stat.uid !== 0) {
    const name = accountName(stat.uid);
    throw rule.refuse(`${what} belongs to another user (uid ${stat.uid}${name === undefined ? '' : `, ${name}`}), ${rule.risk}`, rule.ownerHint(at));
  }
  const who = options.ownerOnly ? undefined : othersCanWrite(stat, uid);
  if (who === undefined) return;
  const mode = formatMode(stat.mode & 0o7777);
  const by = who === 'others' ? 'other users' : `the other members of group ${stat.gid}`;
  const bit = who === 'others' ? 'o-w' : 'g-w';
  const fix = stat.isDirectory() ? `chmod ${bit} ${at} (or chmod +t ${at}, as /tmp is, if it is meant to be shared)` : rule.fileFix(at, bit);
  throw rule.refuse(`${what} can be changed by ${by} (mode ${mode}), ${rule.risk}`, rule.modeHint(fix));
}

function describe(at: string, dir: string): string {
  if (at === dir) return `the config directory ${dir}`;
  return `${at}, above the config directory ${dir},`;
}

/** `dir` and every directory above it, as named and as they really are (through links), deepest first. */
function chain(dir: string): string[] {
  const seen = new Set<string>();
  const walk = (from: string) => {
    for (let at = from; ; at = path.dirname(at)) {
      seen.add(at);
      if (path.dirname(at) === at) break;
    }
  };
  walk(path.resolve(dir));
  try {
    walk(fs.realpathSync.native(dir));
  } catch {
    // Unreadable on the way: the checks by name stand, and using the directory will say the rest.
  }
  return [...seen];
}

/** The directory itself or the closest ancestor that exists: where a mkdir -p would start. */
export function nearestExisting(dir: string): string {
  let existing = path.resolve(dir);
  while (!fs.existsSync(existing) && path.dirname(existing) !== existing) existing = path.dirname(existing);
  return existing;
}
