// `--watch --until EXPR --exec PROGRAM -- ARG...`: the program runs once when the conditions hold,
// without a shell, its arguments exactly the words after `--`, the triggering values in its
// environment as exact text. A real program (a shell script that runs a node script) records what
// it got; the data comes from a purpose-built server whose symbol is full of shell metacharacters.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AbortError } from '../../../src/api/errors.js';
import type { Quote } from '../../../src/api/index.js';
import { baseEnv, collect, mkt, MKT_SH } from '../../helpers/bin.js';
import { runCli, tempDir } from '../../helpers/cli.js';
import { sendTheseQuotes, useServers, type FaultServer } from '../../helpers/fault-server.js';

const servers = useServers();
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** Upper-case already (mkt upper-cases the symbols asked for): `;`, `$( )`, `|`, quotes, `&`, a glob, a variable. */
const SYMBOL = 'A<B;$(ID)|"Q"&*$PATH';
/** The same in an expression: double-quoted (it holds `<`), its quotes doubled. */
const QUOTED = '"A<B;$(ID)|""Q""&*$PATH"';
/** ISO 8601 with nine fractional digits and an offset: passed on as sent, not as Date would write it. */
const TIMESTAMP = '2026-01-05T14:30:15.250000001+00:00';
const NOW = Date.parse(TIMESTAMP) + 1234;
const QUOTES: Quote[] = [
  { symbol: SYMBOL, bid: '1.084150000000000001', ask: '1.084170000000000003', mid: '1.084160000000000002', timestamp: TIMESTAMP },
  { symbol: 'EURUSD', bid: '1.08501', ask: '1.08511', mid: '1.08506', timestamp: TIMESTAMP },
];

/** What the recorder writes: its arguments, and the MKT_* variables it was given. */
interface Record {
  argv: string[];
  env: Partial<globalThis.Record<string, string>>;
}

/** `notify` (a shell script that runs the recorder with node) in a directory of its own; it exits with RECORD_EXIT. */
function program(): { dir: string; notify: string; recorded: () => Record } {
  const dir = tempDir('mkt-exec-');
  dirs.push(dir);
  const record = path.join(dir, 'record.json');
  fs.writeFileSync(path.join(dir, 'record.cjs'), `
const fs = require('node:fs');
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => name.startsWith('MKT_') && !['MKT_BASE_URL', 'MKT_TOKEN', 'MKT_ORG', 'MKT_CONFIG_DIR'].includes(name)));
fs.writeFileSync(${JSON.stringify(record)}, JSON.stringify({ argv: process.argv.slice(2), env }));
process.stdout.write('notified\\n');
process.exitCode = Number(process.env.RECORD_EXIT ?? 0);
`);
  const notify = path.join(dir, 'notify');
  fs.writeFileSync(notify, `#!/bin/sh\nexec "${process.execPath}" "${path.join(dir, 'record.cjs')}" "$@"\n`, { mode: 0o755 });
  return { dir, notify, recorded: () => JSON.parse(fs.readFileSync(record, 'utf8')) as Record };
}

async function quotesServer(): Promise<FaultServer> {
  return servers.start((req, res) => sendTheseQuotes(req, res, QUOTES));
}

async function watch(server: FaultServer, argv: string[], env: Record['env'] = {}) {
  // Each sleep moves the clock; the ages the conditions read are counted from the first poll's NOW.
  let sleeps = 0;
  let now = NOW;
  return runCli(['quotes', ...argv], {
    now: () => now,
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw new AbortError();
      if (++sleeps > 10) throw new Error('the watch did not stop');
      now += ms;
    },
    env: { PATH: process.env.PATH, MKT_BASE_URL: server.url, MKT_TOKEN: 'scripted-token', MKT_ORG: 'org_demo', ...env },
  });
}

describe('--exec, in-process through main (argv split before commander)', () => {
  it('runs the program once, its arguments the words after --, the trigger in its environment as exact text', async () => {
    const server = await quotesServer();
    const { notify, recorded } = program();
    // Words after `--` are the program's, flags and a second `--` included; none is mkt's.
    const words = ['EURUSD crossed', '$(id)', '--json', '--', ';', '`id`', '*', ''];
    const result = await watch(server, [SYMBOL, 'EURUSD', '--watch', '--until', `${QUOTED}.spread_bps < 1`, '--until', 'age < 5s', '--exec', notify, '--', ...words], {
      // Inherited values of the trigger's names are not passed on: a stale one must not pose as the trigger's.
      MKT_BID: 'stale', MKT_SPREAD: 'stale', MKT_AGE_MS: 'stale', RECORD_EXIT: '0',
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(server.requests).toHaveLength(1);
    // The NDJSON of the poll, then what the program wrote.
    expect(result.stdout.split('\n')).toEqual([expect.stringContaining('"bid":1.084150000000000001'), expect.stringContaining('"symbol":"EURUSD"'), 'notified', '']);
    const { argv, env } = recorded();
    expect(argv).toEqual(words);
    expect(env).toEqual({
      MKT_SYMBOL: SYMBOL,
      MKT_BID: '1.084150000000000001',
      MKT_ASK: '1.084170000000000003',
      MKT_MID: '1.084160000000000002',
      MKT_TIMESTAMP: TIMESTAMP,
      // Worked by hand: 0.000020000000000002 × 10,000 / 1.084160000000000002, to 20 significant digits.
      MKT_SPREAD_BPS: '0.1844746162928165581',
      MKT_AGE_MS: '1234',
    });
  });

  it('without --, the program gets no arguments; a condition with no symbol triggers on the first row', async () => {
    const server = await quotesServer();
    const { notify, recorded } = program();
    const result = await watch(server, ['EURUSD', SYMBOL, '--watch', '--until', 'bid > 1', '--exec', notify]);
    expect(result.code).toBe(0);
    expect(recorded()).toEqual({ argv: [], env: { MKT_SYMBOL: 'EURUSD', MKT_BID: '1.08501', MKT_ASK: '1.08511', MKT_MID: '1.08506', MKT_TIMESTAMP: TIMESTAMP } });
  });

  it('a program that exits 3: exit 1, naming it and its status, after the data', async () => {
    const server = await quotesServer();
    const { notify } = program();
    const result = await watch(server, ['EURUSD', '--watch', '--until', 'EURUSD.bid > 1', '--exec', notify, '--', 'x'], { RECORD_EXIT: '3' });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^\{"symbol":"EURUSD"[^\n]*\nnotified\n$/);
    expect(result.stderr).toBe(`error: --exec ${notify} exited with status 3\nhint: its own output, above, should say why\n`);
  });

  it('a program that is not executable: exit 2 before any request', async () => {
    const server = await quotesServer();
    const { dir } = program();
    const plain = path.join(dir, 'record.cjs');
    const result = await watch(server, ['EURUSD', '--watch', '--until', 'EURUSD.bid > 1', '--exec', plain]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: --exec "[^"]*record\.cjs": [^\n]*record\.cjs is not executable\n/);
    expect(server.requests).toHaveLength(0);
  });

  it('--until that never held before --count ran out: the program does not run', async () => {
    const server = await quotesServer();
    const { dir, notify } = program();
    const result = await watch(server, ['EURUSD', '--watch', '--count', '2', '--until', 'EURUSD.bid > 2', '--exec', notify]);
    expect(result.code, result.stderr).toBe(8);
    expect(fs.existsSync(path.join(dir, 'record.json'))).toBe(false);
  });
});

describe('--exec through the built bin', () => {
  it('the command line of the README, run by a shell: the program in the working directory, its one argument', async () => {
    const server = await quotesServer();
    const { dir, recorded } = program();
    const before = fs.readdirSync(dir).sort();
    const line = `${MKT_SH} quotes EURUSD --watch --until 'EURUSD.bid > 1' --exec ./notify -- "EURUSD crossed"`;
    const child = spawn('sh', ['-c', line], {
      cwd: dir, env: baseEnv({ MKT_BASE_URL: server.url, MKT_TOKEN: 'scripted-token', MKT_ORG: 'org_demo', MKT_CONFIG_DIR: path.join(dir, 'config') }), stdio: ['pipe', 'pipe', 'pipe'],
    });
    const result = await collect(child, performance.now(), undefined, 20_000);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^\{"symbol":"EURUSD","bid":1\.08501,[^\n]*\}\nnotified\n$/);
    expect(recorded()).toEqual({
      argv: ['EURUSD crossed'],
      env: { MKT_SYMBOL: 'EURUSD', MKT_BID: '1.08501', MKT_ASK: '1.08511', MKT_MID: '1.08506', MKT_TIMESTAMP: TIMESTAMP },
    });
    // Only what the program wrote is new there.
    expect(fs.readdirSync(dir).sort()).toEqual([...before, 'record.json'].sort());
  });

  it('a symbol full of shell metacharacters reaches the program only in MKT_SYMBOL', async () => {
    const server = await quotesServer();
    const { dir, notify, recorded } = program();
    const before = fs.readdirSync(dir).sort();
    const child = spawn(...mkt(['quotes', SYMBOL, '--watch', '--until', `${QUOTED}.bid > 1`, '--exec', notify, '--', SYMBOL]), {
      cwd: dir, env: baseEnv({ MKT_BASE_URL: server.url, MKT_TOKEN: 'scripted-token', MKT_ORG: 'org_demo', MKT_CONFIG_DIR: path.join(dir, 'config') }), stdio: ['pipe', 'pipe', 'pipe'],
    });
    const result = await collect(child, performance.now(), undefined, 20_000);
    expect(result.code, result.stderr).toBe(0);
    const { argv, env } = recorded();
    expect(argv).toEqual([SYMBOL]);
    expect(env.MKT_SYMBOL).toBe(SYMBOL);
    expect(env.MKT_TIMESTAMP).toBe(TIMESTAMP);
    expect(fs.readdirSync(dir).sort()).toEqual([...before, 'record.json'].sort());
  });
});
