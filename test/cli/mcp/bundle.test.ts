// The MCP SDK is a bundle of its own, dist/cli/mcp-sdk.cjs, which only `mkt mcp` loads
// (scripts/build.js): a copy of the built CLI without it runs every other command, `mkt mcp --help`
// included, and `mkt mcp` itself fails for want of it. Not for MKT_TEST_EXE: the executable is one file.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseEnv, collect, EXE, ROOT } from '../../helpers/bin.js';
import { tempDir } from '../../helpers/cli.js';
import { spawn } from 'node:child_process';

describe.skipIf(EXE !== undefined)('dist/cli/mcp-sdk.cjs', () => {
  it('is loaded by mkt mcp alone', async () => {
    const copy = tempDir();
    fs.cpSync(path.join(ROOT, 'bin'), path.join(copy, 'bin'), { recursive: true });
    fs.cpSync(path.join(ROOT, 'dist', 'cli'), path.join(copy, 'dist', 'cli'), { recursive: true });
    expect(fs.existsSync(path.join(copy, 'dist', 'cli', 'mcp-sdk.cjs'))).toBe(true);
    fs.rmSync(path.join(copy, 'dist', 'cli', 'mcp-sdk.cjs'));
    const run = (args: string[]) => collect(spawn(process.execPath, [path.join(copy, 'bin', 'mkt.cjs'), ...args], {
      env: baseEnv({ MKT_CONFIG_DIR: path.join(copy, 'cfg') }), stdio: ['pipe', 'pipe', 'pipe'],
    }), performance.now(), '', 20_000);

    const [status, help, mcp] = await Promise.all([run(['status', '--json']), run(['mcp', '--help']), run(['mcp'])]);
    expect(status.code, status.stderr).toBe(4);
    expect(JSON.parse(status.stdout)).toMatchObject({ usable: false });
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toContain('Usage: mkt mcp');
    expect(mcp.code).toBe(1);
    expect(mcp.stderr).toContain('mcp-sdk.cjs');
  });
});
