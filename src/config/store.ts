// The credential and settings store: one JSON file, config.json, parsed once per run (every command
// reads it several times). A write is a read-modify-write under a lock file (./file-lock.ts): the file
// is read again under the lock, changed, and replaced whole (./atomic-write.ts), so a reader never
// sees half a file and parallel writers lose nothing. Before anything is read from the file, its
// directory and the file itself must be this user's to change (./trust.ts); the file is read only if
// it is a regular file, without blocking, and up to a cap (./regular-file.ts), and only if mkt could
// write it back (./parse-config.ts). Modes: ./modes.ts; a killed writer's leftovers: ./leftovers.ts.
import fs from 'node:fs';
import path from 'node:path';
import { AbortError } from '../shared/errors.js';
import { LOCK_STALE_MS, LOCK_WAIT_MS, MAX_CONFIG_BYTES } from '../shared/limits.js';
import type { Warning } from '../shared/warnings.js';
import { holdsSecret, type ConfigData, type ProfileRecord } from './config-data.js';
import { ConfigError, configFault } from './errors.js';
import { LockBusyError, withFileLock } from './file-lock.js';
import { removeLeftovers, tidyLeftovers } from './leftovers.js';
import { DIR_MODE, directoryWarnings, FILE_MODE, fileWarnings, formatMode, permissionReport, type PermissionReport } from './modes.js';
import { parseConfig, serializeConfig, tooLarge } from './parse-config.js';
import { NotRegularFileError, notRegular, openRegularFile, readAtMost } from './regular-file.js';
import { assertTrustedDirectory, assertTrustedFile, nearestExisting } from './trust.js';
import { writeAtomically } from './atomic-write.js';

export { ConfigError };
export type { ConfigData, ProfileRecord, TokenRecord, TokenSource } from './config-data.js';
export { defaultConfigDir } from './config-dir.js';
export { formatMode, type PermissionReport } from './modes.js';

/** The config file while this run holds its lock. */
export interface LockedConfig {
  /** The file as read under the lock, or as last written by `update`. */
  data(): ConfigData;
  /** Changes the profiles (a copy, edited in place), sets the file's other `members` given, and writes the file, at once. */
  update(change: (profiles: Record<string, ProfileRecord>) => void, members?: Omit<ConfigData, 'profiles'>): void;
}

export interface ConfigStoreOptions {
  /** The directory holding config.json. */
  dir: string;
  /**
   * Told what is open to other users: a file others can read, at every read; a directory others can
   * see into, when a secret is written there; and what a write closed.
   */
  onWarning?: (warning: Warning) => void;
  /** Once aborted, a write not yet made is not made (AbortError, exit 130). */
  signal?: AbortSignal;
}

export class ConfigStore {
  readonly dir: string;
  readonly path: string;
  readonly #lock: string;
  #onWarning: (warning: Warning) => void;
  readonly #signal: AbortSignal | undefined;
  #data: ConfigData | undefined;
  /** What this run does with the file, as a refusal words it: read it, or change it too. */
  #doing: 'read' | 'change' = 'read';

  constructor(options: ConfigStoreOptions) {
    this.dir = path.resolve(options.dir);
    this.path = path.join(this.dir, 'config.json');
    this.#lock = `${this.path}.lock`;
    this.#onWarning = options.onWarning ?? (() => {});
    this.#signal = options.signal;
  }

  /** The whole file as this run first read it (or last wrote it); `{}` when it does not exist. */
  read(): ConfigData {
    if (this.#data === undefined) {
      assertTrustedDirectory(this.dir);
      const data = this.#load();
      const target = this.#target();
      const names = listing(path.dirname(target));
      const locks = path.dirname(target) === this.dir ? names : listing(this.dir);
      if (locks.includes(path.basename(this.#lock))) this.#checkLock(this.#doing);
      for (const warning of fileWarnings(this.path)) this.#onWarning(warning);
      tidyLeftovers(target, this.#lock, names, locks);
      this.#data = data;
    }
    return this.#data;
  }

  /**
   * Tells `listener` the store's warnings from now on, instead of the constructor's `onWarning`:
   * main hands them to the run's diagnostics (src/cli/output/diagnostics.ts), which word them for the
   * run's format, once the store is made.
   */
  warnTo(listener: (warning: Warning) => void): void {
    this.#onWarning = listener;
  }

  /**
   * This run means to change the file (login, token, logout, config set and unset): a file mkt
   * cannot use, met while reading it first, is refused as one mkt cannot change, not one it cannot read.
   */
  willChange(): void {
    this.#doing = 'change';
  }

  /** The profile of that name, if the file has one (a profile emptied by unset and logout included). */
  profile(name: string): ProfileRecord | undefined {
    const profiles = this.read().profiles ?? {};
    return Object.hasOwn(profiles, name) ? profiles[name] : undefined;
  }

  hasProfile(name: string): boolean {
    return this.profile(name) !== undefined;
  }

  /**
   * The profiles to offer (completion, the hint for a mistyped --profile): those with something in
   * them. A profile emptied by `config unset` and `logout` stays in the file, and --profile still takes
   * it (logged out, not unknown), but it has nothing to offer.
   */
  profileNames(): string[] {
    return Object.entries(this.read().profiles ?? {}).filter(([, profile]) => Object.keys(profile).length > 0).map(([name]) => name).sort();
  }

  /**
   * Read-modify-write of one profile under the lock, so that parallel runs changing different
   * profiles (or the same one) lose nothing; `undefined` (or nothing) from `change` removes the
   * profile. A read-only config.json is refused, not replaced.
   */
  async updateProfile(name: string, change: (current: ProfileRecord) => ProfileRecord | undefined): Promise<void> {
    await this.updateProfiles((profiles) => {
      const next = change({ ...(Object.hasOwn(profiles, name) ? profiles[name] : undefined) });
      if (next === undefined) delete profiles[name];
      else profiles[name] = next;
    });
  }

  /**
   * Read-modify-write of every profile at once, in one write: `change` edits the copy it is given
   * (`mkt logout --all` on 1,000 profiles would otherwise make 1,000 writes, each reading the file).
   */
  async updateProfiles(change: (profiles: Record<string, ProfileRecord>) => void): Promise<void> {
    await this.withLock(async (locked) => locked.update(change));
  }

  /**
   * Runs `work` holding the lock, with the file as it is now on disk (not as this run first read
   * it): what it writes through `locked.update` no other mkt can write in between. Renewing a token
   * is a read, a request and a write under it, so that twenty runs that find the token stale send
   * one token request, not twenty. `waitMs`: how long to wait for another holder, which may itself
   * be waiting for the service.
   */
  async withLock<T>(work: (locked: LockedConfig) => Promise<T>, waitMs = LOCK_WAIT_MS): Promise<T> {
    this.willChange();
    this.read(); // a file mkt cannot use is reported before anything is created
    try {
      // Only what this creates gets a mode; a directory that exists keeps its own.
      fs.mkdirSync(this.dir, { recursive: true, mode: DIR_MODE });
    } catch (error) {
      throw configFault(error, `create the config directory ${this.dir}`, nearestExisting(this.dir));
    }
    try {
      return await withFileLock(this.#lock, { waitMs, staleMs: LOCK_STALE_MS, signal: this.#signal }, async () => {
        removeLeftovers(this.#target(), this.#lock);
        let data = this.#load();
        this.#data = data;
        return work({
          data: () => data,
          update: (change, members) => {
            const profiles = { ...data.profiles };
            change(profiles);
            const written = { ...data, ...members, profiles };
            const text = serializeConfig(written, this.path);
            // The last moment to honour Ctrl-C: after the rename, the write has happened and says so.
            if (this.#signal?.aborted) throw new AbortError();
            this.#write(text, holdsSecret(written));
            data = written;
            this.#data = written;
          },
        });
      });
    } catch (error) {
      if (error instanceof LockBusyError) {
        const who = error.holder ? `another mkt (pid ${error.holder.pid} on ${error.holder.host})` : 'another mkt';
        throw new ConfigError(`${who} has been writing ${this.path} for ${Math.round(waitMs / 1000)} s and still holds ${this.#lock}`,
          `wait for it to finish; if no mkt is running, remove ${this.#lock}`);
      }
      if (error instanceof NotRegularFileError) throw this.#notLock(error, 'change');
      throw configFault(error, `write the config file ${this.path}`, this.dir);
    }
  }

  permissions(): PermissionReport {
    return permissionReport(this.path, this.dir);
  }

  /** The file's settings, read only if it is a regular file this user can trust, whole, and within the cap. */
  #load(): ConfigData {
    let opened: ReturnType<typeof openRegularFile>;
    try {
      opened = openRegularFile(this.path);
    } catch (error) {
      if (error instanceof NotRegularFileError) {
        throw new ConfigError(`the config file ${error.message}`,
          `mkt reads only a regular file there: move it aside (mv ${this.path} ${this.path}.aside), or set MKT_CONFIG_DIR to another directory`);
      }
      throw configFault(error, `read the config file ${this.path}`, this.dir);
    }
    if (opened === undefined) return {};
    try {
      assertTrustedFile(this.path, opened.stat);
      const bytes = opened.stat.size > MAX_CONFIG_BYTES ? undefined : readAtMost(opened.fd, MAX_CONFIG_BYTES, opened.stat.size);
      if (bytes === undefined) throw tooLarge(this.path);
      return parseConfig(bytes, this.path);
    } catch (error) {
      throw configFault(error, `read the config file ${this.path}`, this.dir);
    } finally {
      fs.closeSync(opened.fd);
    }
  }

  /**
   * The new text written whole beside the file (or beside what config.json links to), then renamed
   * over it. `secret`: the text holds a secret, so what others can see of the directory is said.
   */
  #write(text: string, secret: boolean): void {
    const target = this.#target();
    const existing = fs.statSync(target, { throwIfNoEntry: false });
    if (existing !== undefined && (existing.mode & 0o200) === 0) {
      throw new ConfigError(`the config file ${this.path} is read-only (mode ${formatMode(existing.mode & 0o7777)}), so mkt leaves it as it is`,
        `to let mkt change it: chmod 600 ${target}`);
    }
    try {
      writeAtomically(target, text);
    } catch (error) {
      throw configFault(error, `write the config file ${this.path}`, this.dir);
    }
    if (existing !== undefined && (existing.mode & 0o077) !== 0) {
      this.#onWarning({ code: 'config_file_closed', message: `${this.path} was readable by other users (mode ${formatMode(existing.mode & 0o7777)}); it is ${formatMode(FILE_MODE)} now` });
    }
    // The directory the secret is now in: config.json's, or that of the file it links to.
    if (secret) for (const warning of directoryWarnings(path.dirname(target))) this.#onWarning(warning);
  }

  /**
   * A lock file that is not a regular file is not mkt's, and waiting on it could only block. A read
   * takes no lock, but is refused all the same: something that is not mkt works in the config
   * directory, and every command says so at once, not only the next one that would change the file.
   */
  #checkLock(doing: 'read' | 'change'): void {
    let stat: fs.Stats | undefined;
    try {
      stat = fs.statSync(this.#lock, { throwIfNoEntry: false });
    } catch {
      return; // for a write to meet and explain
    }
    if (stat !== undefined && !stat.isFile()) throw this.#notLock(notRegular(this.#lock, stat), doing);
  }

  #notLock(error: NotRegularFileError, doing: 'read' | 'change'): ConfigError {
    return new ConfigError(`the config file's lock ${error.message}, so mkt cannot ${doing === 'read' ? 'read the config file safely' : 'change the config file'}`,
      `mkt makes its lock as a regular file and removes it when done: remove this one (${error.kind === 'a directory' ? 'rmdir' : 'rm'} ${error.file})`);
  }

  /** What a write replaces: config.json, or the file it links to (a dotfiles checkout, say). */
  #target(): string {
    try {
      return fs.realpathSync.native(this.path);
    } catch {
      return this.path;
    }
  }
}

function listing(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}
