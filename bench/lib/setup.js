// What the targets need before they can measure: the bench-only dependencies, a Node 24 binary,
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

/**
 * The Node binaries target 1 runs on: this one, and a Node 24 from --node24 PATH, MKT_BENCH_NODE24,
 * or `npx -y -p node@24 which node` (the binary itself is then called, so npx costs nothing in the
 * timings). Entries that cannot be had carry `blocked`.
 */
export function findNodes(option, log) {
  const current = { label: `node ${process.versions.node}`, path: process.execPath, version: process.versions.node };
  const nodes = [current];
  if (option === 'off' || process.versions.node.startsWith('24.')) return nodes;
  let path = option ?? process.env.MKT_BENCH_NODE24;
  if (!path) {
    log('finding Node 24: npx -y -p node@24 which node');
    const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
    const result = spawnSync(npx, ['-y', '-p', 'node@24', 'which', 'node'], { encoding: 'utf8', timeout: 300_000, cwd: os.tmpdir() });
    if (result.error || result.status !== 0) {
      nodes.push({ label: 'node 24', blocked: `npx -y -p node@24 failed (${result.error?.message ?? `exit code ${result.status}: ${result.stderr.trim().split('\n').pop()}`}); pass --node24 PATH` });
      return nodes;
    }
    path = result.stdout.trim().split('\n').pop();
  }
  const version = nodeVersion(path);
  if (!version?.startsWith('24.')) {
    nodes.push({ label: 'node 24', blocked: `${path} is not a working Node 24 (${version ? `it is ${version}` : 'it does not run'})` });
  } else {
    nodes.push({ label: `node ${version}`, path, version });
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
