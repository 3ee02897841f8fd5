// The credential and settings store: one JSON file, mode 0600 in a 0700 directory, parsed once per
// run (every command reads it several times). A write is a read-modify-write under a lock file
// (./file-lock.ts): the file is read again under the lock, changed, written whole to a temporary
// file beside it and renamed into place, so a reader never sees half a file and parallel writers
// lose nothing. This used to be conf; it went because its writer (atomically, through when-exit)
// installs handlers for SIGINT, SIGTERM, SIGHUP and a dozen other signals on import that send the
// signal again, which turned one Ctrl-C into two outcomes (issue 13, item 12), and no option turns
// that off. What is left of it here is the rename, a dozen lines.
import fs from 'node:fs';
import path from 'node:path';
import { AbortError } from '../shared/errors.js';
import { whereJsonFails } from '../shared/text.js';
import { ConfigError, configFault, faultReason } from './errors.js';
import { LockBusyError, removeAbandoned, tryLock, withFileLock } from './file-lock.js';
import { LOCK_STALE_MS, LOCK_WAIT_MS } from '../shared/limits.js';

export { ConfigError };

export type TokenSource = 'cli-login' | 'client-credentials';

export interface TokenRecord {
  access_token: string;
  token_type: string;
  /** ISO 8601; absent when the service gave no expires_in. */
  expires_at?: string;
  scope?: string;
  organization_id?: string;
  base_url: string;
  source: TokenSource;
  client_id?: string;
  obtained_at: string;
}

export interface ProfileRecord {
  base_url?: string;
  org?: string;
  format?: string;
  token?: TokenRecord;
}

export interface ConfigData {
  profiles?: Record<string, ProfileRecord>;
}

/** The config file while this run holds its lock. */
export interface LockedConfig {
  /** The file as read under the lock, or as last written by `update`. */
  data(): ConfigData;
  /** Changes the profiles (a copy, edited in place) and writes the file, at once. */
  update(change: (profiles: Record<string, ProfileRecord>) => void): void;
}

export interface ConfigStoreOptions {
  /** The directory holding config.json. */
  dir: string;
  /** Told when a permission problem was repaired, or could not be. */
  onWarning?: (message: string) => void;
  /** Once aborted, a write not yet made is not made (AbortError, exit 130). */
  signal?: AbortSignal;
}

const FILE_MODE = 0o600;
const DIR_MODE = 0o700;

/**
 * Where the store lives when MKT_CONFIG_DIR is not set: the OS's conventional config location. The
 * home directory is HOME (USERPROFILE on Windows), else the account's own from the system
 * (`homedir`, which reads the password database when HOME is unset); a relative XDG_CONFIG_HOME is
 * ignored, as the XDG base directory specification says. Never a relative path: `env -u HOME mkt
 * login` once wrote the token into ./.config of whatever directory it ran in (issue 19, item 9).
 */
export function defaultConfigDir(env: Readonly<Record<string, string | undefined>>, homedir: () => string = systemHomedir): string {
  const windows = process.platform === 'win32';
  const mac = process.platform === 'darwin';
  const xdg = absolute(env.XDG_CONFIG_HOME);
  const appData = absolute(env.APPDATA);
  if (!windows && !mac && xdg !== undefined) return path.join(xdg, 'mkt');
  if (windows && appData !== undefined) return path.join(appData, 'mkt', 'Config');
  const home = absolute(env.HOME) ?? absolute(env.USERPROFILE) ?? absolute(homedir());
  if (home === undefined) {
    throw new ConfigError('cannot find the home directory for the config file: HOME is not set (or not an absolute path), and the system names none for this account',
      'set HOME to your home directory, or MKT_CONFIG_DIR to the directory for config.json');
  }
  if (windows) return path.join(home, 'AppData', 'Roaming', 'mkt', 'Config');
  if (mac) return path.join(home, 'Library', 'Preferences', 'mkt');
  return path.join(home, '.config', 'mkt');
}

function absolute(value: string | undefined): string | undefined {
  return value !== undefined && value !== '' && path.isAbsolute(value) ? value : undefined;
}

function systemHomedir(): string {
  try {
    // Loaded only here, when HOME is unset: node:os costs every run most of a millisecond to load.
    return process.getBuiltinModule('node:os').homedir();
  } catch {
    return ''; // no HOME and no password entry (a container's arbitrary uid)
  }
}

export interface PermissionReport {
  path: string;
  exists: boolean;
  fileMode: number | undefined;
  dirMode: number | undefined;
  safe: boolean;
}

export class ConfigStore {
  readonly dir: string;
  readonly path: string;
  readonly #lock: string;
  readonly #onWarning: (message: string) => void;
  readonly #signal: AbortSignal | undefined;
  #data: ConfigData | undefined;
  #warned = false;
  #repaired = false;

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
      this.#data = this.#parse();
      this.#warnPermissions();
      this.#tidy();
    }
    return this.#data;
  }

  profile(name: string): ProfileRecord | undefined {
    return this.read().profiles?.[name];
  }

  profileNames(): string[] {
    return Object.keys(this.read().profiles ?? {}).sort();
  }

  /**
   * Read-modify-write of one profile under the lock, so that parallel runs changing different
   * profiles (or the same one) lose nothing; `undefined` (or nothing) from `change` removes the
   * profile. A read-only config.json is refused, not replaced.
   */
  async updateProfile(name: string, change: (current: ProfileRecord) => ProfileRecord | undefined): Promise<void> {
    await this.updateProfiles((profiles) => {
      const next = change({ ...profiles[name] });
      if (next === undefined) delete profiles[name];
      else profiles[name] = next;
    });
  }

  /**
   * Read-modify-write of every profile at once, in one write: `change` edits the copy it is given
   * (`mkt logout --all` on 1,000 profiles once made 1,000 writes, each reading the whole file).
   */
  async updateProfiles(change: (profiles: Record<string, ProfileRecord>) => void): Promise<void> {
    await this.withLock(async (locked) => locked.update(change));
  }

  /**
   * Runs `work` holding the lock, with the file as it is now on disk (not as this run first read
   * it): what it writes through `locked.update` no other mkt can write in between. Renewing a token
   * is a read, a request and a write under it, so that twenty runs that find the token stale send
   * one token request, not twenty (issue 19, item 5). `waitMs`: how long to wait for another holder,
   * which may itself be waiting for the service.
   */
  async withLock<T>(work: (locked: LockedConfig) => Promise<T>, waitMs = LOCK_WAIT_MS): Promise<T> {
    this.read(); // a corrupt file is reported before anything is created
    try {
      fs.mkdirSync(this.dir, { recursive: true, mode: DIR_MODE });
    } catch (error) {
      throw configFault(error, `create the config directory ${this.dir}`, nearestExisting(this.dir));
    }
    try {
      return await withFileLock(this.#lock, { waitMs, staleMs: LOCK_STALE_MS, signal: this.#signal }, async () => {
        this.#removeLeftovers();
        let data = this.#parse();
        // Only now, with the file read and found to be mkt's config (a link's target included).
        this.#repairPermissions();
        this.#data = data;
        return work({
          data: () => data,
          update: (change) => {
            const profiles = { ...data.profiles };
            change(profiles);
            // The last moment to honour Ctrl-C: after the rename, the write has happened and says so.
            if (this.#signal?.aborted) throw new AbortError();
            const written = { ...data, profiles };
            try {
              this.#write(written);
            } catch (error) {
              throw configFault(error, `write the config file ${this.path}`, this.dir);
            }
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
      throw configFault(error, `write the config file ${this.path}`, this.dir);
    }
  }

  permissions(): PermissionReport {
    const fileMode = modeOf(this.path);
    const dirMode = modeOf(this.dir);
    const safe = process.platform === 'win32'
      || ((fileMode === undefined || (fileMode & 0o077) === 0) && (dirMode === undefined || (dirMode & 0o077) === 0));
    return { path: this.path, exists: fileMode !== undefined, fileMode, dirMode, safe };
  }

  #parse(): ConfigData {
    let text: string;
    try {
      text = fs.readFileSync(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw configFault(error, `read the config file ${this.path}`, this.dir);
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (error) {
      // V8's message quotes the text around the fault, which may be a token: give only where it is.
      throw new ConfigError(`the config file ${this.path} is not valid JSON (${whereJsonFails(text, error)})`, this.#fixHint());
    }
    if (data === null || typeof data !== 'object' || Array.isArray(data)) {
      throw new ConfigError(`the config file ${this.path} does not hold mkt settings (not a JSON object)`, this.#fixHint());
    }
    const profiles = (data as ConfigData).profiles;
    const valid = profiles === undefined || (typeof profiles === 'object' && profiles !== null && !Array.isArray(profiles)
      && Object.values(profiles).every((profile) => typeof profile === 'object' && profile !== null && !Array.isArray(profile)));
    if (!valid) {
      throw new ConfigError(`the config file ${this.path} does not hold mkt settings ("profiles" must map names to objects)`, this.#fixHint());
    }
    return data as ConfigData;
  }

  /** The new file written whole beside the old one (or beside what config.json links to), then renamed over it. */
  #write(data: ConfigData): void {
    const target = this.#target();
    const existing = fs.statSync(target, { throwIfNoEntry: false });
    if (existing !== undefined && (existing.mode & 0o200) === 0) {
      throw new ConfigError(`the config file ${this.path} is read-only (mode ${formatMode(existing.mode & 0o777)}), so mkt leaves it as it is`,
        `to let mkt change it: chmod 600 ${target}`);
    }
    const temporary = `${target}.tmp-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
    const fd = fs.openSync(temporary, 'wx', FILE_MODE);
    try {
      fs.writeFileSync(fd, `${JSON.stringify(data, undefined, '\t')}\n`);
      fs.fchmodSync(fd, FILE_MODE); // the umask may have narrowed it
      // root writing a user's file (sudo) keeps it the user's, as an edit in place would.
      if (existing !== undefined && process.getuid?.() === 0) fs.fchownSync(fd, existing.uid, existing.gid);
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

  /** What a write replaces: config.json, or the file it links to (a dotfiles checkout, say). */
  #target(): string {
    try {
      return fs.realpathSync.native(this.path);
    } catch {
      return this.path;
    }
  }

  /**
   * A writer killed between its write and its rename leaves the new file (a token, perhaps) beside
   * the old one, and its lock. Only run holding the lock, when every temporary file is a dead one's.
   */
  #removeLeftovers(): void {
    const target = this.#target();
    for (const name of fs.readdirSync(path.dirname(target))) {
      if (name.startsWith(`${path.basename(target)}.tmp-`)) fs.rmSync(path.join(path.dirname(target), name), { force: true });
    }
    removeAbandoned(this.#lock, LOCK_STALE_MS);
  }

  /** A reader that sees a dead writer's leftovers removes them, if no one holds the lock. */
  #tidy(): void {
    const target = this.#target();
    const names = listing(path.dirname(target));
    const locks = path.dirname(target) === this.dir ? names : listing(this.dir);
    if (!names.some((name) => name.startsWith(`${path.basename(target)}.tmp-`)) && !locks.some((name) => name.startsWith('config.json.lock'))) return;
    try {
      const attempt = tryLock(this.#lock, LOCK_STALE_MS);
      if (!('release' in attempt)) return;
      try {
        this.#removeLeftovers();
      } finally {
        attempt.release();
      }
    } catch {
      // A read does not fail for what it could not tidy; the next write tries again.
    }
  }

  /**
   * A read changes nothing: it says what is too open, and how to close it. `mkt status` once chmod-ed
   * whatever config.json linked to before finding it was not a config at all (issue 19, item 10).
   */
  #warnPermissions(): void {
    if (this.#warned || process.platform === 'win32') return;
    this.#warned = true;
    for (const target of [this.dir, this.path]) {
      const mode = modeOf(target);
      if (mode === undefined || (mode & 0o077) === 0) continue;
      const mine = fs.statSync(target).uid === process.getuid?.();
      this.#onWarning(`${target} is readable by other users (mode ${formatMode(mode)}): `
        + `${mine ? 'mkt closes it at its next write, or run' : 'its owner can close it with'} chmod ${formatMode(mode & 0o700)} ${target}`);
    }
  }

  /** Under the lock, once the file is known to be mkt's config (or absent): the modes made private. */
  #repairPermissions(): void {
    if (this.#repaired || process.platform === 'win32') return;
    this.#repaired = true;
    for (const target of [this.dir, this.path]) {
      const mode = modeOf(target);
      if (mode === undefined || (mode & 0o077) === 0) continue;
      // Group and others lose every bit; the owner's stay (a read-only file stays read-only).
      const wanted = mode & 0o700;
      try {
        fs.chmodSync(target, wanted);
        this.#onWarning(`${target} was readable by other users (mode ${formatMode(mode)}); changed it to ${formatMode(wanted)}`);
      } catch (error) {
        this.#onWarning(`${target} is readable by other users (mode ${formatMode(mode)}), and mkt cannot change that `
          + `(${faultReason(error)}): its owner can, with chmod ${formatMode(wanted)} ${target}`);
      }
    }
  }

  #fixHint(): string {
    return `fix it by hand, or move it aside (mv ${this.path} ${this.path}.bak) and run mkt login again`;
  }
}

/** The directory itself or the closest ancestor that exists: where a failed mkdir -p stopped. */
function nearestExisting(dir: string): string {
  let existing = dir;
  while (!fs.existsSync(existing) && path.dirname(existing) !== existing) existing = path.dirname(existing);
  return existing;
}

function listing(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

function modeOf(target: string): number | undefined {
  try {
    return fs.statSync(target).mode & 0o777;
  } catch {
    return undefined;
  }
}

export function formatMode(mode: number): string {
  return `0${mode.toString(8).padStart(3, '0')}`;
}
