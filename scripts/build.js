// Builds dist/: the CLI as one CommonJS bundle and the small launcher that loads it with a V8 code
// cache (startup cost is paid on every run, see docs/benchmarks.md), the library entry points, and
// the library's type declarations.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const started = Date.now();
rmSync('dist', { recursive: true, force: true });

// conf imports ajv, ajv-formats and semver at the top level, but uses them only for JSON-schema
// validation and migrations, which mkt does not configure. Loading them costs ~30 ms per run.
const confExtras = {
  name: 'conf-without-schema',
  setup(b) {
    b.onResolve({ filter: /^(ajv\/dist\/2020\.js|ajv-formats|semver)$/ }, (args) => ({ path: args.path, namespace: 'unused' }));
    b.onLoad({ filter: /.*/, namespace: 'unused' }, (args) => ({
      contents: `const unused = () => { throw new Error('${args.path} is not bundled with mkt'); };
export default unused; export const Ajv2020 = unused;`,
      loader: 'js',
    }));
  },
};

// Top-level requires in dependencies of modules that mkt's runs never use, made lazy (measured in
// docs/benchmarks.md): undici's HTTP/2 client pulls in node:http2 and node:tls (~6 ms) although it
// is only used when a TLS connection negotiates h2, which mkt never enables; commander requires
// node:child_process only to run executable subcommands, which mkt has none of. The build fails if
// an upgrade changes the text, rather than silently losing the patch.
const lazyRequires = {
  name: 'lazy-requires',
  setup(b) {
    const patches = [
      [/undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/, "const connectH2 = require('./client-h2.js')",
        "const connectH2 = (...args) => require('./client-h2.js')(...args)"],
      // node:http (5 ms on Node 20, 25 ms on Node 24) is only read for its default maxHeaderSize,
      // which mkt passes explicitly (src/cli/http.ts), and for an instanceof check on destroy.
      [/undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/, "const http = require('node:http')",
        "const http = { get maxHeaderSize () { return require('node:http').maxHeaderSize } }"],
      [/undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/, "const getDefaultNodeMaxHeaderSize = http &&",
        "const getDefaultNodeMaxHeaderSize = () => http.maxHeaderSize\nconst unusedDefaultCheck = false &&"],
      [/undici[\\/]lib[\\/]core[\\/]util\.js$/, "const { IncomingMessage } = require('node:http')\n", ''],
      [/undici[\\/]lib[\\/]core[\\/]util\.js$/, '.constructor === IncomingMessage)', ".constructor === require('node:http').IncomingMessage)"],
      [/commander[\\/]lib[\\/]command\.js$/, "const childProcess = require('node:child_process');",
        "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };"],
    ];
    b.onLoad({ filter: /(undici[\\/]lib[\\/](dispatcher[\\/]client|core[\\/]util)|commander[\\/]lib[\\/]command)\.js$/ }, async (args) => {
      let source = await readFile(args.path, 'utf8');
      for (const [filter, from, to] of patches) {
        if (!filter.test(args.path)) continue;
        if (!source.includes(from)) throw new Error(`lazy-requires: ${args.path} no longer contains: ${from}`);
        source = source.replace(from, to);
      }
      return { contents: source, loader: 'js' };
    });
  },
};

// undici's HTTP/1.1 client reads two tables, TYPE and ERROR, of llhttp's constants module, which
// builds some forty others when it loads (2 ms of every run on Node 20). The client gets the two,
// taken from the module at build time; the build fails if the client starts reading any other.
const llhttpConstants = {
  name: 'llhttp-constants',
  setup(b) {
    b.onResolve({ filter: /[\\/]llhttp[\\/]constants\.js$/ }, (args) => {
      if (!/undici[\\/]lib[\\/]dispatcher[\\/]client-h1\.js$/.test(args.importer)) return undefined;
      return { path: args.importer, namespace: 'llhttp-constants' };
    });
    b.onLoad({ filter: /.*/, namespace: 'llhttp-constants' }, async (args) => {
      const client = await readFile(args.path, 'utf8');
      const used = new Set([...client.matchAll(/(?<![\w/.])constants\.([A-Za-z_]+)/g)].map((match) => match[1]));
      for (const name of used) if (name !== 'TYPE' && name !== 'ERROR') throw new Error(`llhttp-constants: client-h1.js now reads constants.${name}`);
      // The copy next to this client, whichever undici it belongs to.
      const { TYPE, ERROR } = require(fileURLToPath(new URL('../llhttp/constants.js', pathToFileURL(args.path))));
      return { contents: `module.exports = ${JSON.stringify({ TYPE, ERROR })};`, loader: 'js' };
    });
  },
};

// undici calls assert() on invariants that hold, in sixteen modules, and loading node:assert costs
// ~2 ms of every run on Node 20. Its modules get an assert() that loads node:assert only when an
// invariant fails, and then throws what node:assert throws. A module that uses more than the bare
// call (assert.strictEqual, say) keeps node:assert itself.
const lazyAssert = {
  name: 'lazy-assert',
  setup(b) {
    b.onResolve({ filter: /^node:assert$/ }, async (args) => {
      if (!/undici[\\/]lib[\\/]/.test(args.importer)) return undefined;
      if (/\bassert\.[A-Za-z]/.test(await readFile(args.importer, 'utf8'))) return undefined;
      return { path: 'assert', namespace: 'lazy-assert' };
    });
    b.onLoad({ filter: /.*/, namespace: 'lazy-assert' }, () => ({
      contents: `let real;
module.exports = function assert(value, message) {
  if (!value) (real ??= require('node:assert'))(value, message);
};`,
      loader: 'js',
    }));
  },
};

const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.18',
  sourcemap: false,
  legalComments: 'none',
  logLevel: 'warning',
};
const version = JSON.stringify(require('../package.json').version);

// Everything the CLI runs, in one file: src/cli/launch.ts compiles it with vm.Script and a code cache,
// which needs a script, not ES modules. What a command does not use is still only parsed, never run:
// a dynamic import() of our own modules becomes a call of the bundled module's initialiser.
await build({
  ...common,
  format: 'cjs',
  entryPoints: { main: 'src/cli/main.ts' },
  outfile: 'dist/cli/main.cjs',
  // import('node:tls') and the like become require(): vm.Script has no loader for import().
  supported: { 'dynamic-import': false },
  // Whitespace and comments off: less to read and hash on every run. Names stay, for stack traces.
  minifyWhitespace: true,
  minifySyntax: true,
  plugins: [confExtras, lazyRequires, llhttpConstants, lazyAssert],
  define: { MKT_VERSION: version },
});
const bundle = readFileSync('dist/cli/main.cjs');
// The launcher reads the bundle as latin1, a plain copy, which is the same text only for ASCII.
if (bundle.some((byte) => byte > 0x7f)) throw new Error('dist/cli/main.cjs has non-ASCII bytes; the launcher reads it as latin1');
const buildId = createHash('sha256').update(bundle).digest('hex').slice(0, 16);

await build({
  ...common,
  entryPoints: { launch: 'src/cli/launch.ts' },
  outdir: 'dist/cli',
  define: { MKT_VERSION: version, MKT_BUILD_ID: JSON.stringify(buildId) },
});

// The library keeps its dependencies external: programmatic users share their own copies.
await build({
  ...common,
  entryPoints: { api: 'src/api/index.ts', sandbox: 'src/sandbox/index.ts' },
  outdir: 'dist',
  packages: 'external',
});

execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
if (process.env.MKT_BUILD_QUIET !== '1') console.error(`built dist/ in ${Date.now() - started} ms`);
