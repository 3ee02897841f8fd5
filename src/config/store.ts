// The credential and settings store: one JSON file written through conf, mode 0600 in a 0700
// directory. conf writes atomically (a temporary file renamed into place), so parallel writers
// leave a valid file; the last writer wins. Reading is what conf's own read is, JSON.parse of the
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
      throw this.#corrupt(error);
    }
    if (data === null || typeof data !== 'object' || Array.isArray(data)) {
      throw new ConfigError(`the config file ${this.path} does not hold mkt settings (not a JSON object)`,
        `fix it by hand, or move it aside (mv ${this.path} ${this.path}.bak) and run mkt login again`);
    }
    const profiles = (data as ConfigData).profiles;
    const valid = profiles === undefined || (typeof profiles === 'object' && profiles !== null && !Array.isArray(profiles)
      && Object.values(profiles).every((profile) => typeof profile === 'object' && profile !== null && !Array.isArray(profile)));
    if (!valid) {
      throw new ConfigError(`the config file ${this.path} does not hold mkt settings ("profiles" must map names to objects)`,
        `fix it by hand, or move it aside (mv ${this.path} ${this.path}.bak) and run mkt login again`);
    }
    return data as ConfigData;
  }

  profile(name: string): ProfileRecord | undefined {
    return this.read().profiles?.[name];
  }

  profileNames(): string[] {
    return Object.keys(this.read().profiles ?? {}).sort();
  }

  /** Read-modify-write of one profile; `undefined` from `change` removes the profile. */
  async updateProfile(name: string, change: (current: ProfileRecord) => ProfileRecord | undefined): Promise<void> {
    const data = this.read();
    const conf = await this.#open();
    const profiles = { ...data.profiles };
    const next = change({ ...profiles[name] });
    if (next === undefined || Object.keys(next).length === 0) delete profiles[name];
    else profiles[name] = next;
    this.#write(conf, { ...data, profiles });
  }

  async write(data: ConfigData): Promise<void> {
    this.#write(await this.#open(), data);
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

  #corrupt(error: unknown): Error {
    if (error instanceof SyntaxError) {
      return new ConfigError(
        `the config file ${this.path} is not valid JSON (${error.message})`,
        `fix it by hand, or move it aside (mv ${this.path} ${this.path}.bak) and run mkt login again`,
      );
    }
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
