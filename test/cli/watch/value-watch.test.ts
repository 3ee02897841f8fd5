// `mkt value --watch` in-process against the sandbox (port 0), its clock moved by the watch's sleeps
// (no real waiting): in a pipe the --json document per poll on one line (the first poll's the same
// document as a one-shot --json at that instant), csv lines per poll; later polls in one round of
// requests (the cross legs asked for in round 1); --until ending it at the first poll where it holds,
// or exit 8 when --count runs out first; --exec given the trigger's values in its environment; the
// board with its Change column and the total's change; plain tables on a dumb terminal. Expected
// values are worked here with big.js on quotes read apart from the command.
import fs from 'node:fs';
import path from 'node:path';
import Big from 'big.js';
import { parse } from 'lossless-json';
import { afterEach, describe, expect, it } from 'vitest';
import { AbortError } from '../../../src/api/errors.js';
import { createClient } from '../../../src/api/index.js';
import type { RunState } from '../../../src/cli/run-state.js';
import { prepareValue } from '../../../src/cli/value/prepare-value.js';
import { watchValue } from '../../../src/cli/watch/value-watch.js';
import { valueModel } from '../../../src/render/value-model.js';
import { runCli, tempDir } from '../../helpers/cli.js';
import { useValueSandbox } from '../../helpers/value-sandbox.js';
import { fakeTerminal, LEAVE, SGR, setupBoard } from '../../helpers/board-harness.js';

const fixture = useValueSandbox('mkt-value-watch-');
const { log, file } = fixture;
const dirs: string[] = [];
afterEach(() => {
  for (const each of dirs.splice(0)) fs.rmSync(each, { recursive: true, force: true });
});

const ENV = () => ({ PATH: process.env.PATH, MKT_BASE_URL: fixture.sb.url, MKT_TOKEN: fixture.token, MKT_ORG: 'org_demo' });


/** `mkt value ...` with each sleep moving the sandbox's clock (and so the quotes) instead of waiting. */
async function run(argv: string[], env: Record<string, string> = {}) {
  const sleeps: number[] = [];
  const result = await runCli(['value', ...argv], {
    now: () => fixture.sb.clock.now(),
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw new AbortError();
      sleeps.push(ms);
      if (sleeps.length > 10) throw new Error('the watch did not stop');
      fixture.sb.clock.advance(ms);
    },
    env: { ...ENV(), ...env },
  });
  return { ...result, sleeps };
}

/** The quotes requests, grouped by the sandbox's clock at which they came: one group per poll. */
function requestsPerPoll(): number[] {
  const byTime = new Map<number, number>();
  for (const entry of log) if (entry.path === '/v1/market/quotes') byTime.set(entry.time, (byTime.get(entry.time) ?? 0) + 1);
  return [...byTime.values()];
}

const exactJson = (text: string) => parse(text, null, (number: string) => number) as Record<string, unknown>;

/** AAPL at a cost, RY.TO in CAD (no pair with EUR: a cross through USD), cash in EUR. */
const PORTFOLIO = 'symbol,quantity,currency,cost\nAAPL,10,USD,150\nRY.TO,-50,CAD\nEUR,2500.75,EUR\n';

describe('mkt value --watch in a pipe', () => {
  it('json: one document per poll on one line, the first the same as --json at that instant; --count 2 ends it', async () => {
    const portfolio = file('portfolio.csv', PORTFOLIO);
    const once = await run([portfolio, '--base', 'EUR', '--json']);
    log.length = 0;
    const result = await run([portfolio, '--base', 'EUR', '--watch', '--count', '2', '--interval', '5s']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe('');
    const [first, second] = [exactJson(lines[0]!), exactJson(lines[1]!)];
    expect(first).toEqual(exactJson(once.stdout));
    // The same shape at the next poll: the same members, positions with the same members.
    const shape = (document: Record<string, unknown>) => [Object.keys(document), (document.positions as Array<Record<string, unknown>>).map((p) => Object.keys(p))];
    expect(shape(second)).toEqual(shape(first));
    expect(result.sleeps).toEqual([5000]);
    // The first poll in two rounds (the cross's legs found in the first), every later one in one.
    expect(requestsPerPoll()).toEqual([2, 1]);
  });

  it('later polls ask for the cross legs in their first round: one request a poll', async () => {
    const result = await run([file('portfolio.csv', PORTFOLIO), '--base', 'EUR', '--watch', '--count', '4', '--interval', '1s', '--format', 'ndjson']);
    expect(result.code).toBe(0);
    expect(requestsPerPoll()).toEqual([2, 1, 1, 1]);
  });

  it('warns as a one-shot run does, once however many polls: each currency with no rate and the pairs tried, the totals left incomplete, no quote for the instrument alone', async () => {
    // XAU and ZAR have no pair in the sandbox: both try EURUSD's neighbours through USD. NOPE has no quote.
    const csv = file('norate.csv', 'symbol,quantity,currency\nXAU,1,XAU\nZAR,2,ZAR\nNOPE,1,EUR\n');
    const watch = await run([csv, '--base', 'EUR', '--watch', '--count', '2', '--interval', '1s', '--format', 'ndjson']);
    const once = await run([csv, '--base', 'EUR', '--format', 'ndjson']);
    expect(watch.code).toBe(0);
    // Under ndjson, a warning is a JSON line of its own.
    const warnings = (stderr: string) => stderr.split('\n').filter((line) => line.startsWith('{"warning"'))
      .map((line) => (JSON.parse(line) as { warning: { code: string; message: string } }).warning).map(({ code, message }) => `${code}: ${message}`);
    const beyondQuotes = (list: string[]) => list.filter((warning) => !warning.startsWith('no_quote'));
    expect(beyondQuotes(warnings(watch.stderr))).toEqual(beyondQuotes(warnings(once.stderr)));
    expect(beyondQuotes(warnings(watch.stderr)).map((warning) => warning.split(':')[0])).toEqual(['no_rate', 'no_rate', 'incomplete_totals']);
    expect(warnings(watch.stderr).filter((warning) => warning.startsWith('no_quote'))).toEqual(['no_quote: no quote for NOPE']);
  });

  it('csv: the header once, then each poll\'s positions and totals', async () => {
    const result = await run([file('portfolio.csv', PORTFOLIO), '--base', 'EUR', '--watch', '--count', '2', '--interval', '1s', '--format', 'csv']);
    expect(result.code).toBe(0);
    const rows = result.stdout.split('\r\n').filter(Boolean).map((line) => line.split(',')[0]);
    const poll = ['position', 'position', 'position', 'total', 'total', 'total', 'total_base'];
    expect(rows).toEqual(['row', ...poll, ...poll]);
  });
});

describe('--until and --exec', () => {
  it('a condition that holds at the first poll ends the watch there, exit 0', async () => {
    const result = await run([file('portfolio.csv', PORTFOLIO), '--base', 'EUR', '--watch', '--count', '5', '--until', 'total_eur == 2500.75', '--until', 'AAPL.value > 0']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split('\n')).toHaveLength(1);
    expect(result.sleeps).toEqual([]);
  });

  it('a condition that never holds: exit 8 after --count polls, naming what did not hold', async () => {
    const result = await run([file('portfolio.csv', PORTFOLIO), '--base', 'EUR', '--watch', '--count', '2', '--interval', '1s', '--until', 'total_base > 1e12']);
    expect(result.code).toBe(8);
    expect(result.stdout.trim().split('\n')).toHaveLength(2);
    expect(result.stderr).toMatch(/^not met at the last poll: total_base is -?[\d.]+, not > 1e12\nerror: --until did not hold at any of 2 polls\n/);
  });

  it('--exec runs the program once, no shell, its arguments after --, the trigger\'s values in its environment as exact text', async () => {
    const programDir = tempDir('mkt-value-exec-');
    dirs.push(programDir);
    const record = path.join(programDir, 'record.json');
    fs.writeFileSync(path.join(programDir, 'record.cjs'), `
const fs = require('node:fs');
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => name.startsWith('MKT_') && !['MKT_BASE_URL', 'MKT_TOKEN', 'MKT_ORG', 'MKT_CONFIG_DIR'].includes(name)));
fs.writeFileSync(${JSON.stringify(record)}, JSON.stringify({ argv: process.argv.slice(2), env }));
`);
    const notify = path.join(programDir, 'notify');
    fs.writeFileSync(notify, `#!/bin/sh\nexec "${process.execPath}" "${path.join(programDir, 'record.cjs')}" "$@"\n`, { mode: 0o755 });
    // USD base: AAPL needs no rate, so every figure is the test's own product and sum.
    const portfolio = file('usd.csv', 'symbol,quantity,currency,cost\nAAPL,10,USD,150\nUSD,0.1,USD\n');
    const { data } = await createClient({ baseUrl: fixture.sb.url, accessToken: fixture.token, organizationId: 'org_demo' }).getQuotes({ symbols: ['AAPL'] });
    const mid = data[0]!.mid;
    const result = await run([portfolio, '--base', 'USD', '--watch', '--until', 'AAPL.pnl > 0', '--until', 'total_base > 0', '--exec', notify, '--', '$(id)', 'AAPL; up'], {
      // An inherited value of a trigger's name is not passed on.
      MKT_VALUE: 'stale',
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const { argv, env } = JSON.parse(fs.readFileSync(record, 'utf8')) as { argv: string[]; env: Record<string, string> };
    expect(argv).toEqual(['$(id)', 'AAPL; up']);
    expect(Object.keys(env).sort()).toEqual(['MKT_COST', 'MKT_CURRENCY', 'MKT_PNL', 'MKT_PNL_BASE', 'MKT_PRICE', 'MKT_QUANTITY', 'MKT_RATE', 'MKT_STATUS', 'MKT_SYMBOL', 'MKT_TOTAL_BASE', 'MKT_VALUE', 'MKT_VALUE_BASE']);
    expect(env).toMatchObject({ MKT_SYMBOL: 'AAPL', MKT_QUANTITY: '10', MKT_CURRENCY: 'USD', MKT_COST: '150', MKT_PRICE: mid, MKT_STATUS: 'ok' });
    const value = new Big(mid).times(10);
    const figures: Array<[string, Big]> = [
      ['MKT_VALUE', value], ['MKT_VALUE_BASE', value], ['MKT_RATE', new Big(1)],
      ['MKT_PNL', new Big(mid).minus(150).times(10)], ['MKT_PNL_BASE', new Big(mid).minus(150).times(10)], ['MKT_TOTAL_BASE', value.plus('0.1')],
    ];
    for (const [name, expected] of figures) expect(new Big(env[name]!).eq(expected), name).toBe(true);
  });
});

describe('on a terminal', () => {
  it('the board: the tables with a Change column, the total\'s change since the first poll, the last left on the screen', async () => {
    const portfolio = file('portfolio.csv', PORTFOLIO);
    const session = setupBoard(fixture.sb.url, () => fixture.sb.clock.advance(1000), { env: { MKT_TOKEN: fixture.token } });
    // The board's clock and the sandbox's move together.
    session.clock.time = fixture.sb.clock.now();
    const { terminal } = fakeTerminal(200, 40);
    const options = { watch: true, interval: '1s', count: '2', base: 'EUR' };
    const prepared = await prepareValue(session.deps, portfolio, options);
    const state: RunState = { exitCode: 0, cleanups: [] };
    expect(await watchValue(session.deps, prepared, valueModel(prepared.currencies), options, state, terminal)).toBe(0);
    const frames = session.writes.filter((write) => write.startsWith('\u001b[H')).map((frame) => frame.replace(SGR, ''));
    expect(frames[0]).toContain('waiting for the first poll');
    const first = frames.find((frame) => frame.includes('poll 1'))!;
    expect(first).toContain('Change EUR');
    // At the first poll every change is 0, and the headline says so.
    expect(first).toMatch(/│ AAPL +│[^\n]*│ +0\.00 +│/);
    expect(first).toMatch(/total_base 0\.00 EUR = since \d\d:\d\d:\d\d/);
    const last = session.writes.at(-1)!;
    expect(last.startsWith(LEAVE)).toBe(true);
    const text = last.slice(LEAVE.length).replace(SGR, '');
    expect(text).toMatch(/total_base [+-]?[\d.]+ EUR [▲▼=] since \d\d:\d\d:\d\d/);
    expect(text).toMatch(/poll 2 · every 1s( · \d+\/\d+ left)?\r\n$/);
  });

  it('a dumb terminal: a table per poll under a heading, with the Change column and the total\'s line', async () => {
    const portfolio = file('portfolio.csv', PORTFOLIO);
    const session = setupBoard(fixture.sb.url, () => fixture.sb.clock.advance(1000), { env: { MKT_TOKEN: fixture.token, TERM: 'dumb', FORCE_COLOR: '' } });
    // The watch's clock and the sandbox's move together: a quote stamped ahead of the watch's clock cannot be right.
    session.clock.time = fixture.sb.clock.now();
    const { terminal } = fakeTerminal(200, 40);
    const options = { watch: true, interval: '1s', count: '2', base: 'EUR' };
    const prepared = await prepareValue(session.deps, portfolio, options);
    const state: RunState = { exitCode: 0, cleanups: [] };
    expect(await watchValue(session.deps, prepared, valueModel(prepared.currencies), options, state, terminal)).toBe(0);
    const text = session.writes.join('');
    expect(text).not.toContain('\u001b');
    expect(text.match(/^poll \d \| updated \d\d:\d\d:\d\d \| every 1s/gm)).toHaveLength(2);
    expect(text.match(/^\| Symbol +\|[^\n]*\| +Change EUR \|$/gm)).toHaveLength(2);
    expect(text.match(/^total_base [^\n]* EUR [v^=] since \d\d:\d\d:\d\d$/gm)).toHaveLength(2);
  });
});
