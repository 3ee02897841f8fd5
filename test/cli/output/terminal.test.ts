// One terminal per run (src/cli/output/terminal.ts): colour from NO_COLOR, FORCE_COLOR, --no-color, TERM and
// the TTY, for stdout and stderr apart; the width; ASCII or UTF-8; the clock. Made once where the
// flags are parsed, so --no-color holds for every command, before it or after it, a command added
// later included: `mkt made-up-venues` here is made up (a name no real command will take), and
// writes its table with no colour code of its own.
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.js';
import { COMMANDS, createProgram, type RegisterCommand } from '../../../src/cli/program.js';
import { createTerminal, isColorEnabled, terminalColumns, runTerminal } from '../../../src/cli/output/terminal.js';
import { writeResource } from '../../../src/cli/output/writer.js';
import type { FieldSet } from '../../../src/render/fields.js';
import { HAS_SCRIPT, ROOT, runOnTerminal } from '../../helpers/bin.js';
import { createTestDeps, runCli, tempDir } from '../../helpers/cli.js';
import { cliLogin, startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';
import { useServers } from '../../helpers/fault-server.js';
import { setupBoard } from '../../helpers/board-harness.js';

const SGR = /\u001b\[[0-9;]*m/;

describe('createTerminal', () => {
  const terminal = (options: { env?: Record<string, string>; stdoutIsTTY?: boolean; stderrIsTTY?: boolean; columns?: number; noColor?: boolean }) => {
    const { deps } = createTestDeps({ env: options.env, stdoutIsTTY: options.stdoutIsTTY, stderrIsTTY: options.stderrIsTTY, now: () => 42 });
    deps.io.columns = options.columns;
    return createTerminal(deps, { noColor: options.noColor });
  };

  it.each([
    ['a TTY', { stdoutIsTTY: true }, true],
    ['a pipe', { stdoutIsTTY: false }, false],
    ['NO_COLOR=1', { stdoutIsTTY: true, env: { NO_COLOR: '1' } }, false],
    ['NO_COLOR empty (unset, as no-color.org says)', { stdoutIsTTY: true, env: { NO_COLOR: '' } }, true],
    ['--no-color', { stdoutIsTTY: true, noColor: true }, false],
    ['TERM=dumb', { stdoutIsTTY: true, env: { TERM: 'dumb' } }, false],
    ['FORCE_COLOR=1 in a pipe', { stdoutIsTTY: false, env: { FORCE_COLOR: '1' } }, true],
    ['FORCE_COLOR=0', { stdoutIsTTY: true, env: { FORCE_COLOR: '0' } }, true],
    ['FORCE_COLOR=1 with NO_COLOR=1', { stdoutIsTTY: true, env: { FORCE_COLOR: '1', NO_COLOR: '1' } }, false],
    ['FORCE_COLOR=1 with --no-color', { stdoutIsTTY: true, env: { FORCE_COLOR: '1' }, noColor: true }, false],
    ['FORCE_COLOR=1 with TERM=dumb', { stdoutIsTTY: false, env: { FORCE_COLOR: '1', TERM: 'dumb' } }, true],
  ])('colour on stdout, %s: %s', (_name, options, color) => {
    expect(terminal(options).color).toBe(color);
  });

  it('decides colour for stderr by its own TTY', () => {
    expect(terminal({ stdoutIsTTY: false, stderrIsTTY: true })).toMatchObject({ color: false, stderrColor: true });
    expect(terminal({ stdoutIsTTY: true, stderrIsTTY: false })).toMatchObject({ color: true, stderrColor: false });
    expect(terminal({ stdoutIsTTY: true, stderrIsTTY: true, noColor: true })).toMatchObject({ color: false, stderrColor: false });
  });

  it.each([
    ['a TTY that says', { stdoutIsTTY: true, columns: 120 }, 120],
    ['a TTY that reports 0, with COLUMNS', { stdoutIsTTY: true, columns: 0, env: { COLUMNS: '90' } }, 90],
    ['a TTY that reports nothing, without COLUMNS', { stdoutIsTTY: true, columns: undefined }, undefined],
    ['a pipe, whatever it says', { stdoutIsTTY: false, columns: 120, env: { COLUMNS: '90' } }, undefined],
    ['COLUMNS that is not a width', { stdoutIsTTY: true, columns: 0, env: { COLUMNS: '9e9' } }, undefined],
  ])('the width, %s: %s', (_name, options, columns) => {
    expect(terminal(options).columns).toBe(columns);
  });

  it('redraws in place only on a TTY whose TERM is not dumb; ASCII under TERM=dumb or a locale without UTF-8', () => {
    expect(terminal({ stdoutIsTTY: true })).toMatchObject({ cursor: true, ascii: false });
    expect(terminal({ stdoutIsTTY: true, env: { TERM: 'dumb' } })).toMatchObject({ cursor: false, ascii: true });
    expect(terminal({ stdoutIsTTY: false })).toMatchObject({ cursor: false });
    expect(terminal({ stdoutIsTTY: true, env: { LC_ALL: 'C' } })).toMatchObject({ cursor: true, ascii: true });
  });

  it('reads the run\'s clock, and widths reported later by the same rule', () => {
    const made = terminal({ stdoutIsTTY: true, env: { COLUMNS: '70' } });
    expect(made.now()).toBe(42);
    expect([made.widthOf(100), made.widthOf(0), made.widthOf(undefined)]).toEqual([100, 70, 70]);
  });

  it('isColorEnabled and terminalColumns, the rules it applies', () => {
    expect(isColorEnabled(true, {}, false)).toBe(true);
    expect(isColorEnabled(true, { NO_COLOR: 'x' })).toBe(false);
    expect(terminalColumns(0, { COLUMNS: ' 80 ' })).toBe(80);
    expect(terminalColumns(0, { COLUMNS: '0' })).toBeUndefined();
  });

  it('a command run on its own gets one made from its deps, once', () => {
    const { deps } = createTestDeps({ stdoutIsTTY: true });
    const state: { terminal?: ReturnType<typeof createTerminal> } = {};
    const first = runTerminal(deps, state);
    expect(runTerminal(deps, state)).toBe(first);
  });
});

interface Venue {
  mic: string;
  name: string;
}

const VENUES: FieldSet<Venue, 'mic' | 'name'> = {
  fields: {
    mic: { name: 'mic', title: 'MIC', kind: 'text', derived: false, align: 'left', read: (venue) => venue.mic },
    name: { name: 'name', title: 'Name', kind: 'text', derived: false, align: 'left', read: (venue) => venue.name },
  },
  names: ['mic', 'name'],
  sent: ['mic', 'name'],
  table: ['mic', 'name'],
};

/** `mkt made-up-venues`, a command main knows nothing of: its data, its declaration, one call to write them. */
const registerVenues: RegisterCommand = (program, deps, state) => {
  program.command('made-up-venues').action(async () => {
    await writeResource(runTerminal(deps, state), VENUES, { data: [{ mic: 'XNAS', name: 'Nasdaq' }] }, { format: 'table' });
  });
};

async function venues(argv: string[], env: Record<string, string> = {}) {
  const test = createTestDeps({ stdoutIsTTY: true, env });
  const code = await main(argv, test.deps, [...COMMANDS, registerVenues]);
  return { code, stdout: test.stdout(), stderr: test.stderr() };
}

describe('--no-color and NO_COLOR hold for every command', () => {
  it('a new command gets colour on a terminal from the shared parts alone', async () => {
    const result = await venues(['made-up-venues']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(SGR);
    expect(result.stdout.replace(/\u001b\[[0-9;]*m/g, '')).toContain('│ XNAS │ Nasdaq │');
  });

  it.each([
    ['--no-color before the command', ['--no-color', 'made-up-venues'], {}],
    ['--no-color after it', ['made-up-venues', '--no-color'], {}],
    ['--no-color after it, with FORCE_COLOR', ['made-up-venues', '--no-color'], { FORCE_COLOR: '1' }],
    ['NO_COLOR=1', ['made-up-venues'], { NO_COLOR: '1' }],
    ['TERM=dumb', ['made-up-venues'], { TERM: 'dumb' }],
  ])('%s: no colour', async (_name, argv, env) => {
    const result = await venues(argv, env);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(SGR);
    expect(result.stdout).toContain('XNAS');
  });

  it('every command of the program takes --no-color after it', () => {
    const { deps } = createTestDeps();
    const all = (command: Command): Command[] => [command, ...command.commands.flatMap(all)];
    const program = createProgram(deps, { exitCode: 0, cleanups: [] });
    const without = all(program).filter((command) => !command.options.some((option) => option.long === '--no-color')).map((command) => command.name());
    expect(without).toEqual([]);
    expect(all(program).length).toBeGreaterThan(10);
  });

  it.each([
    [['status', '--no-color'], ['status']],
    [['config', 'list', '--no-color'], ['config', 'list']],
    [['config', '--no-color', 'path'], ['config', 'path']],
    [['--no-color', 'config', 'get', 'org'], ['config', 'get', 'org']],
  ])('%j runs as %j does', async (withFlag, without) => {
    const a = await runCli(withFlag);
    const b = await runCli(without, { configDir: a.configDir });
    expect(a.code).toBe(b.code);
    expect(a.stderr).toBe(b.stderr);
    expect(a.stdout).toBe(b.stdout);
  });
});

describe('the live board follows the run\'s terminal', () => {
  const servers = useServers();

  it.each([
    ['FORCE_COLOR=1', [], true],
    ['FORCE_COLOR=1 and --no-color after the command', ['--no-color'], false],
  ])('%s: colour %s', async (_name, flags, coloured) => {
    let tick = 0;
    const server = await servers.script((_request, res) => {
      tick++;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`{"data":[{"symbol":"EURUSD","bid":1.0850${tick},"ask":1.0851${tick},"mid":1.08505${tick},"timestamp":"2025-01-06T14:30:00Z"}]}`);
    });
    const session = setupBoard(server.url, () => {});
    expect(await main(['quotes', 'EURUSD', '--watch', '--interval', '1s', '--count', '2', ...flags], session.deps)).toBe(0);
    const frames = session.writes.filter((write) => write.startsWith('\u001b[H'));
    expect(frames.length).toBeGreaterThan(0);
    expect(frames.some((frame) => SGR.test(frame))).toBe(coloured);
  });
});

describe.skipIf(!HAS_SCRIPT)('on a real terminal, as a process (script)', () => {
  let sandbox: TestSandbox;
  let token: string;
  let dir: string;
  beforeAll(async () => {
    if (!fs.existsSync(path.join(ROOT, 'dist', 'cli', 'main.cjs'))) throw new Error('dist/ is not built: run npm run build (npm test does)');
    sandbox = await startTestSandbox();
    token = await cliLogin(sandbox.url);
    dir = tempDir('mkt-terminal-');
  });
  afterAll(async () => {
    await sandbox?.close();
    if (dir !== undefined) fs.rmSync(dir, { recursive: true, force: true });
  });

  const quotes = (args: string[], env: Record<string, string> = {}) => runOnTerminal(args, {
    columns: 100, rows: 30, timeoutMs: 15_000,
    env: { TERM: 'xterm-256color', MKT_BASE_URL: sandbox.url, MKT_ORG: 'org_demo', MKT_TOKEN: token, MKT_CONFIG_DIR: dir, ...env },
  });

  it.each([
    ['nothing said', ['quotes', 'EURUSD'], {}, true],
    ['--no-color before the command', ['--no-color', 'quotes', 'EURUSD'], {}, false],
    ['--no-color after it', ['quotes', 'EURUSD', '--no-color'], {}, false],
    ['NO_COLOR=1', ['quotes', 'EURUSD'], { NO_COLOR: '1' }, false],
  ])('mkt quotes, %s: colour %s', async (_name, args, env, coloured) => {
    const result = await quotes(args, env);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('EURUSD');
    expect(SGR.test(result.stdout)).toBe(coloured);
  });
});
