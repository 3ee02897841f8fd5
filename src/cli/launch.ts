// What bin/mkt.js runs. Startup is paid on every run (docs/benchmarks.md): `--version` is answered
// here, before anything else loads; the rest of the CLI is one CommonJS bundle (dist/cli/main.cjs,
// from src/cli/main.ts), compiled from a V8 code cache that an earlier run left (./code-cache.ts).
import { codeCacheDir, codeCacheFile, loadBundle } from './code-cache.js';
import { isVersionRequest, VERSION } from './version.js';

// The hash of dist/cli/main.cjs, inlined by scripts/build.js.
declare const MKT_BUILD_ID: string;

type Main = typeof import('./main.js').main;

// As in ./code-cache.ts: no ES module facades for built-ins.
const { fileURLToPath } = process.getBuiltinModule('node:url');
const v8 = process.getBuiltinModule('node:v8');

// The commands that get a cache of their own; any other first word shares one.
const COMMANDS = new Set(['quotes', 'login', 'token', 'logout', 'status', 'config', 'sandbox', 'completion', 'help']);

export async function launch(argv: string[]): Promise<number> {
  if (isVersionRequest(argv)) {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  preferBaselineWasm();
  const dir = codeCacheDir(process.env);
  const bundle = loadBundle<{ main: Main }>(
    fileURLToPath(new URL('./main.cjs', import.meta.url)),
    dir === undefined ? undefined : codeCacheFile(dir, MKT_BUILD_ID, commandOf(argv)),
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
 * undici parses HTTP with llhttp compiled to WebAssembly. V8 compiles it quickly with its baseline
 * compiler, then recompiles it with the optimising one in the background, and the process waits for
 * that at exit: 60-100 ms after the output is written, on every run. A CLI parses a few small
 * responses; the baseline code is plenty. Node 20's V8 reads --liftoff-only when it compiles; later
 * ones read it only at start-up, but take each new instance's tier-up budget from the flag of the
 * moment, and one this large is never spent. Set before the bundle loads: V8 accepts a code cache
 * only under the flags it was made with.
 */
function preferBaselineWasm(): void {
  v8.setFlagsFromString('--liftoff-only');
  v8.setFlagsFromString('--wasm-tiering-budget=1000000000');
}
