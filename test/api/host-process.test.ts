// A refusal never outlives its promise: a program that catches the library's error goes on living.
// A body refused for its size used to be destroyed with no 'error' listener, and undici's abort of
// it then ended the host process ("Unhandled 'error' event ... RequestAbortedError") after the
// caller had caught the ResponseError. Run in a child process of the built library (dist/api.js,
// as a program imports it), which must catch, wait a moment for anything left over, and exit 0.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { collect } from '../helpers/bin.js';
import { tempDir } from '../helpers/cli.js';
import { sendQuotes, useServers } from '../helpers/fault-server.js';

const LIBRARY = fileURLToPath(new URL('../../dist/api.js', import.meta.url));
const servers = useServers();

/** Runs `call` (a client method call on `client`) in a program of its own; what it printed and how it ended. */
async function program(baseUrl: string, options: string, call: string) {
  const dir = tempDir();
  try {
    const file = path.join(dir, 'program.mjs');
    fs.writeFileSync(file, `
import { createClient } from ${JSON.stringify(LIBRARY)};
const client = createClient({ baseUrl: ${JSON.stringify(baseUrl)}, ${options} });
try {
  await ${call};
  console.log('resolved');
} catch (error) {
  console.log('caught', error.name, error.problem ?? error.code);
}
// Anything the refusal left behind would surface now.
await new Promise((resolve) => setTimeout(resolve, 300));
console.log('alive');
`);
    const child = spawn(process.execPath, [file], { stdio: ['pipe', 'pipe', 'pipe'] });
    return await collect(child, performance.now(), '', 20_000);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe.skipIf(!fs.existsSync(LIBRARY))('a refused body, in a program of its own', () => {
  it.each([
    ['getQuotes at maxResponseBytes 1', "accessToken: 'tok', organizationId: 'org_demo', maxResponseBytes: 1", "client.getQuotes({ symbols: ['EURUSD'] })"],
    ['100 symbols at 1,000 bytes', "accessToken: 'tok', organizationId: 'org_demo', maxResponseBytes: 1000",
      "client.getQuotes({ symbols: Array.from({ length: 100 }, (_, i) => 'S' + i), batchSize: 10 })"],
    ['cliLogin at 10 bytes', 'maxResponseBytes: 10', "client.cliLogin({ apiKey: 'demo.demo-secret', organizationId: 'org_demo' })"],
  ])('%s: caught, and the process lives on', async (_name, options, call) => {
    const api = await servers.start((req, res) => req.url?.startsWith('/v1/market/quotes')
      ? sendQuotes(req, res)
      : res.writeHead(200, { 'content-type': 'application/json', 'content-length': '64' }).end(JSON.stringify({ access_token: 'tok_abcdefgh', token_type: 'Bearer' }).padEnd(64)));
    const result = await program(api.url, options, call);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('caught ResponseError too-large\nalive\n');
    expect(result.code).toBe(0);
  });
});
