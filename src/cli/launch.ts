// What bin/mkt.js runs. Startup is paid on every run (docs/benchmarks.md): `--version` is answered
// here, before anything else loads; the rest of the CLI is one CommonJS bundle (dist/cli/main.cjs,
// from src/cli/main.ts), compiled from a V8 code cache that an earlier run left (./code-cache.ts).
import { codeCacheDir, codeCacheFile, loadBundle } from './code-cache.js';
import { isVersionRequest, VERSION } from './version.js';

// The hash of dist/cli/main.cjs, inlined by scripts/build.js.
declare const MKT_BUILD_ID: string;

type Main = typeof import('./main.js').main;

// The commands that get a cache of their own; any other first word shares one.
const COMMANDS = new Set(['quotes', 'login', 'token', 'logout', 'status', 'config', 'sandbox', 'completion', 'help']);

export async function launch(argv: string[]): Promise<number> {
  if (isVersionRequest(argv)) {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  const command = commandOf(argv);
  // No checksum, no code cache: a damaged one could crash V8.
  const dir = setCompilerFlags(command) ? codeCacheDir(process.env) : undefined;
  const bundle = loadBundle<{ main: Main }>(
    process.getBuiltinModule('node:url').fileURLToPath(new URL('./main.cjs', import.meta.url)),
    dir === undefined ? undefined : codeCacheFile(dir, MKT_BUILD_ID, command),
  );
  const code = await bundle.exports.main(argv);
  // A failed run may have stopped early, and its cache would serve the next runs poorly.
  if (code === 0) bundle.save();
  return code;
}

function commandOf(argv: readonly string[]): string {
  const word = argv.find((arg) => !arg.startsWith('-'));
  return word !== undefined && COMMANDS.has(word) ? word : 'other';
}

/** Node's majors whose V8 knows every flag below: V8 prints an error for a flag it does not know. */
const FLAGS_CHECKED_UP_TO = 26;

/**
 * V8 flags, set before the bundle loads: V8 accepts a code cache only under the flags it was made
 * with. Set on the Node majors they were checked on (20, 22, 24, 26); a later one runs without them,
 * and without the code cache, slower, rather than print "unrecognized flag" on every run if its V8
 * dropped one.
 *
 * - Optimised JavaScript pays off in long-running processes; a CLI run is over in a fraction of a
 *   second. It is compiled on a background thread, which competes with everything else for the CPU,
 *   and which the process waits for at exit. Interpreter and baseline code only: 10,000 quotes took
 *   8% less time (docs/benchmarks.md). Not for the sandbox, a server that runs for long.
 * - undici parses HTTP with llhttp compiled to WebAssembly. V8 compiles it with its baseline
 *   compiler, then recompiles it with the optimising one, and the process waits for that at exit:
 *   60-100 ms after the output is written, on every run. Node 20's V8 reads --liftoff-only when it
 *   compiles; later ones read it only at start-up, but take each new instance's tier-up budget from
 *   the flag of the moment, and one this large is never spent.
 * - A checksum in each code cache, checked before V8 uses it: a damaged file is refused, where
 *   without it V8 could run it and crash (./code-cache.ts).
 */
function setCompilerFlags(command: string): boolean {
  if (Number(process.versions.node.split('.')[0]) > FLAGS_CHECKED_UP_TO) return false;
  // As in ./code-cache.ts, no ES module facade; and not loaded at all for --version.
  const v8 = process.getBuiltinModule('node:v8');
  if (command !== 'sandbox') v8.setFlagsFromString('--max-opt=1');
  v8.setFlagsFromString('--liftoff-only');
  v8.setFlagsFromString('--wasm-tiering-budget=1000000000');
  v8.setFlagsFromString('--verify-snapshot-checksum');
  return true;
}
