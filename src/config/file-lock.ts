// A lock file that a dead holder cannot keep, and whose takeover cannot be won twice.
//
// A lock is a file created whole and exclusively (written aside, then link()ed into place), holding
// its holder's host, pid, process start time and a random id. A holder on this host whose process is
// gone (or whose pid now belongs to a younger process) is dead, and its lock is taken over at once;
// a lock of another host, or an unreadable one (an older mkt's empty file), only once older than
// `staleMs`. Removing a stale lock and creating one's own are two steps, and two writers judging the
// same lock stale could remove each other's fresh locks. So a takeover is claimed first: the claim is
// a file named after the stale lock's id, created exclusively, so one writer alone wins it; the
// winner checks that the lock is still the one it judged and renames its own over it, never leaving
// the path empty. A claim whose holder died is claimed the same way. A lock that is not a regular
// file (a FIFO put there) is never opened in a way that can block: NotRegularFileError says what it is.
import fs from 'node:fs';
import path from 'node:path';
import { AbortError } from '../shared/errors.js';
import { sleep } from '../shared/sleep.js';
import { NotRegularFileError, openRegularFile } from './regular-file.js';

export interface Holder {
  host: string;
  pid: number;
  /** The process's start time (Linux: clock ticks after boot); '' where the system does not say. */
  start: string;
  id: string;
}

export interface LockOptions {
  /** How long to wait for a live holder before giving up. */
  waitMs: number;
  /** The age after which a lock whose holder cannot be checked is abandoned. */
  staleMs: number;
  signal?: AbortSignal;
}

/** The lock is held by a live writer, beyond the wait. */
export class LockBusyError extends Error {
  override name = 'LockBusyError';

  constructor(readonly lock: string, readonly holder: Holder | undefined) {
    super(`${lock} is held${holder ? ` by pid ${holder.pid} on ${holder.host}` : ''}`);
  }
}

/** A file of the lock's family seen at one moment: text and identity, and whose it is. */
interface Seen {
  text: string;
  ino: number;
  mtimeMs: number;
  holder: Holder | undefined;
}

// Claims of claims are taken only when their holders died too, one level per death.
const MAX_DEPTH = 4;

/** Runs `work` holding `lock` until it settles; waits (interruptibly) while a live writer holds it. */
export async function withFileLock<T>(lock: string, options: LockOptions, work: () => T | Promise<T>): Promise<T> {
  const deadline = Date.now() + options.waitMs;
  for (;;) {
    if (options.signal?.aborted) throw new AbortError();
    const attempt = tryLock(lock, options.staleMs);
    if ('release' in attempt) {
      try {
        return await work();
      } finally {
        attempt.release();
      }
    }
    if (Date.now() > deadline) throw new LockBusyError(lock, attempt.holder);
    await sleep(5 + Math.random() * 20, options.signal);
  }
}

/** Takes `lock` if it is free or abandoned, without waiting. */
export function tryLock(lock: string, staleMs: number): { release: () => void } | { holder: Holder | undefined } {
  const mine = new Claimant(lock, staleMs);
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      if (mine.create(lock)) return { release: () => fs.rmSync(lock, { force: true }) };
      const current = see(lock);
      if (current === undefined) continue; // released in between
      if (!isAbandoned(current, staleMs) || !mine.takeOver(lock, current, 0)) return { holder: current.holder };
      return { release: () => fs.rmSync(lock, { force: true }) };
    }
    return { holder: undefined };
  } finally {
    mine.dispose();
  }
}

/** Removes the lock family's side files (claims, files written aside) of writers that are dead. */
export function removeAbandoned(lock: string, staleMs: number): void {
  const dir = path.dirname(lock);
  const prefix = `${path.basename(lock)}.`;
  for (const name of fs.readdirSync(dir)) {
    if (!name.startsWith(prefix)) continue;
    let seen: Seen | undefined;
    try {
      seen = see(path.join(dir, name));
    } catch (error) {
      if (error instanceof NotRegularFileError) continue; // not mkt's: left alone
      throw error;
    }
    if (seen !== undefined && isAbandoned(seen, staleMs)) fs.rmSync(path.join(dir, name), { force: true });
  }
}

class Claimant {
  readonly #lock: string;
  readonly #staleMs: number;
  readonly #file: string;

  constructor(lock: string, staleMs: number) {
    this.#lock = lock;
    this.#staleMs = staleMs;
    const holder: Holder = { ...self(), id: randomId() };
    this.#file = `${lock}.new-${holder.id}`;
    const fd = fs.openSync(this.#file, 'wx', 0o600);
    try {
      fs.writeFileSync(fd, `${JSON.stringify(holder)}\n`);
    } catch (error) {
      fs.rmSync(this.#file, { force: true }); // a full disk, say: leave nothing half-made
      throw error;
    } finally {
      fs.closeSync(fd);
    }
  }

  /** Creates `target` as this claimant's file; false when it exists. */
  create(target: string): boolean {
    try {
      fs.linkSync(this.#file, target);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    }
  }

  /** Replaces the abandoned `seen` at `target` with this claimant's file, if this one wins the claim. */
  takeOver(target: string, seen: Seen, depth: number): boolean {
    const claim = `${this.#lock}.takeover-${seen.holder?.id ?? `${seen.ino}-${Math.trunc(seen.mtimeMs)}`}`;
    if (!this.#claim(claim, depth)) return false;
    try {
      // Only the claim's holder replaces `seen`; if the path holds something else, `seen` is gone.
      const now = see(target);
      if (now === undefined || now.ino !== seen.ino || now.mtimeMs !== seen.mtimeMs || now.text !== seen.text) return false;
      const spare = `${this.#file}.${depth}`;
      fs.linkSync(this.#file, spare);
      fs.renameSync(spare, target);
      return true;
    } finally {
      fs.rmSync(claim, { force: true });
    }
  }

  #claim(claim: string, depth: number): boolean {
    for (let attempt = 0; attempt < 3; attempt++) {
      if (this.create(claim)) return true;
      const held = see(claim);
      if (held === undefined) continue;
      return depth < MAX_DEPTH && isAbandoned(held, this.#staleMs) && this.takeOver(claim, held, depth + 1);
    }
    return false;
  }

  dispose(): void {
    fs.rmSync(this.#file, { force: true });
  }
}

function see(file: string): Seen | undefined {
  const opened = openRegularFile(file);
  if (opened === undefined) return undefined;
  try {
    const { ino, mtimeMs } = opened.stat;
    const buffer = Buffer.alloc(1024);
    const text = buffer.toString('utf8', 0, fs.readSync(opened.fd, buffer));
    return { text, ino, mtimeMs, holder: parseHolder(text) };
  } finally {
    fs.closeSync(opened.fd);
  }
}

function parseHolder(text: string): Holder | undefined {
  try {
    const value = JSON.parse(text) as Partial<Holder>;
    if (typeof value.host === 'string' && Number.isSafeInteger(value.pid) && value.pid! > 0 && typeof value.start === 'string'
      && typeof value.id === 'string' && /^[a-z0-9]{8,64}$/.test(value.id)) return value as Holder;
  } catch {
    // not a lock of this version: judged by its age
  }
  return undefined;
}

function isAbandoned(seen: Seen, staleMs: number): boolean {
  const holder = seen.holder;
  if (holder !== undefined && holder.host === self().host) return !isRunning(holder);
  return Date.now() - seen.mtimeMs > staleMs;
}

function isRunning(holder: Holder): boolean {
  const stat = processStat(holder.pid);
  if (stat === null) return false;
  if (stat === undefined) {
    try {
      process.kill(holder.pid, 0);
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'EPERM';
    }
    return true;
  }
  // A zombie has exited; a different start time means the pid was reused.
  return stat.state !== 'Z' && (holder.start === '' || stat.start === holder.start);
}

/** Linux's /proc/<pid>/stat: null when there is no such process, undefined without /proc. */
function processStat(pid: number): { state: string; start: string } | null | undefined {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return undefined;
    return fs.existsSync('/proc/self/stat') ? null : undefined;
  }
  // The command name in parentheses may hold spaces; the fields after it are plain.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0] ?? '', start: fields[19] ?? '' };
}

let me: Omit<Holder, 'id'> | undefined;

function self(): Omit<Holder, 'id'> {
  me ??= {
    host: process.getBuiltinModule('node:os').hostname(),
    pid: process.pid,
    start: processStat(process.pid)?.start ?? '',
  };
  return me;
}

function randomId(): string {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 12)}`.replace(/[^a-z0-9]/g, '');
}
