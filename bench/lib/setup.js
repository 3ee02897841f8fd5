// What the targets need before they can measure: the bench-only dependencies, Node 22 and 24 binaries,
// a token from the sandbox, and a description of the machine for the report.
/* global fetch */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BENCH_DIR = resolve(fileURLToPath(new URL('..', import.meta.url)));
export const ROOT_DIR = resolve(fileURLToPath(new URL('../..', import.meta.url)));

function installedMatchesLock() {
  const lock = JSON.parse(readFileSync(new URL('../package-lock.json', import.meta.url), 'utf8'));
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (!path.startsWith('node_modules/') || path.lastIndexOf('node_modules/') !== 0) continue;
    const manifest = new URL(`../${path}/package.json`, import.meta.url);
    if (entry.optional && !existsSync(manifest)) continue;
    if (!existsSync(manifest)) return false;
    if (JSON.parse(readFileSync(manifest, 'utf8')).version !== entry.version) return false;
  }
  return true;
}

/**
 * autocannon and Prism, from bench/node_modules; installed from bench/package-lock.json with
 * `npm ci --prefix bench` when missing or out of date. Returns {autocannon, prismBin} or {blocked}.
 */
export function ensureBenchDeps(log) {
  if (!installedMatchesLock()) {
    log('installing the benchmark dependencies: npm ci --prefix bench');
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const result = spawnSync(npm, ['ci', '--prefix', BENCH_DIR, '--no-audit', '--no-fund'], { stdio: ['ignore', 2, 2], timeout: 600_000 });
    if (result.error || result.status !== 0) {
      return { blocked: `npm ci --prefix bench failed (${result.error?.message ?? `exit code ${result.status}`}); see the npm output above` };
    }
  }
  const require = createRequire(new URL('../package.json', import.meta.url));
  const out = {};
  try {
    out.autocannon = require('autocannon');
  } catch (error) {
    return { blocked: `autocannon cannot be loaded from bench/node_modules: ${error.message.split('\n')[0]}` };
  }
  try {
    const manifestPath = require.resolve('@stoplight/prism-cli/package.json');
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
    out.prismBin = join(dirname(manifestPath), manifest.bin.prism);
    out.prismVersion = manifest.version;
  } catch (error) {
    out.prismBlocked = `@stoplight/prism-cli cannot be found in bench/node_modules: ${error.message.split('\n')[0]}`;
  }
  return out;
}

function nodeVersion(path) {
  const result = spawnSync(path, ['-p', 'process.versions.node'], { encoding: 'utf8', timeout: 30_000 });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

/** The Node majors the targets name besides the one that runs the benchmark (issue 11). */
const OTHER_MAJORS = [22, 24];

/**
 * The Node binaries the targets run on: this one, and Node 22 and 24, each from --node<major> PATH,
 * MKT_BENCH_NODE<major>, or `npx -y -p node@<major> which node` (the binary itself is then called,
 * so npx costs nothing in the timings). `options[major]` 'off' skips one. Entries that cannot be
 * had carry `blocked`. Each entry has its `major`.
 */
export function findNodes(options, log) {
  const major = (version) => Number(version.split('.')[0]);
  const nodes = [{ label: `node ${process.versions.node}`, path: process.execPath, version: process.versions.node, major: major(process.versions.node) }];
  for (const wanted of OTHER_MAJORS) {
    const option = options[wanted];
    if (option === 'off' || wanted === nodes[0].major) continue;
    let path = option ?? process.env[`MKT_BENCH_NODE${wanted}`];
    if (!path) {
      log(`finding Node ${wanted}: npx -y -p node@${wanted} which node`);
      const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
      const result = spawnSync(npx, ['-y', '-p', `node@${wanted}`, 'which', 'node'], { encoding: 'utf8', timeout: 300_000, cwd: os.tmpdir() });
      if (result.error || result.status !== 0) {
        nodes.push({ label: `node ${wanted}`, major: wanted, blocked: `npx -y -p node@${wanted} failed (${result.error?.message ?? `exit code ${result.status}: ${result.stderr.trim().split('\n').pop()}`}); pass --node${wanted} PATH` });
        continue;
      }
      path = result.stdout.trim().split('\n').pop();
    }
    const version = nodeVersion(path);
    if (!version || major(version) !== wanted) {
      nodes.push({ label: `node ${wanted}`, major: wanted, blocked: `${path} is not a working Node ${wanted} (${version ? `it is ${version}` : 'it does not run'})` });
    } else {
      nodes.push({ label: `node ${version}`, path, version, major: wanted });
    }
  }
  return nodes;
}

/** A client-credentials token for the demo client of a running sandbox. */
export async function getToken(base) {
  const response = await fetch(new URL('/v1/auth/token', base), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: 'demo', client_secret: 'demo-secret', grant_type: 'client_credentials' }),
    signal: AbortSignal.timeout(10_000),
  });
  const body = await response.json();
  if (!response.ok || typeof body.access_token !== 'string') throw new Error(`POST ${base}/v1/auth/token: HTTP ${response.status} ${JSON.stringify(body)}`);
  return body.access_token;
}

export function machine() {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model?.trim() ?? 'unknown',
    cores: cpus.length,
    ramGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
  };
}

/** The environment of every measured process: ours, without npm's or mkt's variables. */
export function cleanEnv(extra) {
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(npm_|MKT_|FORCE_COLOR$|NO_COLOR$|NODE_COMPILE_CACHE$|NODE_DISABLE_COMPILE_CACHE$|XDG_CACHE_HOME$)/i.test(key)) continue;
    env[key] = value;
  }
  return { ...env, ...extra };
}
