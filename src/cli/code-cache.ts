// Loads the CLI bundle (one CommonJS file) through a V8 code cache, so that a run after the first
// neither parses nor compiles what an earlier run already did: the same idea as Node's own
// module.enableCompileCache, which exists only from Node 22.1 and caches less (docs/benchmarks.md).
// The cache holds compiled code, never data: no quote, token or setting ends up in it, and the
// tests check that.
// Built-in modules through process.getBuiltinModule, not import: on Node 20 each imported built-in
// gets an ES module facade built for it, which here cost 2-3 ms of every run (docs/benchmarks.md).
// node:fs and node:path are loaded by the time any code runs; node:vm only when a bundle is.
// And node:module not at all: the bundle's require() is process.getBuiltinModule.
const fs = process.getBuiltinModule('node:fs');
const path = process.getBuiltinModule('node:path');

/** Files in the cache directory not written for this long are removed when a new one is written. */
const STALE_MS = 30 * 24 * 60 * 60 * 1000;
const SUFFIX = '.v8cache';

export interface LoadedBundle<T> {
  exports: T;
  /** Writes the cache for the next run if this one had none or V8 refused it. Never throws. */
  save(): void;
}

/**
 * Where the caches live: the user's own cache directory (as the config lives in the user's config
 * directory), never a shared temporary one, whose files anybody could have planted. Undefined when
 * caching is off: NODE_DISABLE_COMPILE_CACHE=1, as for Node's own cache, or no home directory.
 */
export function codeCacheDir(env: Readonly<Record<string, string | undefined>>, platform = process.platform): string | undefined {
  if (env.NODE_DISABLE_COMPILE_CACHE === '1') return undefined;
  const home = env.HOME || env.USERPROFILE;
  let root: string | undefined;
  if (platform === 'win32') root = env.LOCALAPPDATA || (home && path.join(home, 'AppData', 'Local'));
  else if (platform === 'darwin') root = home && path.join(home, 'Library', 'Caches');
  else root = env.XDG_CACHE_HOME || (home && path.join(home, '.cache'));
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
 * when V8 accepts it: V8 checks its own version, its flags and the source length; the file name
 * carries the build's hash for the rest. A missing, truncated or foreign file is simply not used.
 */
export function loadBundle<T>(file: string, cacheFile: string | undefined): LoadedBundle<T> {
  // ASCII only (scripts/build.js checks): latin1 is a plain copy, twice as fast as decoding UTF-8.
  const source = fs.readFileSync(file, 'latin1');
  let cachedData: Buffer | undefined;
  if (cacheFile !== undefined) {
    try {
      cachedData = fs.readFileSync(cacheFile);
    } catch {
      cachedData = undefined;
    }
  }
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
  if (builtin === undefined) throw new Error(`mkt's bundle asked for ${id}, which is not a Node built-in module`);
  return builtin;
}

function writeCache(cacheFile: string, data: Buffer): void {
  const dir = path.dirname(cacheFile);
  const temporary = `${cacheFile}.${process.pid}.tmp`;
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Written aside and renamed, so that a concurrent run reads the old file or the new one whole.
    fs.writeFileSync(temporary, data, { mode: 0o600 });
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
      if (now - fs.statSync(file).mtimeMs > STALE_MS) fs.rmSync(file, { force: true });
    } catch {
      // removed meanwhile by another run
    }
  }
}
