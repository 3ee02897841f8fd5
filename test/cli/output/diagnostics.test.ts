// Everything mkt says on stderr goes through the run's one writer (src/cli/output/diagnostics.ts). Issue
// 36, item 2: under a JSON format every line on stderr is JSON (warnings with a code, -v and
// MKT_DEBUG lines, waits; no progress line), and the error object comes last. Issue 37, item 1: the
// writer owns the progress line and its countdown, and clears them before anything reaches stdout,
// so no command clears them by hand (a table once began on the countdown's line).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { QUOTE_MODEL } from '../../../src/render/quote-model.js';
import { createCommandClient } from '../../../src/cli/network/client.js';
import { main } from '../../../src/cli/main.js';
import { commandOptions } from '../../../src/cli/options/command-options.js';
import { addNetworkOptions, type NetworkFlags } from '../../../src/cli/options/network.js';
import { addTargetOptions } from '../../../src/cli/options/target.js';
import { COMMANDS, type RegisterCommand } from '../../../src/cli/program.js';
import { createProgress } from '../../../src/cli/output/progress.js';
import type { TargetFlags } from '../../../src/cli/options/settings.js';
import { runTerminal } from '../../../src/cli/output/terminal.js';
import { writeResource } from '../../../src/cli/output/writer.js';
import { createTestDeps, runCli, tempDir, type TestDepsOptions } from '../../helpers/cli.js';
import { sendError, sendQuotes, useServers, type FaultServer } from '../../helpers/fault-server.js';
import { useSandboxSession } from '../../helpers/sandbox-session.js';

const session = useSandboxSession();
const servers = useServers();
const CLEAR = '\r\u001b[2K';

/** Each line of `stderr` as JSON: a line that is not fails the test. */
function jsonLines(stderr: string): Array<Record<string, Record<string, unknown>>> {
  return stderr.split('\n').filter((line) => line !== '').map((line) => {
    try {
      return JSON.parse(line) as Record<string, Record<string, unknown>>;
    } catch {
      throw new Error(`not a JSON line on stderr: ${JSON.stringify(line)}\nin:\n${stderr}`);
    }
  });
}

const kinds = (lines: ReadonlyArray<Record<string, unknown>>) => lines.map((line) => Object.keys(line).join());

/** 503 with Retry-After: 3 to the first request, quotes after. */
function unavailableOnce(): Promise<FaultServer> {
  return servers.start((req, res, { index }) => (index === 0 ? sendError(res, 503, 'UNAVAILABLE', { 'retry-after': '3' }) : sendQuotes(req, res)));
}

const tokenEnv = (url: string) => ({ MKT_TOKEN: 'tok_diagnostics_123456', MKT_ORG: 'org_demo', MKT_BASE_URL: url });
const sleepless = { sleep: async () => {} };

describe('under a JSON format, every line on stderr is JSON', () => {
  it('-v: each request line is a debug line', async () => {
    await session.login();
    const result = await session.run(['quotes', 'EURUSD', '--json', '-v']);
    expect(result.code).toBe(0);
    const lines = jsonLines(result.stderr);
    expect(new Set(kinds(lines))).toEqual(new Set(['debug']));
    expect(lines[0]!.debug!.message).toMatch(/^\* GET http:\/\/127\.0\.0\.1:\d+\/v1\/market\/quotes\?symbols=EURUSD \(attempt 1 of 3\)$/);
    expect(lines.map((line) => line.debug!.message)).toContain('> authorization: Bearer [redacted]');
    // In text, the same lines as they are.
    const text = await session.run(['quotes', 'EURUSD', '--format', 'csv', '-v']);
    expect(text.stderr).toMatch(/^\* GET http:\/\/127\.0\.0\.1:\d+\/v1\/market\/quotes\?symbols=EURUSD \(attempt 1 of 3\)\n> accept: application\/json\n/);
  });

  it('MKT_DEBUG: the stack trace is a debug line, before the error object, which is last', async () => {
    const server = await servers.answering(500, '{"error":{"code":"INTERNAL","message":"boom"}}');
    const result = await runCli(['quotes', 'EURUSD', '--json', '--retries', '0'], { env: { ...tokenEnv(server.url), MKT_DEBUG: '1' } });
    expect(result.code).toBe(7);
    const lines = jsonLines(result.stderr);
    expect(kinds(lines).at(-1)).toBe('error');
    expect(lines.at(-1)).toMatchObject({ error: { status: 500, exit_code: 7 } });
    expect(lines.at(-2)!.debug!.message).toMatch(/^ServerError: .*\n\s+at /);
    expect(kinds(lines).slice(0, -1).every((kind) => kind === 'debug')).toBe(true);
    // In text, the stack after the words, as before.
    const text = await runCli(['quotes', 'EURUSD', '--retries', '0'], { env: { ...tokenEnv(server.url), MKT_DEBUG: '1' } });
    expect(text.stderr).toMatch(/\nerror: [^\n]+\nhint: [^\n]+\nServerError: /);
  });

  it.each([
    ['in a pipe', false],
    ['on a terminal', true],
  ])('a wait is a JSON line, %s; no progress line or countdown is drawn', async (_name, tty) => {
    const server = await unavailableOnce();
    const result = await runCli(['quotes', 'EURUSD', '--json'], { env: tokenEnv(server.url), stderrIsTTY: tty, ...sleepless });
    expect(result.code).toBe(0);
    expect(result.stderr).not.toContain('\r');
    expect(jsonLines(result.stderr)).toEqual([{
      wait: { kind: 'retry', reason: '503 Service Unavailable', wait_ms: 3000, done: 0, total: 1, message: '503 Service Unavailable; retrying in 3s (1/2)' },
    }]);
  });

  it('on a terminal, a run of many batches draws no progress line', async () => {
    await session.login();
    const result = await session.run(['quotes', 'EURUSD', 'GBPUSD', 'USDJPY', 'AAPL', '--batch-size', '1', '--concurrency', '1', '--json'], { stderrIsTTY: true });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const text = await session.run(['quotes', 'EURUSD', 'GBPUSD', 'USDJPY', 'AAPL', '--batch-size', '1', '--concurrency', '1', '--format', 'csv'], { stderrIsTTY: true });
    expect(text.stderr).toContain(`${CLEAR}fetched 3/4 batches`);
  });

  it('warnings have their code: missing quotes in the run, and in a watch\'s NDJSON stream', async () => {
    await session.login();
    const once = await session.run(['quotes', 'EURUSD', 'NOPE', '--json']);
    expect(jsonLines(once.stderr)).toEqual([{ warning: { code: 'no_quote', message: 'no quote for 1 of 2 symbols: NOPE', hint: null } }]);
    const watch = await session.run(['quotes', 'EURUSD', 'NOPE', '--watch', '--count', '1', '--format', 'ndjson']);
    expect(watch.code).toBe(0);
    expect(jsonLines(watch.stderr)).toEqual([{ warning: { code: 'no_quote', message: 'no quote for NOPE', hint: null } }]);
    // In text, as it was; and a watch that streams NDJSON in a pipe unasked is text too.
    expect((await session.run(['quotes', 'EURUSD', 'NOPE', '--format', 'tsv'])).stderr).toBe('warning: no quote for 1 of 2 symbols: NOPE\n');
    expect((await session.run(['quotes', 'EURUSD', 'NOPE', '--watch', '--count', '1'])).stderr).toBe('warning: no quote for NOPE\n');
  });

  it('mkt value --json: what could not be valued, as warning lines', async () => {
    await session.login();
    const file = path.join(tempDir(), 'positions.csv');
    fs.writeFileSync(file, 'symbol,quantity,currency\nAAPL,2,USD\nNOPE,1,USD\n');
    const result = await session.run(['value', file, '--base', 'USD', '--json']);
    expect(result.code).toBe(0);
    expect(jsonLines(result.stderr).map((line) => line.warning!.code)).toEqual(['no_quote', 'incomplete_totals']);
  });

  it('mkt token --json: its warnings are JSON lines too (a client without market.read, no organization)', async () => {
    const result = await session.run(['token', '--json', '--client-id', 'noscope'], { env: { MKT_CLIENT_SECRET: 'noscope-secret' } });
    expect(result.code, result.stderr).toBe(0);
    expect(jsonLines(result.stderr)).toEqual([
      { warning: { code: 'token_without_market_read', message: 'the token has no scope, without market.read: `mkt quotes` will be refused (403) with it', hint: 'use a key or client that has market.read' } },
      { warning: { code: 'no_organization', message: 'no organization set for profile default: `mkt quotes` will need one', hint: expect.stringContaining('--org org_<id>') } },
    ]);
  });

  it('a secret in a warning is scrubbed from its string, and the line stays JSON', async () => {
    const secret = '2026';
    const server = await servers.start((req, res, { index }) => (index === 0
      ? res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '3' }).end('{"error":{"code":"UNAVAILABLE","message":"2026"}}')
      : res.writeHead(200, { 'content-type': 'application/json' }).end(`{"data":[{"symbol":"${secret}X","bid":1,"ask":2,"mid":1.5,"timestamp":"2026-11-22T12:00:00Z"}]}`)));
    const result = await runCli(['quotes', 'EURUSD', '--json'], { env: { ...tokenEnv(server.url), MKT_TOKEN: secret }, ...sleepless });
    const lines = jsonLines(result.stderr);
    expect(lines.map((line) => Object.values(line)[0]!.message)).toEqual([
      '503 Service Unavailable; retrying in 3s (1/2)',
      'the service sent quotes for symbols not asked for ([redacted]X); they are left out',
      'no quote for 1 of 1 symbol: EURUSD',
    ]);
    // A number of mkt's own that holds the secret's digits is a number still.
    expect(lines[0]!.wait!.wait_ms).toBe(3000);
  });
});

/** mkt on a terminal where stdout and stderr are one screen: what was written, in order. */
async function onScreen(argv: string[], options: TestDepsOptions, commands = COMMANDS) {
  const test = createTestDeps({ stdoutIsTTY: true, stderrIsTTY: true, ...options, env: { NO_COLOR: '1', ...options.env } });
  const writes: Array<{ to: 'stdout' | 'stderr'; text: string }> = [];
  test.deps.io.stdout = { write: (text) => void writes.push({ to: 'stdout', text }) };
  test.deps.io.stderr = { write: (text) => void writes.push({ to: 'stderr', text }) };
  const code = await main(argv, test.deps, commands);
  const first = writes.findIndex((write) => write.to === 'stdout');
  return {
    code,
    screen: writes.map((write) => write.text).join(''),
    /** What stderr wrote on the screen before the data began. */
    beforeData: writes.slice(0, first < 0 ? writes.length : first).map((write) => write.text).join(''),
  };
}

/** Ends where a new line begins: nothing, a line's end, or the progress line cleared. */
const atLineStart = (text: string) => text === '' || text.endsWith('\n') || text.endsWith(CLEAR);

/**
 * `mkt made-up-latest SYMBOL`, a command main knows nothing of, made as docs/architecture.md walks
 * a new one through: the shared client, then one call to write a table. It does nothing about
 * progress.
 */
const registerMadeUp: RegisterCommand = (program, deps, state) => {
  addNetworkOptions(addTargetOptions(program.command('made-up-latest').argument('<symbol>'))).action(async (symbol: string, _options, self) => {
    const { client } = await createCommandClient(deps, commandOptions<TargetFlags & NetworkFlags>(self), state);
    const result = await client.getQuotes({ symbols: [symbol] });
    await writeResource(runTerminal(deps, state), QUOTE_MODEL, result, { format: 'table', fields: ['symbol', 'bid'] });
  });
};

describe('the progress line is the writer\'s: cleared before anything reaches stdout', () => {
  it('a new command that does nothing about progress: its table does not begin on the countdown\'s line', async () => {
    const server = await unavailableOnce();
    const result = await onScreen(['made-up-latest', 'EURUSD'], { env: tokenEnv(server.url), ...sleepless }, [...COMMANDS, registerMadeUp]);
    expect(result.code).toBe(0);
    expect(result.beforeData).toContain('waiting 3s to retry');
    expect(atLineStart(result.beforeData), JSON.stringify(result.beforeData)).toBe(true);
    expect(result.screen).toMatch(/waiting 3s to retry\r\u001b\[2K┌/);
    // Nothing of the progress line after the table: its countdown was stopped with it.
    expect(result.screen.slice(result.screen.indexOf('┌'))).not.toContain('waiting');
  });

  it('mkt quotes and mkt value, which no longer clear it themselves', async () => {
    const positions = path.join(tempDir(), 'positions.csv');
    fs.writeFileSync(positions, 'symbol,quantity,currency\nAAPL,2,USD\n');
    for (const argv of [['quotes', 'EURUSD'], ['value', positions, '--base', 'USD']]) {
      const server = await unavailableOnce();
      const result = await onScreen(argv, { env: tokenEnv(server.url), ...sleepless });
      expect(result.code, result.screen).toBe(0);
      expect(result.beforeData, argv[0]).toContain('waiting 3s to retry');
      expect(atLineStart(result.beforeData), JSON.stringify(result.beforeData)).toBe(true);
    }
  });

  it('a warning said while the progress line shows clears it first, and the line is drawn again at the next batch', async () => {
    const { diagnosticsOf } = await import('../../../src/cli/output/diagnostics.js');
    const test = createTestDeps({ stderrIsTTY: true });
    const progress = createProgress(test.deps, {});
    progress.onBatch(1, 3);
    diagnosticsOf(test.deps).warn({ code: 'no_quote', message: 'no quote for NOPE' });
    progress.onBatch(2, 3);
    expect(test.stderr()).toBe(`${CLEAR}fetched 1/3 batches${CLEAR}warning: no quote for NOPE\n${CLEAR}fetched 2/3 batches`);
  });
});
