// Loads the CLI bundle (one CommonJS file) through a V8 code cache, so that a run after the first
// neither parses nor compiles what an earlier run already did: the same idea as Node's own
// module.enableCompileCache, which exists only from Node 22.1 and caches less (docs/benchmarks.md).
// The cache holds compiled code, never data: no quote, token or setting ends up in it, and the
// tests check that. Compiled code runs, so a cache is used only from a directory and a file that
// this user alone can write, and V8 checks a checksum of it (--verify-snapshot-checksum, set by
// ./launch.ts): a damaged cache is refused, not run.
// Built-in modules through process.getBuiltinModule, not import: on Node 20 each imported built-in
// gets an ES module facade built for it, which here cost 2-3 ms of every run (docs/benchmarks.md).
// node:fs and node:path are loaded by the time any code runs; node:vm only when a bundle is.
// And node:module not at all: the bundle's require() is process.getBuiltinModule.
import type { Stats } from 'node:fs';

const fs = process.getBuiltinModule('node:fs');
const path = process.getBuiltinModule('node:path');

/** Files in the cache directory not used for this long are removed when a new one is written. */
const STALE_MS = 30 * 24 * 60 * 60 * 1000;
/** A cache in use has its time refreshed this often, so that it does not count as unused. */
const TOUCH_MS = 24 * 60 * 60 * 1000;
/** Far more than a cache of the whole bundle; a bigger file is not one of ours. */
const MAX_BYTES = 64 * 1024 * 1024;
const SUFFIX = '.v8cache';

export interface LoadedBundle<T> {
  exports: T;
  /** Writes the cache for the next run if this one had none or V8 refused it. Never throws. */
  save(): void;
}

/**
 * Where the caches live: the user's own cache directory (as the config lives in the user's config
 * directory), never a shared temporary one, whose files anybody could have planted. Undefined when
 * caching is off: NODE_DISABLE_COMPILE_CACHE=1, as for Node's own cache, or no home directory. A
 * relative directory is ignored, as the XDG base directory specification says: the cache would
 * follow the working directory.
 */
export function codeCacheDir(env: Readonly<Record<string, string | undefined>>, platform = process.platform): string | undefined {
  if (env.NODE_DISABLE_COMPILE_CACHE === '1') return undefined;
  const absolute = (dir: string | undefined) => (dir && path.isAbsolute(dir) ? dir : undefined);
  const home = absolute(env.HOME || env.USERPROFILE);
  let root: string | undefined;
  if (platform === 'win32') root = absolute(env.LOCALAPPDATA) ?? (home && path.join(home, 'AppData', 'Local'));
  else if (platform === 'darwin') root = home && path.join(home, 'Library', 'Caches');
  else root = absolute(env.XDG_CACHE_HOME) ?? (home && path.join(home, '.cache'));
  return root ? path.join(root, 'mkt', 'code-cache') : undefined;
}

/**
 * One cache file per build, Node version, architecture and command: V8 keeps the code of the
 * functions a run compiled, so `mkt quotes` is best served by the cache an earlier `mkt quotes` left.
 */
export function codeCacheFile(dir: string, buildId: string, command: string): string {
  return path.join(dir, `${buildId}-${process.version}-${process.arch}-${command}${SUFFIX}`);
}

/**
 * Runs `file` (CommonJS) and returns its exports. With `cacheFile`, the compiled code comes from it
 * when it is private to this user and V8 accepts it: V8 checks its own version, its flags, the
 * source length and the checksum; the file name carries the build's hash for the rest. A missing,
 * damaged or foreign file is simply not used.
 */
export function loadBundle<T>(file: string, cacheFile: string | undefined): LoadedBundle<T> {
  // ASCII only (scripts/build.js checks): latin1 is a plain copy, twice as fast as decoding UTF-8.
  const source = fs.readFileSync(file, 'latin1');
  const cachedData = cacheFile !== undefined && isPrivateDirectory(path.dirname(cacheFile)) ? readPrivateFile(cacheFile) : undefined;
  const vm = process.getBuiltinModule('node:vm');
  // The wrapper is Node's own for CommonJS, on the first line so that line numbers stay true.
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: file, cachedData });
  const module = { exports: {} as T };
  script.runInThisContext()(module.exports, requireBuiltin, module, file, path.dirname(file));
  return {
    exports: module.exports,
    save: () => {
      if (cacheFile === undefined || (cachedData !== undefined && !script.cachedDataRejected)) return;
      writeCache(cacheFile, script.createCachedData());
    },
  };
}

/** The bundle's require(): it bundles all but Node's built-in modules (scripts/build.js). */
function requireBuiltin(id: string): unknown {
  const builtin = process.getBuiltinModule(id);
  if (builtin !== undefined) return builtin;
  // The code require() gives, which code that probes for a module (undici, for node:sqlite) expects.
  throw Object.assign(new Error(`Cannot find module '${id}'`), { code: id.startsWith('node:') ? 'ERR_UNKNOWN_BUILTIN_MODULE' : 'MODULE_NOT_FOUND' });
}

/** Owned by this user and writable by nobody else (Windows keeps this in ACLs, not modes). */
function isPrivate(stat: Stats): boolean {
  return process.getuid === undefined || (stat.uid === process.getuid() && (stat.mode & 0o022) === 0);
}

/**
 * The cache directory and its `mkt` parent are real directories of this user's alone, and the
 * directory above cannot have them swapped by others (not writable by all, or sticky as /tmp is).
 */
function isPrivateDirectory(dir: string): boolean {
  try {
    const parent = path.dirname(dir);
    for (const each of [dir, parent]) {
      const stat = fs.lstatSync(each);
      if (!stat.isDirectory() || !isPrivate(stat)) return false;
    }
    const root = fs.statSync(path.dirname(parent));
    return process.getuid === undefined || (root.mode & 0o002) === 0 || (root.mode & 0o1000) !== 0;
  } catch {
    return false;
  }
}

/** The file's bytes if it is a regular file of this user's alone; never follows a link or waits on a pipe. */
function readPrivateFile(file: string): Buffer | undefined {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0));
    const stat = fs.fstatSync(fd);
    if (!stat.isFile() || !isPrivate(stat) || stat.size > MAX_BYTES) return undefined;
    const data = Buffer.allocUnsafe(stat.size);
    let read = 0;
    while (read < data.length) {
      const count = fs.readSync(fd, data, read, data.length - read, read);
      if (count === 0) return undefined;
      read += count;
    }
    // In use: not stale (removeStale goes by this time).
    if (Date.now() - stat.mtimeMs > TOUCH_MS) fs.futimesSync(fd, new Date(), new Date());
    return data;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

function writeCache(cacheFile: string, data: Buffer): void {
  const dir = path.dirname(cacheFile);
  // A name nobody can have prepared, created only if it does not exist ('wx'): a link planted in
  // its place makes the write fail rather than write through it.
  const temporary = `${cacheFile}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (!isPrivateDirectory(dir)) return;
    // Written aside and renamed, so that a concurrent run reads the old file or the new one whole.
    fs.writeFileSync(temporary, data, { mode: 0o600, flag: 'wx' });
    fs.renameSync(temporary, cacheFile);
    removeStale(dir, cacheFile);
  } catch {
    // No cache is only slower: a read-only home, a full disk or a file in the way change nothing else.
    try {
      fs.rmSync(temporary, { force: true });
    } catch {
      // nothing more to do
    }
  }
}

/** Caches of other builds and Node versions, once unused for 30 days (an upgrade leaves them). */
function removeStale(dir: string, keep: string): void {
  const now = Date.now();
  for (const name of fs.readdirSync(dir)) {
    const file = path.join(dir, name);
    if (file === keep || !(name.endsWith(SUFFIX) || name.endsWith('.tmp'))) continue;
    try {
      if (now - fs.lstatSync(file).mtimeMs > STALE_MS) fs.rmSync(file, { force: true });
    } catch {
      // removed meanwhile by another run
    }
  }
}
