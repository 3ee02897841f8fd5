// .github/workflows/release.yml's `run:` steps, run with bash as GitHub's runner does, after the
// executables are built (npm run test:exe builds them first); and README's install of the
// executable, against a "release" that is dist/exe/. What needs the runner, a registry
// or a release (gh, npm publish) runs against stand-ins on PATH that record their arguments and
// check the files they are given; the package's own commands (npm ci, npm test, npm run test:exe)
// are what CI runs anyway, and are not run twice.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { EXE, ROOT } from '../helpers/bin.js';
import { tempDir } from '../helpers/cli.js';

interface Step { name?: string; uses?: string; run?: string; if?: string; env?: Record<string, string> }
interface Workflow { on: { push: { tags: string[] } }; permissions: Record<string, string>; jobs: { release: { 'timeout-minutes': number; steps: Step[] } } }

const workflow = YAML.parse(fs.readFileSync(path.join(ROOT, '.github', 'workflows', 'release.yml'), 'utf8')) as Workflow;
const { steps } = workflow.jobs.release;
const VERSION = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version as string;
/** The project's own commands, run by CI itself (.ci/run), and the runner's package manager. */
const NOT_RUN_HERE: Record<string, string> = {
  'Install dependencies': 'npm ci',
  'Install qemu-user, to run the arm64 executable': 'sudo apt-get update && sudo apt-get install -y qemu-user libc6-arm64-cross libstdc++6-arm64-cross',
  Test: 'npm test',
  'Build and test the executables': 'npm run test:exe',
};

const cleanup: Array<() => void> = [];
afterEach(() => {
  for (const step of cleanup.splice(0).reverse()) step();
});

/** A directory of stand-ins for `gh` and `npm publish`: each writes its arguments and the sha256 of every file it was given to calls.log. */
function standIns(): { bin: string; log: string } {
  const dir = tempDir('mkt-release-');
  cleanup.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  const bin = path.join(dir, 'bin');
  const log = path.join(dir, 'calls.log');
  fs.mkdirSync(bin);
  const record = `printf '%s' "$(basename "$0")" >> "${log}"; for arg in "$@"; do printf ' %s' "$arg" >> "${log}"; done; echo >> "${log}"
for arg in "$@"; do if [ -f "$arg" ]; then sha256sum "$arg" >> "${log}"; fi; done`;
  fs.writeFileSync(path.join(bin, 'gh'), `#!/bin/sh\n${record}\n`, { mode: 0o755 });
  // npm publish only: everything else is the real npm.
  const npm = execFileSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim();
  fs.writeFileSync(path.join(bin, 'npm'), `#!/bin/sh\nif [ "$1" = publish ]; then\n${record}\nexit 0\nfi\nexec "${npm}" "$@"\n`, { mode: 0o755 });
  return { bin, log };
}

/** Runs `script` in bash as GitHub runs a step (`bash --noprofile --norc -eo pipefail`), in the project. */
function bash(script: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The steps with a `run:`, in order, each with the environment the runner gives it, until one fails. */
async function runSteps(tag: string): Promise<{ ran: string[]; log: string; stderr: string }> {
  const { bin, log } = standIns();
  const ran: string[] = [];
  let stderr = '';
  for (const step of steps) {
    if (step.run === undefined) continue;
    if (step.name! in NOT_RUN_HERE) {
      expect(step.run.trim()).toBe(NOT_RUN_HERE[step.name!]);
      continue;
    }
    const env = { PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`, HOME: process.env.HOME ?? '/tmp', LANG: 'C.UTF-8', GITHUB_REF_NAME: tag, ...step.env };
    const run = await bash(step.run, env);
    ran.push(`${step.name}: ${run.code}`);
    stderr += run.stderr;
    if (run.code !== 0) break;
  }
  return { ran, log: fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : '', stderr };
}

describe('.github/workflows/release.yml', () => {
  it('runs on a version tag, bounded in time, with the permissions a release and provenance need', () => {
    expect(workflow.on.push.tags).toEqual(['v*']);
    expect(workflow.jobs.release['timeout-minutes']).toBeGreaterThan(0);
    expect(workflow.permissions).toEqual({ contents: 'write', 'id-token': 'write' });
    expect(steps.map((step) => step.name ?? step.uses)).toContain('Publish to npm with provenance');
  });

  it.runIf(EXE !== undefined)('leaves the executables out of the npm package', () => {
    const [pack] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })) as Array<{ files: Array<{ path: string }> }>;
    expect(pack!.files.map((file) => file.path).filter((file) => file.startsWith('dist/exe'))).toEqual([]);
  });

  it.runIf(EXE !== undefined)('refuses a tag that is not the package\'s version, before anything else', async () => {
    const { ran, log, stderr } = await runSteps('v9.9.9');
    expect(ran).toEqual(['Check the tag is the package\'s version: 1']);
    expect(stderr).toContain(`the tag v9.9.9 is not v${VERSION}`);
    expect(log).toBe('');
  });

  it.runIf(EXE !== undefined)('checks the sums, attaches both executables and SHA256SUMS to the release, and publishes with provenance (npm run test:exe)', async () => {
    const { ran, log } = await runSteps(`v${VERSION}`);
    expect(ran).toEqual([
      'Check the tag is the package\'s version: 0',
      'Check the sums: 0',
      'Attach the executables to the release: 0',
      'Publish to npm with provenance: 0',
    ]);
    const sums = fs.readFileSync(path.join(ROOT, 'dist', 'exe', 'SHA256SUMS'), 'utf8');
    const lines = log.split('\n');
    expect(lines[0]).toMatch(new RegExp(`^gh release create v${VERSION} --verify-tag .* dist/exe/mkt-linux-x64 dist/exe/mkt-linux-arm64 dist/exe/SHA256SUMS$`));
    // The files attached are the ones the sums describe.
    for (const name of ['mkt-linux-x64', 'mkt-linux-arm64']) {
      const [hash] = sums.split('\n').find((line) => line.endsWith(`  ${name}`))!.split(' ');
      expect(log).toContain(`${hash}  dist/exe/${name}`);
    }
    expect(lines.find((line) => line.startsWith('npm '))).toBe('npm publish --provenance --access public');
  });
});

describe('README: installing the executable', () => {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('\n## Install\n'), readme.indexOf('\n## ', readme.indexOf('\n## Install\n') + 1));
  const script = /```sh\n([\s\S]*?)\n```/.exec(section)?.[1] ?? '';

  it.runIf(EXE !== undefined)('downloads, checks, installs on PATH and runs it, as written (npm run test:exe)', async () => {
    expect(script).toMatch(/^base=https:\/\/github\.com\/\S+\/releases\/download\/v\S+ /m);
    const home = tempDir('mkt-install-');
    cleanup.push(() => fs.rmSync(home, { recursive: true, force: true }));
    // The release's address is the only change: its files are served from dist/exe/.
    const local = script.replace(/^base=\S+/m, `base=file://${path.join(ROOT, 'dist', 'exe')}`);
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', local], {
      cwd: home,
      env: { PATH: `${path.join(home, '.local', 'bin')}:/usr/bin:/bin`, HOME: home, LANG: 'C.UTF-8' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    expect(stdout).toBe(`mkt-linux-x64: OK\n${VERSION}\n`);
    expect(fs.statSync(path.join(home, '.local', 'bin', 'mkt')).mode & 0o111).toBe(0o111);
  });
});
