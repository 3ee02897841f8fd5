// `mkt mcp` against a sandbox that allows two requests a minute, through the SDK's own client, the
// sandbox's clock moved by the test: a call the rate limit would keep past the client's timeout
// answers at once with the wait it needs, a wait within the budget is waited for and told to a
// client that asked for progress, and --max-wait still sets the budget.
import path from 'node:path';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { DEFAULT_REQUEST_TIMEOUT_MSEC } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../../src/sandbox/index.js';
import { tempDir } from '../../helpers/cli.js';
import { getToken, startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';
import { errorJson, errorText, startMcp, structured, type McpProcess } from '../../helpers/mcp-process.js';

const PER_MINUTE = 2;
/** 14:31:00.250 UTC on the sandbox's test day: `minute(31, 0.25)`. */
const minute = (m: number, seconds: number) => Date.UTC(2025, 0, 6, 14, m, 0) + seconds * 1000;

let sandbox: TestSandbox;
let env: Record<string, string>;
const servers: McpProcess[] = [];

beforeAll(async () => {
  sandbox = await startTestSandbox({ limits: { perMinute: PER_MINUTE } });
  // A token got now: the MCP servers then spend the limit on quotes alone.
  env = { MKT_BASE_URL: sandbox.url, MKT_ORG: DEMO.org, MKT_TOKEN: await getToken(sandbox.url), MKT_CONFIG_DIR: path.join(tempDir(), 'cfg') };
});

afterAll(async () => {
  for (const server of servers) await server.close();
  await sandbox?.close();
});

const start = async (args: string[] = []) => {
  const server = await startMcp(env, args);
  servers.push(server);
  return server;
};

/** The minute's requests spent, at `at` on the sandbox's clock. */
const spendMinute = async (server: McpProcess, at: number) => {
  sandbox.clock.set(at);
  for (let i = 0; i < PER_MINUTE; i++) expect(structured<{ data: unknown[] }>(await server.call('get_quotes', { symbols: ['EURUSD'] })).data).toHaveLength(1);
};

/** A duration as mkt writes it in its words (`45s`, `500ms`, `1m30s`), in milliseconds. */
const durationMs = (text: string) => {
  const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
  expect(parts.map((part) => part[0]).join('')).toBe(text);
  return parts.reduce((sum, [, value, unit]) => sum + Number(value) * units[unit!]!, 0);
};

describe('waits and the client\'s timeout', () => {
  it('answers at once, with the wait it would need, when the service asks for the whole of the SDK client\'s default timeout', async () => {
    const server = await start();
    // Just after a minute begins, the window resets in 59.75 s: the service asks 60 s, the SDK's timeout.
    await spendMinute(server, minute(31, 0.25));
    const result = await server.call('get_quotes', { symbols: ['EURUSD'] });
    const words = /the service asks to wait (\S+), longer than --max-wait (\S+)$/m.exec(errorText(result));
    expect(words, errorText(result)).not.toBeNull();
    const budgetMs = durationMs(words![2]!);
    // The default budget is within the timeout, and this wait past it.
    expect(budgetMs).toBeLessThan(DEFAULT_REQUEST_TIMEOUT_MSEC);
    expect(errorJson(result)).toMatchObject({ code: 'RATE_LIMITED', exit_code: 6, status: 429, retry_after_ms: DEFAULT_REQUEST_TIMEOUT_MSEC });
    expect(errorText(result)).toMatch(/hint: call again after \d\d:\d\d:\d\d UTC \(in [^)]+\); this server waits at most /);
  });

  it('waits within the budget, and tells a client that asked for progress as the wait starts', async () => {
    const server = await start();
    // 0.75 s before the minute ends: the service asks for 1 s.
    await spendMinute(server, minute(33, 59.25));
    const told: Progress[] = [];
    const result = await server.client.callTool({ name: 'get_quotes', arguments: { symbols: ['EURUSD'] } }, undefined, {
      onprogress: (progress) => {
        told.push(progress);
        // The wait has begun: the sandbox's minute ends, so the retry after it is served.
        sandbox.clock.set(minute(34, 0.5));
      },
      resetTimeoutOnProgress: true,
    });
    expect(structured<{ data: unknown[] }>(result as never).data).toHaveLength(1);
    expect(told.length).toBeGreaterThanOrEqual(1);
    expect(told[0]).toMatchObject({ progress: 1 });
    expect(told[0]!.message).toBe('rate limited; retrying in 1s (1/2)');
    expect(told.map((progress) => progress.progress)).toEqual(told.map((_, i) => i + 1));
  });

  it('waits no more than --max-wait when it is given', async () => {
    const server = await start(['--max-wait', '500ms']);
    await spendMinute(server, minute(35, 59.25));
    const result = await server.call('get_quotes', { symbols: ['EURUSD'] });
    expect(errorText(result)).toContain('the service asks to wait 1s, longer than --max-wait 500ms');
    expect(errorJson(result)).toMatchObject({ code: 'RATE_LIMITED', retry_after_ms: 1000 });
  });
});
