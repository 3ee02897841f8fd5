// Builds dist/: the CLI, a small launcher (src/cli/launch.ts) and one CommonJS bundle of the rest
// (src/cli/main.ts); and the library, `mkt` and `mkt/sandbox`, for `require` and `import` alike,
// with declarations for both. Everything is written aside first, then moved into dist/ a file at a
// time by rename, the launcher last: a mkt that runs during a build loads whole files of the old
// build or of the new one, and never finds one missing.
//
//   node scripts/build.js [--out DIR] [--without DEVICE,...] [--cli-only]
//
// --without leaves out one of the start-up devices below, to measure what it is worth, and
// --cli-only skips the library (npm run bench -- --only devices; docs/benchmarks.md).
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const require = createRequire(import.meta.url);
const ROOT = resolve(import.meta.dirname, '..');
const DEVICES = ['wasm-budget', 'undici-alias', 'lazy-http2'];

const { values } = parseArgs({ options: { out: { type: 'string' }, without: { type: 'string', default: '' }, 'cli-only': { type: 'boolean', default: false } } });
const without = new Set(values.without.split(',').filter(Boolean));
for (const name of without) if (!DEVICES.includes(name)) throw new Error(`--without: unknown device ${name}; choose from ${DEVICES.join(', ')}`);
const out = resolve(ROOT, values.out ?? 'dist');
const started = Date.now();

/**
 * The CLI's bundle gets undici's HTTP/1.1 dispatchers and request() instead of undici's index
 * (scripts/undici-cli.js says why and when it can go). Only `undici` itself: undici's own modules
 * and the library's build resolve as usual.
 */
const undiciAlias = {
  name: 'undici-alias',
  setup(b) {
    b.onResolve({ filter: /^undici$/ }, () => ({ path: join(ROOT, 'scripts', 'undici-cli.js') }));
  },
};

/**
 * The one patch of a dependency's text. undici's client requires its HTTP/2 client at the top, and
 * with it node:http2, although that client runs only when a TLS connection negotiates h2, which mkt
 * never enables (undici's `allowH2` stays off). In the CLI's bundle it is required on first use:
 * 25-35 ms of CPU on every run on Node 22 and 24 (docs/benchmarks.md). The build fails if undici's
 * text changes rather than silently losing the patch. It can go when undici requires client-h2.js
 * lazily itself, or when `npm run bench -- --only devices` measures it under 5 ms.
 */
const lazyHttp2 = {
  name: 'lazy-http2',
  setup(b) {
    const from = "const connectH2 = require('./client-h2.js')";
    b.onLoad({ filter: /undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (!source.includes(from)) throw new Error(`lazy-http2: ${args.path} no longer contains: ${from}`);
      return { contents: source.replace(from, "const connectH2 = (...args) => require('./client-h2.js')(...args)"), loader: 'js' };
    });
  },
};

/**
 * The MCP SDK and zod (src/cli/mcp/sdk.ts, the one module that imports them) are built apart, as
 * dist/cli/mcp-sdk.cjs: about 1 MB, more than the rest of the CLI, which every other command would
 * otherwise read and hash (compile cache) or parse (Node 20) on every run. main.cjs requires it, by
 * this name, when `mkt mcp` runs, and only then (a dynamic import of our modules is a call of their
 * initialiser, and this require is in theirs). The standalone executable's bundler follows the
 * require. It can go when the SDK is small enough that `npm run bench` sees no difference.
 */
const MCP_SDK = join(ROOT, 'src', 'cli', 'mcp', 'sdk.ts');
const mcpSdkApart = {
  name: 'mcp-sdk-apart',
  setup(b) {
    b.onResolve({ filter: /[\\/]sdk\.js$/ }, (args) => (resolve(args.resolveDir, args.path.replace(/\.js$/, '.ts')) === MCP_SDK ? { path: './mcp-sdk.cjs', external: true } : undefined));
  },
};

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20.18',
  sourcemap: false,
  legalComments: 'none',
  logLevel: 'warning',
  // import() of a package or a built-in becomes require(): these are CommonJS files, and an import()
  // would start Node's ES module loader in the middle of a run.
  supported: { 'dynamic-import': false },
};
const version = JSON.stringify(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);

mkdirSync(out, { recursive: true });
const staging = join(out, `.build-${process.pid}`);
rmSync(staging, { recursive: true, force: true });
try {
  await buildCli(staging);
  if (!values['cli-only']) await buildLibrary(staging);
  // --cli-only leaves the library that is there alone.
  install(staging, out, values['cli-only'] ? 'cli' : '');
} finally {
  rmSync(staging, { recursive: true, force: true });
}
if (process.env.MKT_BUILD_QUIET !== '1') console.error(`built ${relative(process.cwd(), out) || '.'}/ in ${Date.now() - started} ms${without.size ? ` without ${[...without].join(', ')}` : ''}`);

async function buildCli(dir) {
  // Everything but --version, in one CommonJS file: Node 20 has no compile cache, and its ES module
  // loader costs per module. What a command does not use is parsed, never run: a dynamic import()
  // of our own modules becomes a call of the bundled module's initialiser.
  await build({
    ...common,
    format: 'cjs',
    entryPoints: [join(ROOT, 'src/cli/main.ts')],
    outfile: join(dir, 'cli', 'main.cjs'),
    plugins: [mcpSdkApart, ...[undiciAlias, lazyHttp2].filter((plugin) => !without.has(plugin.name))],
    define: { MKT_VERSION: version, MKT_WASM_BUDGET: String(!without.has('wasm-budget')) },
    // Less to read and hash on every run: 3 ms of Node 22's and 24's ~70 ms (docs/benchmarks.md).
    // Names are kept, so a stack trace (MKT_DEBUG=1) still names the functions.
    minifyWhitespace: true,
    minifySyntax: true,
  });
  await build({
    ...common,
    format: 'cjs',
    entryPoints: [MCP_SDK],
    outfile: join(dir, 'cli', 'mcp-sdk.cjs'),
    minifyWhitespace: true,
    minifySyntax: true,
  });
  await build({
    ...common,
    format: 'cjs',
    entryPoints: [join(ROOT, 'src/cli/launch.ts')],
    outfile: join(dir, 'cli', 'launch.cjs'),
    // Loaded beside it at run time, after --version is answered.
    external: ['./main.cjs'],
    define: { MKT_VERSION: version },
  });
}

/**
 * One CommonJS build of each entry point, with its dependencies left to the user's own copies, and
 * an ES module that re-exports it: `import` and `require` get the same classes, so `instanceof`
 * holds in a program that does both (Node's "dual package hazard"). Declarations: tsc's, and a
 * .d.cts copy of each for `require`.
 */
async function buildLibrary(dir) {
  const entries = { api: 'src/api/index.ts', sandbox: 'src/sandbox/index.ts' };
  await build({
    ...common,
    format: 'cjs',
    entryPoints: Object.fromEntries(Object.entries(entries).map(([name, file]) => [name, join(ROOT, file)])),
    outdir: dir,
    outExtension: { '.js': '.cjs' },
    packages: 'external',
  });
  // The names each entry exports, as esbuild sees them.
  const { metafile } = await build({ ...common, format: 'esm', entryPoints: Object.values(entries).map((file) => join(ROOT, file)), outdir: dir, packages: 'external', write: false, metafile: true });
  const exported = Object.values(metafile.outputs).filter((output) => output.entryPoint).map((output) => [output.entryPoint, output.exports]);
  for (const [name, file] of Object.entries(entries)) {
    const names = exported.find(([entry]) => resolve(entry) === join(ROOT, file))[1].slice().sort();
    writeFileSync(join(dir, `${name}.js`), `// The ES module entry: ./${name}.cjs, re-exported (scripts/build.js says why).
import cjs from './${name}.cjs';

export const {\n${names.map((n) => `  ${n},\n`).join('')}} = cjs;\n`);
  }
  execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(ROOT, 'tsconfig.build.json'), '--outDir', join(dir, 'types')], { stdio: 'inherit' });
  for (const file of filesUnder(join(dir, 'types'))) {
    if (!file.endsWith('.d.ts')) continue;
    const text = readFileSync(join(dir, 'types', file), 'utf8');
    const cjs = text.replace(/(\bfrom\s+|\bimport\s*\(\s*)(['"])(\.{1,2}\/[^'"]*)\.js\2/g, '$1$2$3.cjs$2');
    writeFileSync(join(dir, 'types', file.replace(/\.d\.ts$/, '.d.cts')), cjs);
  }
}

/** Moves the new build into `to` a file at a time, the launcher last, then removes what it no longer has (under `scope`). */
function install(from, to, scope) {
  const files = filesUnder(from);
  const last = join('cli', 'launch.cjs');
  for (const file of [...files.filter((f) => f !== last), last]) {
    mkdirSync(dirname(join(to, file)), { recursive: true });
    renameSync(join(from, file), join(to, file));
  }
  const kept = new Set(files);
  // dist/exe/ is npm run build:exe's (scripts/build-exe.js), not this build's.
  for (const file of filesUnder(join(to, scope))) if (!kept.has(join(scope, file)) && !join(scope, file).startsWith(join('exe', '/'))) rmSync(join(to, scope, file), { force: true });
}

/** Files under `dir`, relative to it; not the staging directories of builds under way. */
function filesUnder(dir) {
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.build-')) continue;
    if (entry.isDirectory()) files.push(...filesUnder(join(dir, entry.name)).map((file) => join(entry.name, file)));
    else files.push(entry.name);
  }
  return files;
}
