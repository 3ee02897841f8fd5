// dist/exe/mkt-linux-arm64, beside the executable under test (npm run test:exe), run by qemu-user:
// Debian's qemu-user, and the arm64 C and C++ libraries of libc6-arm64-cross and
// libstdc++6-arm64-cross (or a multiarch /lib/ld-linux-aarch64.so.1). The sandbox it asks is the
// executable under test's.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect, EXE, ROOT, baseEnv, startSandboxProcess, type BinResult, type SandboxProcess } from '../helpers/bin.js';
import { tempDir } from '../helpers/cli.js';

const VERSION = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version as string;
const ARM64 = EXE === undefined ? undefined : path.join(path.dirname(EXE), 'mkt-linux-arm64');
const hasQemu = spawnSync('qemu-aarch64', ['--version'], { stdio: 'ignore' }).status === 0;
/** Where the arm64 loader and libraries are: Debian's cross sysroot, or the root of a multiarch system. */
const SYSROOT = ['/usr/aarch64-linux-gnu', '/'].find((root) => fs.existsSync(path.join(root, 'lib', 'ld-linux-aarch64.so.1')));

function runArm64(args: string[], env: Record<string, string> = {}, input?: string): Promise<BinResult> {
  const child = spawn('qemu-aarch64', ['-L', SYSROOT!, ARM64!, ...args], { env: baseEnv(env), stdio: ['pipe', 'pipe', 'pipe'] });
  return collect(child, performance.now(), input, 60_000);
}

describe.runIf(ARM64 !== undefined && hasQemu && SYSROOT !== undefined)('mkt-linux-arm64 under qemu-aarch64 (npm run test:exe; needs qemu-user and libc6-arm64-cross, libstdc++6-arm64-cross)', () => {
  let sandbox: SandboxProcess;
  beforeAll(async () => {
    sandbox = await startSandboxProcess();
  });
  afterAll(async () => {
    await sandbox?.stop();
  });

  it('is an arm64 file, and prints the package version', async () => {
    expect(fs.readFileSync(ARM64!).readUInt16LE(18)).toBe(183); // e_machine: EM_AARCH64
    expect(await runArm64(['--version'])).toMatchObject({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
  });

  it('logs in to a sandbox and fetches quotes', async () => {
    const env = { MKT_CONFIG_DIR: tempDir(), MKT_BASE_URL: sandbox.url };
    expect(await runArm64(['login', '--with-api-key', '--org', 'org_demo'], env, 'demo.demo-secret\n')).toMatchObject({ code: 0 });
    const quotes = await runArm64(['quotes', 'EURUSD', 'AAPL', '--json'], env);
    expect(quotes).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(quotes.stdout).data.map((q: { symbol: string }) => q.symbol)).toEqual(['EURUSD', 'AAPL']);
  });
});
