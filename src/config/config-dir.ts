// Where config.json lives when MKT_CONFIG_DIR does not say.
import path from 'node:path';
import { ConfigError } from './errors.js';

/**
 * The OS's conventional config location. The home directory is HOME (USERPROFILE on Windows), else
 * the account's own from the system (`homedir`, which reads the password database when HOME is
 * unset); a relative XDG_CONFIG_HOME is ignored, as the XDG base directory specification says. Never
 * a relative path: a token written under whatever directory mkt ran in is a token lost, or shared.
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
