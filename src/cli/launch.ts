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
  setCompilerFlags(command);
  const dir = codeCacheDir(process.env);
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

/**
 * V8's optimising compilers pay off in long-running processes; a CLI run is over in a fraction of a
 * second. Set before the bundle loads: V8 accepts a code cache only under the flags it was made with.
 *
 * - Optimised JavaScript: compiled on a background thread, which competes with everything else for
 *   the CPU, and which the process waits for at exit. Interpreter and baseline code only: 10,000
 *   quotes took 8% less time (docs/benchmarks.md). Not for the sandbox, a server that runs for long.
 * - undici parses HTTP with llhttp compiled to WebAssembly. V8 compiles it with its baseline
 *   compiler, then recompiles it with the optimising one, and the process waits for that at exit:
 *   60-100 ms after the output is written, on every run. Node 20's V8 reads --liftoff-only when it
 *   compiles; later ones read it only at start-up, but take each new instance's tier-up budget from
 *   the flag of the moment, and one this large is never spent.
 */
function setCompilerFlags(command: string): void {
  // As in ./code-cache.ts, no ES module facade; and not loaded at all for --version.
  const v8 = process.getBuiltinModule('node:v8');
  if (command !== 'sandbox') v8.setFlagsFromString('--max-opt=1');
  v8.setFlagsFromString('--liftoff-only');
  v8.setFlagsFromString('--wasm-tiering-budget=1000000000');
}
