// `mkt mcp` from the standalone executable (npm run build:exe), through the SDK's own client: the
// SDK's bundle is inside the one file. Runs under npm run test:exe (MKT_TEST_EXE).
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/sandbox/index.js';
import { EXE } from '../helpers/bin.js';
import { tempDir } from '../helpers/cli.js';
import { getToken, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { startMcp, structured, type McpProcess } from '../helpers/mcp-process.js';

describe.skipIf(EXE === undefined)('mkt mcp in the standalone executable', () => {
  let sandbox: TestSandbox;
  let server: McpProcess;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
    const token = await getToken(sandbox.url);
    server = await startMcp({ MKT_BASE_URL: sandbox.url, MKT_TOKEN: token, MKT_ORG: DEMO.org, MKT_CONFIG_DIR: path.join(tempDir(), 'cfg') });
  });
  afterAll(async () => {
    await server?.close();
    await sandbox?.close();
  });

  it('lists its tools, answers get_quotes with decimal strings, and ends with exit 0 when stdin closes', async () => {
    const { tools } = await server.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['get_quotes', 'value_portfolio', 'check_quotes', 'auth_status']);
    const { data, missing } = structured<{ data: Array<{ symbol: string; bid: string }>; missing: string[] }>(await server.call('get_quotes', { symbols: ['EURUSD', 'NOSUCH'] }));
    expect(data.map((quote) => quote.symbol)).toEqual(['EURUSD']);
    expect(data[0]!.bid).toMatch(/^\d+\.\d+$/);
    expect(missing).toEqual(['NOSUCH']);
    expect(await server.close()).toEqual({ code: 0, signal: null });
  });
});
