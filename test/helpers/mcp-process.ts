// `mkt mcp` as an MCP client runs it: the built bin (or MKT_TEST_EXE's executable) as a child
// process, driven through the SDK's own Client and StdioClientTransport, with an environment of
// the test's own (the transport's default passes on only HOME, PATH and a few more).
import type { ChildProcess } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';
import { baseEnv, mkt } from './bin.js';

export interface McpProcess {
  client: Client;
  /** Everything the server wrote on stderr so far. */
  stderr(): string;
  /** A tool's result; fails the test if the SDK's client refuses it (an answer that breaks the tool's output schema). */
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  /** Closes the client, as MCP clients end a stdio server (its stdin closed), and says how the server ended. */
  close(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export async function startMcp(env: Record<string, string | undefined>, args: readonly string[] = []): Promise<McpProcess> {
  const [command, commandArgs] = mkt(['mcp', ...args]);
  const transport = new StdioClientTransport({ command, args: commandArgs, env: baseEnv(env), stderr: 'pipe' });
  let stderr = '';
  transport.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new Client({ name: 'mkt-tests', version: '1.0.0' });
  await client.connect(transport);
  // The SDK keeps the child process to itself; its exit is what close() reports.
  const child = (transport as unknown as { _process: ChildProcess })._process;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  // The tools' output schemas, which the client checks every structured result against.
  await client.listTools();
  return {
    client,
    stderr: () => stderr,
    call: async (name, callArgs = {}) => (await client.callTool({ name, arguments: callArgs })) as CallToolResult,
    close: async () => {
      await client.close();
      return exited;
    },
  };
}

/** The text of an isError result's first block: mkt's words for the error. */
export function errorText(result: CallToolResult): string {
  expect(result.isError, JSON.stringify(result)).toBe(true);
  const [first] = result.content;
  return first?.type === 'text' ? first.text : '';
}

/** The JSON error object of an isError result's second block. */
export function errorJson(result: CallToolResult): { code: string; message: string; status: number | null; exit_code: number; hint: string | null; retry_after_ms?: number } {
  expect(result.isError).toBe(true);
  const second = result.content[1];
  return (JSON.parse(second?.type === 'text' ? second.text : '{}') as { error: ReturnType<typeof errorJson> }).error;
}

/** A successful result's structured content, after checking that its text block is the same JSON. */
export function structured<T>(result: CallToolResult): T {
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  const [first] = result.content;
  expect(first?.type).toBe('text');
  expect(JSON.parse(first?.type === 'text' ? first.text : 'null')).toEqual(result.structuredContent);
  return result.structuredContent as T;
}
