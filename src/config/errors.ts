// The store's one error, apart from the store so that main can map it without loading the store.
import { MktError } from '../shared/errors.js';

/** The config file cannot be used: not JSON, not mkt's shape, not readable or not writable. Exit 2. */
export class ConfigError extends MktError {
  override name = 'ConfigError';

  constructor(message: string, hint?: string) {
    super('CONFIG', message, { hint });
  }
}

/**
 * A file-system failure while using the config directory `dir`, as a ConfigError saying what failed,
 * where, and what to do: a local problem, neither a bug nor a network failure. Anything that is not
 * a system error is returned as it is.
 */
export function configFault(error: unknown, action: string, dir: string): unknown {
  const { code, path: at } = error as NodeJS.ErrnoException;
  if (error instanceof MktError || typeof code !== 'string' || !/^E[A-Z0-9]+$/.test(code)) return error;
  const where = at !== undefined && !action.endsWith(at) ? ` on ${at}` : '';
  return new ConfigError(`cannot ${action}: ${faultReason(error)} (${code}${where})`, FAULT_HINTS[code]?.(dir)
    ?? 'set MKT_CONFIG_DIR to another directory, or run again with MKT_DEBUG=1 for details');
}

/** "permission denied" from Node's "EACCES: permission denied, open '/x'". */
function faultReason(error: unknown): string {
  return /^E[A-Z0-9]+: ([^,]+)/.exec((error as Error).message)?.[1] ?? String((error as Error).message);
}

const elsewhere = 'or set MKT_CONFIG_DIR to a directory of your own';
const FAULT_HINTS: Record<string, (dir: string) => string> = {
  EACCES: (dir) => `check that ${dir} and the files in it are yours and writable (ls -la ${dir}), ${elsewhere}`,
  EPERM: (dir) => `check that ${dir} and the files in it are yours (ls -la ${dir}; sudo chown -R "$USER" ${dir}), ${elsewhere}`,
  EROFS: () => `that file system is mounted read-only: ${elsewhere} on a writable one`,
  ENOSPC: () => `the disk is full: free some space, ${elsewhere} on another disk`,
  EDQUOT: () => `your disk quota is used up: free some space, ${elsewhere} on another disk`,
  ENOTDIR: (dir) => `${dir} must be a directory (or not exist yet), ${elsewhere}`,
  EISDIR: (dir) => `config.json in ${dir} must be a file, not a directory`,
  EEXIST: (dir) => `${dir} must be a directory (or not exist yet), ${elsewhere}`,
  ELOOP: (dir) => `${dir} holds a loop of symbolic links, ${elsewhere}`,
};
