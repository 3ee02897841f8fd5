// `mkt mcp` run in-process (main, as the bin runs it, with the test's deps), spoken to in raw lines
// on its standard input: what a client writes, byte for byte, and each line it writes on stdout,
// parsed. For what the SDK's client never sends (a line that is not JSON, a bad id, a batch).
import { PassThrough } from 'node:stream';
import { expect } from 'vitest';
import { createTestDeps } from '../../helpers/cli.js';
import { main } from '../../../src/cli/main.js';

export interface McpLines {
  /** Writes `message` (JSON, or a line as it is) and a line end. */
  send(message: object | string): void;
  /** Writes bytes as they are, with no line end. */
  write(bytes: string | Buffer): void;
  /** Every line written on stdout so far, parsed. */
  lines(): unknown[];
  /** The first line that answers `id` (an error or a result), waiting for it. */
  answer(id: number | string | null): Promise<Answer>;
  /** The line written after the `count` already seen, waiting for it. */
  next(count: number): Promise<unknown>;
  stderr(): string;
  /** Closes stdin, as a client does, and gives the exit code. */
  end(): Promise<number>;
}

export interface Answer {
  jsonrpc: '2.0';
  id: number | string | null;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

export async function startLines(env: Record<string, string | undefined>, protocolVersion = '2025-06-18', args: string[] = []): Promise<McpLines> {
  const stdin = new PassThrough();
  // The config file is the one MKT_CONFIG_DIR names, as for the bin.
  const test = createTestDeps({ env, stdin, configDir: env.MKT_CONFIG_DIR });
  const exited = main(['mcp', ...args], test.deps);
  const lines = () => test.stdout().split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as unknown);
  const find = (id: number | string | null) => lines().find((line) => !Array.isArray(line) && (line as Answer).id === id) as Answer | undefined;
  const self: McpLines = {
    send: (message) => stdin.write(`${typeof message === 'string' ? message : JSON.stringify({ jsonrpc: '2.0', ...message })}\n`),
    write: (bytes) => stdin.write(bytes),
    lines,
    answer: async (id) => {
      await expect.poll(() => find(id), { timeout: 10_000, interval: 5 }).toBeDefined();
      return find(id)!;
    },
    next: async (count) => {
      await expect.poll(() => lines().length, { timeout: 10_000, interval: 5 }).toBeGreaterThan(count);
      return lines()[count];
    },
    stderr: test.stderr,
    end: async () => {
      stdin.end();
      return exited;
    },
  };
  if (protocolVersion !== '') {
    self.send({ id: 'init', method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    await self.answer('init');
    self.send({ method: 'notifications/initialized' });
  }
  return self;
}
