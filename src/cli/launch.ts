// What bin/mkt.cjs runs. Start-up is paid on every run (docs/benchmarks.md): `--version` is answered
// here, before anything else loads; the rest of the CLI is one CommonJS bundle, dist/cli/main.cjs
// (src/cli/main.ts), which Node's compile cache serves compiled where Node has one (22.1 and later).
// Built-in modules through process.getBuiltinModule: an `import` of one builds an ES module facade.
import { othersCanWrite } from '../config/others-can-write.js';
import { isVersionRequest, VERSION } from './version.js';

type Main = typeof import('./main.js').main;

/** The part of node:module that Node 20's types do not know yet. */
interface CompileCache {
  enableCompileCache?: (dir: string) => unknown;
  getCompileCacheDir?: () => string | undefined;
}

export async function launch(argv: string[]): Promise<number> {
  if (isVersionRequest(argv)) return writeVersion();
  enableCompileCache(process.env);
  // This file is built as CommonJS beside the bundle (scripts/build.js): require is Node's own loader.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { main } = require('./main.cjs') as { main: Main };
  return main(argv);
}

/** `mkt --version`; a stdout that cannot be written is exit 1 with one line, as in main.ts. */
function writeVersion(): Promise<number> {
  return new Promise((resolve) => {
    process.stdout.once('error', () => {});
    process.stdout.write(`${VERSION}\n`, (error) => {
      // A reader that went away (`mkt --version | true`) is not an error, as for every command.
      if (!error || (error as NodeJS.ErrnoException).code === 'EPIPE') return resolve(0);
      process.stderr.write(`error: cannot write to standard output: ${error.message}\n`);
      resolve(1);
    });
  });
}

/**
 * Node's compile cache in this user's cache directory. Compiled code runs, so the directory must be
 * this user's alone: created 0700 without following a link, and not used if it is a link, belongs
 * to someone else or others can write to it, or if anyone else could swap it for another: the
 * directory above it belongs to another user (root aside), or other users can write to it (all
 * users, or a group with anyone else in it), unless it is sticky, as /tmp is.
 * NODE_DISABLE_COMPILE_CACHE (any value) turns it off, as Node does, and then nothing is created; a
 * cache that NODE_COMPILE_CACHE already enabled is left as it is.
 */
function enableCompileCache(env: NodeJS.ProcessEnv): void {
  const module = process.getBuiltinModule('node:module') as CompileCache;
  if (module.enableCompileCache === undefined || env.NODE_DISABLE_COMPILE_CACHE !== undefined) return;
  if (module.getCompileCacheDir?.() !== undefined) return;
  const dir = compileCacheDir(env);
  if (dir !== undefined && isPrivateDirectory(dir)) module.enableCompileCache(dir);
}

/**
 * `mkt` in the user's cache directory: `$XDG_CACHE_HOME/mkt` or `~/.cache/mkt` on Linux,
 * `~/Library/Caches/mkt` on macOS, `%LOCALAPPDATA%\mkt` on Windows. A relative XDG_CACHE_HOME is
 * ignored, as the XDG base directory specification says: the cache would follow the working directory.
 */
function compileCacheDir(env: NodeJS.ProcessEnv, platform = process.platform): string | undefined {
  const path = process.getBuiltinModule('node:path');
  const absolute = (dir: string | undefined) => (dir && path.isAbsolute(dir) ? dir : undefined);
  const home = absolute(env.HOME || env.USERPROFILE);
  let root: string | undefined;
  if (platform === 'win32') root = absolute(env.LOCALAPPDATA) ?? (home && path.join(home, 'AppData', 'Local'));
  else if (platform === 'darwin') root = home && path.join(home, 'Library', 'Caches');
  else root = absolute(env.XDG_CACHE_HOME) ?? (home && path.join(home, '.cache'));
  return root ? path.join(root, 'mkt') : undefined;
}

/** Creates `dir` (0700) if it is missing, then says whether it is a directory of this user's alone. */
function isPrivateDirectory(dir: string): boolean {
  const fs = process.getBuiltinModule('node:fs');
  const path = process.getBuiltinModule('node:path');
  const uid = process.getuid?.();
  try {
    const parent = path.dirname(dir);
    fs.mkdirSync(parent, { recursive: true, mode: 0o700 });
    // Not recursive: mkdir fails on anything already there, a link included, and so never
    // creates anything through one.
    fs.mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return false;
  }
  try {
    const stat = fs.lstatSync(dir);
    if (!stat.isDirectory()) return false;
    // Windows keeps this in ACLs, not modes.
    if (uid === undefined) return true;
    if (stat.uid !== uid || (stat.mode & 0o022) !== 0) return false;
    // Nobody else may swap it for another: see othersCanWrite for groups and the sticky bit.
    const above = fs.statSync(path.dirname(dir));
    return (above.uid === uid || above.uid === 0) && othersCanWrite(above, uid) === undefined;
  } catch {
    return false;
  }
}
