// One V8 flag for short runs, set as late as it can be. undici parses HTTP with llhttp compiled to
// WebAssembly. V8 compiles it with its baseline compiler, and then, once the parser has run a little,
// again with its optimising one on a background thread, which the process waits for at exit: tens of
// milliseconds of every short run, after the output is written. A tier-up budget that is never spent
// keeps llhttp on the baseline code, which is plenty for the few responses of a short run.
//
// V8 reads the budget when llhttp is compiled, at undici's first connection. Any flag changes V8's
// flag hash, and Node's own modules loaded after that can no longer use the code cache Node ships
// them with, so each is compiled from source: set at start-up, the flag made the modules a quotes
// run loads (node:net, node:http, streams...) cost 6 to 8 ms more (docs/benchmarks.md). So it is set
// when the first connection is open (a direct one has loaded node:tls by then), or, through a
// proxy, before it opens, since undici parses the proxy's answer to CONNECT itself.
//
// It can go when `npm run bench -- --only devices` shows it worth less than 20 ms on Node 22 and 24
// (V8 no longer waiting at exit for background tier-up, or undici parsing in JavaScript).

/**
 * Inlined by scripts/build.js: true in the bundle, false with --without wasm-budget (to measure what
 * the flag is worth). Undefined when the source runs unbundled (the test suite's in-process runs),
 * where no V8 flag is set: a test worker's V8 is left as it is.
 */
declare const MKT_WASM_BUDGET: boolean | undefined;

/** Node majors the flag was measured on; V8 prints an error for a flag it lacks. */
const NODES = [20, 22, 24];

let set = false;

/**
 * Keeps llhttp on V8's baseline compiler for the rest of the process. Called by the one place that
 * knows when undici is about to compile it, the connection guard (connector-guard.ts), for a command
 * that ends after a few responses (not `--watch`); acts once, in the bundle only.
 */
export function spareWasmTierUp(): void {
  if (set || typeof MKT_WASM_BUDGET !== 'boolean' || !MKT_WASM_BUDGET) return;
  set = true;
  if (!NODES.includes(Number(process.versions.node.split('.')[0]))) return;
  process.getBuiltinModule('node:v8').setFlagsFromString('--wasm-tiering-budget=1000000000');
}
