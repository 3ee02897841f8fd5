// The credential and settings store: one JSON file written through conf, mode 0600 in a 0700
// directory. conf writes atomically (a temporary file renamed into place), so a reader never sees
// half a file; a lock file around each read-modify-write keeps parallel writers from losing each
// other's changes. Reading is what conf's own read is, JSON.parse of the
// file, done here so that the commands that only read (every `mkt quotes`) do not load conf and
// its dependencies: about 10 ms of each run (docs/benchmarks.md). Reads never create anything.
import fs from 'node:fs';
import path from 'node:path';
import type Conf from 'conf';
import { ConfigError } from './errors.js';

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

export interface ConfigStoreOptions {
  /** The directory holding config.json. */
  dir: string;
  /** Told when a permission problem was repaired. */
  onWarning?: (message: string) => void;
}

const FILE_MODE = 0o600;
const DIR_MODE = 0o700;
const LOCK_WAIT_MS = 10_000;
const LOCK_STALE_MS = 10_000;

/** Where the store lives when MKT_CONFIG_DIR is not set: the OS's conventional config location. */
export function defaultConfigDir(env: Readonly<Record<string, string | undefined>>): string {
  const home = env.HOME ?? env.USERPROFILE ?? '.';
  if (process.platform === 'win32') return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'mkt', 'Config');
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Preferences', 'mkt');
  return path.join(env.XDG_CONFIG_HOME || path.join(home, '.config'), 'mkt');
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
  #conf: Conf<ConfigData> | undefined;
  #onWarning: (message: string) => void;
  #checked = false;

  constructor(options: ConfigStoreOptions) {
    this.dir = path.resolve(options.dir);
    this.path = path.join(this.dir, 'config.json');
    this.#onWarning = options.onWarning ?? (() => {});
  }

  /** The whole file; `{}` when it does not exist yet. */
  read(): ConfigData {
    let text: string;
    try {
      text = fs.readFileSync(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw this.#corrupt(error);
    }
    this.#repairPermissions();
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (error) {
      // V8's message quotes the text around the fault, which may be a token: give only where it is.
      throw new ConfigError(`the config file ${this.path} is not valid JSON (${locate(text, error)})`, this.#fixHint());
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

  profile(name: string): ProfileRecord | undefined {
    return this.read().profiles?.[name];
  }

  profileNames(): string[] {
    return Object.keys(this.read().profiles ?? {}).sort();
  }

  /**
   * Read-modify-write of one profile under a lock file, so that parallel runs changing different
   * profiles (or the same one) lose nothing; `undefined` from `change` removes the profile.
   */
  async updateProfile(name: string, change: (current: ProfileRecord) => ProfileRecord | undefined): Promise<void> {
    this.read(); // a corrupt file is reported before anything is created
    const conf = await this.#open();
    await this.#locked(() => {
      const data = this.read();
      const profiles = { ...data.profiles };
      const next = change({ ...profiles[name] });
      if (next === undefined || Object.keys(next).length === 0) delete profiles[name];
      else profiles[name] = next;
      this.#write(conf, { ...data, profiles });
    });
  }

  /** Runs `work` holding config.json.lock (created exclusively; a lock older than 10 s is stale). */
  async #locked(work: () => void): Promise<void> {
    const lock = `${this.path}.lock`;
    const deadline = Date.now() + LOCK_WAIT_MS;
    for (;;) {
      try {
        fs.closeSync(fs.openSync(lock, 'wx', FILE_MODE));
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw this.#corrupt(error);
      }
      const age = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > LOCK_STALE_MS) fs.rmSync(lock, { force: true });
      else if (Date.now() > deadline) {
        throw new ConfigError(`another mkt has been writing ${this.path} for ${Math.round(LOCK_WAIT_MS / 1000)} s (${lock} exists)`,
          `if no other mkt is running, remove ${lock}`);
      } else await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
    }
    try {
      work();
    } finally {
      fs.rmSync(lock, { force: true });
    }
  }

  #write(conf: Conf<ConfigData>, data: ConfigData): void {
    try {
      conf.store = data;
    } catch (error) {
      throw this.#corrupt(error);
    }
    // The mode option covers newly created files; an existing file keeps its mode through rename
    // only on some systems, so set it explicitly on every write.
    fs.chmodSync(this.path, FILE_MODE);
  }

  permissions(): PermissionReport {
    const fileMode = modeOf(this.path);
    const dirMode = modeOf(this.dir);
    const safe = process.platform === 'win32'
      || ((fileMode === undefined || (fileMode & 0o077) === 0) && (dirMode === undefined || (dirMode & 0o077) === 0));
    return { path: this.path, exists: fileMode !== undefined, fileMode, dirMode, safe };
  }

  /** conf, on a directory that exists with mode 0700 (conf would create it with the umask's). */
  async #open(): Promise<Conf<ConfigData>> {
    const { default: Conf } = await import('conf');
    fs.mkdirSync(this.dir, { recursive: true, mode: DIR_MODE });
    this.#repairPermissions();
    this.#conf ??= new Conf<ConfigData>({
      projectName: 'mkt',
      cwd: this.dir,
      configName: 'config',
      configFileMode: FILE_MODE,
      accessPropertiesByDotNotation: false,
      clearInvalidConfig: false,
    });
    return this.#conf;
  }

  #repairPermissions(): void {
    if (this.#checked || process.platform === 'win32') return;
    this.#checked = true;
    for (const [target, wanted] of [[this.dir, DIR_MODE], [this.path, FILE_MODE]] as const) {
      const mode = modeOf(target);
      if (mode === undefined || (mode & 0o077) === 0) continue;
      fs.chmodSync(target, wanted);
      this.#onWarning(`${target} was readable by other users (mode ${formatMode(mode)}); changed it to ${formatMode(wanted)}`);
    }
  }

  #fixHint(): string {
    return `fix it by hand, or move it aside (mv ${this.path} ${this.path}.bak) and run mkt login again`;
  }

  #corrupt(error: unknown): Error {
    if (error instanceof SyntaxError) return new ConfigError(`the config file ${this.path} is not valid JSON`, this.#fixHint());
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EPERM' || code === 'EISDIR' || code === 'ENOTDIR') {
      return new ConfigError(
        `cannot use the config file ${this.path}: ${(error as Error).message}`,
        'check its ownership and permissions, or set MKT_CONFIG_DIR to another directory',
      );
    }
    return error as Error;
  }
}

/** Line and column of a JSON.parse failure, without quoting the text. */
function locate(text: string, error: unknown): string {
  const position = Number(/position (\d+)/.exec(String((error as Error).message))?.[1]);
  if (!Number.isInteger(position)) return 'it cannot be parsed';
  const before = text.slice(0, position);
  const line = before.split('\n').length;
  return `at line ${line}, column ${position - before.lastIndexOf('\n')}`;
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
