// --timeout / MKT_TIMEOUT, --retries / MKT_RETRIES, --max-wait / MKT_MAX_WAIT: defaults, the flag
// winning over the environment, values that are refused (exit 2), and each one honoured end to end.
import { describe, expect, it } from 'vitest';
import type { RunState } from '../../../src/cli/run-state.js';
import { createClientSettings } from '../../../src/cli/network/client-settings.js';
import type { NetworkFlags } from '../../../src/cli/options/network.js';
import { createTestDeps, runCli } from '../../helpers/cli.js';
import { fakeTime } from '../../helpers/fake-time.js';
import { sendError, useServers } from '../../helpers/fault-server.js';
import { quotesEnv } from '../../helpers/quotes-env.js';

const { start: server } = useServers();

async function settingsFor(flags: NetworkFlags, env: Record<string, string> = {}) {
  const state: RunState = { exitCode: 0, cleanups: [] };
  const { deps } = createTestDeps({ env });
  try {
    const { settings: http } = await createClientSettings(deps, flags, state);
    return { timeoutMs: http.timeoutMs, retries: http.retries, maxWaitMs: http.maxWaitMs };
  } finally {
    for (const cleanup of state.cleanups) await cleanup();
  }
}

describe('resolving the network settings', () => {
  it.each([
    ['the defaults: --max-wait covers a whole rate window', {}, {}, { timeoutMs: 15_000, retries: 2, maxWaitMs: 90_000 }],
    ['flags', { timeout: '1500ms', retries: '0', maxWait: '1m' }, {}, { timeoutMs: 1500, retries: 0, maxWaitMs: 60_000 }],
    ['the environment', {}, { MKT_TIMEOUT: '3s', MKT_RETRIES: '5', MKT_MAX_WAIT: '10' }, { timeoutMs: 3000, retries: 5, maxWaitMs: 10_000 }],
    ['flags over the environment', { timeout: '2s', retries: '1', maxWait: '4s' }, { MKT_TIMEOUT: 'nonsense', MKT_RETRIES: 'x', MKT_MAX_WAIT: 'y' },
      { timeoutMs: 2000, retries: 1, maxWaitMs: 4000 }],
    ['empty variables count as unset', {}, { MKT_TIMEOUT: '', MKT_RETRIES: '', MKT_MAX_WAIT: '' }, { timeoutMs: 15_000, retries: 2, maxWaitMs: 90_000 }],
    ['--max-wait 0: no waiting at all', { maxWait: '0' }, {}, { timeoutMs: 15_000, retries: 2, maxWaitMs: 0 }],
  ] as const)('%s', async (_name, flags, env, expected) => {
    expect(await settingsFor(flags, env)).toEqual(expected);
  });
});

describe('values that are refused: exit 2 before any request', () => {
  it.each([
    [['--timeout', 'soon'], {}, /^error: --timeout must be a duration such as 500ms, 2s, 1m or a number of seconds, not "soon"/],
    [['--timeout', '0'], {}, /^error: --timeout must be more than 0/],
    [['--timeout', '25h'], {}, /^error: --timeout is too long: at most 24h/],
    [['--retries', 'two'], {}, /^error: --retries must be a whole number, not "two"/],
    [['--retries', '11'], {}, /^error: --retries must be between 0 and 10, not 11/],
    [['--max-wait', '-5s'], {}, /^error: --max-wait must be a duration/],
    [[], { MKT_TIMEOUT: 'abc' }, /^error: MKT_TIMEOUT must be a duration/],
    [[], { MKT_TIMEOUT: '0' }, /^error: MKT_TIMEOUT must be more than 0/],
    [[], { MKT_RETRIES: '-1' }, /^error: MKT_RETRIES must be a whole number, not "-1"/],
    [[], { MKT_MAX_WAIT: 'forever' }, /^error: MKT_MAX_WAIT must be a duration/],
  ] as const)('%j %j', async (flags, env, message) => {
    const api = await server((_req, res) => res.writeHead(500).end());
    const run = await runCli(['quotes', 'EURUSD', ...flags], { env: quotesEnv(api.url, env) });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(api.requests).toHaveLength(0);
  });
});

describe('each setting honoured end to end', () => {
  const hang = () => {};

  it.each([
    ['MKT_TIMEOUT=1s', [], { MKT_TIMEOUT: '1s' }],
    ['--timeout 1s over MKT_TIMEOUT=30s', ['--timeout', '1s'], { MKT_TIMEOUT: '30s' }],
  ] as const)('%s: a hanging server ends in exit 7 at that deadline', async (_name, flags, env) => {
    // The message names the deadline that fired (network/faults.test.ts times the real timer).
    const api = await server(hang);
    const run = await runCli(['quotes', 'EURUSD', ...flags], { env: quotesEnv(api.url, env) });
    expect(run.code).toBe(7);
    expect(run.stderr).toContain('did not complete within 1s');
  });

  it.each([
    ['MKT_RETRIES=0', [], { MKT_RETRIES: '0' }, 1],
    ['--retries 1', ['--retries', '1'], {}, 2],
    ['--retries 0 over MKT_RETRIES=5', ['--retries', '0'], { MKT_RETRIES: '5' }, 1],
  ] as const)('%s: 503 forever is tried %i time(s)', async (_name, flags, env, attempts) => {
    const api = await server((_req, res) => sendError(res, 503, 'UNAVAILABLE', { 'retry-after': '0' }));
    const run = await runCli(['quotes', 'EURUSD', ...flags], { env: quotesEnv(api.url, env) });
    expect(run.code).toBe(7);
    expect(api.requests).toHaveLength(attempts);
  });

  it.each([
    ['MKT_MAX_WAIT=1s', [], { MKT_MAX_WAIT: '1s' }, '--max-wait 1s'],
    ['--max-wait 2s over MKT_MAX_WAIT=1h', ['--max-wait', '2s'], { MKT_MAX_WAIT: '1h' }, '--max-wait 2s'],
  ] as const)('%s: a Retry-After of 5 s fails at once', async (_name, flags, env, named) => {
    const api = await server((_req, res) => sendError(res, 429, 'RATE_LIMITED', { 'retry-after': '5' }));
    const clock = fakeTime();
    const run = await runCli(['quotes', 'EURUSD', ...flags], { env: quotesEnv(api.url, env), now: clock.now, sleep: clock.sleep });
    expect(run.code).toBe(6);
    expect(clock.sleeps).toEqual([]);
    expect(api.requests).toHaveLength(1);
    expect(run.stderr).toContain(`the service asks to wait 5s, longer than ${named}\n`);
  });
});
