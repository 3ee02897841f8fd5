// Issue 36, item 2: a config directory others can read (0755, what mkdir makes in CI) is said where
// mkt writes a secret into it, not at every read; a config.json others can read is still said at
// every read, as ssh says it of a key. Under a JSON format, the warning is a JSON line and the
// error object stays last.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBin } from '../helpers/bin.js';
import { tempDir } from '../helpers/cli.js';
import { useSandboxSession } from '../helpers/sandbox-session.js';

const posix = process.platform !== 'win32';
const session = useSandboxSession();
const { run, login } = session;

/** This test's config directory, made as mkdir makes it: 0755. */
function openDirectory(): string {
  fs.mkdirSync(session.configDir, { recursive: true });
  fs.chmodSync(session.configDir, 0o755);
  return session.configDir;
}

const directoryWarning = (dir: string) =>
  `warning: ${dir} is readable by other users (mode 0755): config.json is kept private by its own mode (0600); if the directory should be yours alone: chmod 0700 ${dir}\n`;

describe.runIf(posix)('a config directory others can read (0755)', () => {
  it('reads say nothing of it: config get, status, quotes in text and in JSON', async () => {
    const dir = openDirectory();
    await login();
    for (const argv of [['config', 'get', 'org'], ['status'], ['status', '--json'], ['quotes', 'EURUSD'], ['quotes', 'EURUSD', '-f', 'json'], ['quotes', 'EURUSD', '--format', 'ndjson']]) {
      const result = await run(argv);
      expect(result.code, `${argv.join(' ')}: ${result.stderr}`).toBe(0);
      expect(result.stderr, argv.join(' ')).toBe('');
    }
    expect(fs.statSync(dir).mode & 0o777).toBe(0o755);
  });

  it('a login writes its token there, and says so, once', async () => {
    const dir = openDirectory();
    const result = await login();
    expect(result.stderr.startsWith(directoryWarning(dir))).toBe(true);
    expect(result.stderr.split(directoryWarning(dir))).toHaveLength(2);
    expect(fs.statSync(path.join(dir, 'config.json')).mode & 0o777).toBe(0o600);
  });

  it('mkt token --json writes its token there: the warning is a JSON line, as every line on its stderr is', async () => {
    const dir = openDirectory();
    const result = await run(['token', '--json', '--client-id', 'demo', '--org', 'org_demo'], { env: { MKT_CLIENT_SECRET: 'demo-secret' } });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr.trim().split('\n').map((line) => JSON.parse(line))).toEqual([
      { warning: { code: 'config_dir_readable', message: `${dir} is readable by other users (mode 0755): config.json is kept private by its own mode (0600)`, hint: `if the directory should be yours alone: chmod 0700 ${dir}` } },
    ]);
  });

  it('a setting written where no secret is kept says nothing of it; with a token stored, it does', async () => {
    const dir = openDirectory();
    const setting = await run(['config', 'set', 'format', 'csv']);
    expect(setting.stderr).toBe('Set format to csv (profile default).\n');
    await login();
    const again = await run(['config', 'set', 'format', 'tsv']);
    expect(again.stderr).toBe(`${directoryWarning(dir)}Set format to tsv (profile default).\n`);
  });

  it('the issue\'s case, in a real process: no credentials under -f json is one JSON object on stderr, nothing before it', async () => {
    const dir = path.join(tempDir(), 'ci');
    fs.mkdirSync(dir);
    fs.chmodSync(dir, 0o755);
    fs.writeFileSync(path.join(dir, 'config.json'), '{"profiles": {"default": {"org": "org_demo"}}}\n', { mode: 0o600 });
    const result = await runBin(['quotes', 'EURUSD', '-f', 'json'], { env: { MKT_CONFIG_DIR: dir, MKT_BASE_URL: session.sandbox.url } });
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
    expect(JSON.parse(result.stderr)).toMatchObject({ error: { code: 'NOT_AUTHENTICATED', exit_code: 4 } });
  });
});

describe.runIf(posix)('a config.json others can read (0644)', () => {
  it('is said at every read, in text and as a JSON line under each JSON format, before the error object', async () => {
    await login();
    const file = path.join(session.configDir, 'config.json');
    fs.chmodSync(file, 0o644);
    const warning = { code: 'config_file_readable', message: `${file} is readable by other users (mode 0644)`, hint: `mkt closes it at its next write, or run chmod 0600 ${file}` };
    for (let read = 0; read < 2; read++) {
      expect((await run(['config', 'get', 'org'])).stderr).toBe(`warning: ${warning.message}; ${warning.hint}\n`);
    }
    const ways: Array<[string, string[], Record<string, string>]> = [
      ['--json', ['--json'], {}], ['-f json', ['-f', 'json'], {}], ['--format ndjson', ['--format', 'ndjson'], {}], ['MKT_FORMAT=json', [], { MKT_FORMAT: 'json' }],
    ];
    for (const [name, flags, env] of ways) {
      const result = await run(['quotes', 'EURUSD', 'NOPE', '--strict', ...flags], { env });
      expect(result.code, name).toBe(3);
      const lines = result.stderr.trim().split('\n').map((line) => JSON.parse(line));
      expect(lines[0], name).toEqual({ warning });
      expect(lines.at(-1), name).toMatchObject({ error: { code: 'INCOMPLETE', exit_code: 3 } });
      expect(lines, name).toHaveLength(2);
    }
    // The profile's format: JSON too.
    fs.chmodSync(file, 0o600);
    expect((await run(['config', 'set', 'format', 'json'])).code).toBe(0);
    fs.chmodSync(file, 0o644);
    const profile = await run(['quotes', 'EURUSD']);
    expect(profile.stderr).toBe(`${JSON.stringify({ warning })}\n`);
  });
});
