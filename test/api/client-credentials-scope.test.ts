// clientCredentials({ scope }): the scope goes to POST /v1/auth/token (the sandbox grants those the
// client has, RFC 6749 §3.3), and a scope that is not a string is refused before any request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, OptionsError, type TokenResponse } from '../../src/api/index.js';
import { DEMO } from '../../src/sandbox/index.js';
import { startFaultServer } from '../helpers/fault-server.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let server: TestSandbox;
beforeAll(async () => {
  server = await startTestSandbox();
});
afterAll(async () => {
  await server.close();
});

const grant = (input: Record<string, unknown>, baseUrl = server.url): Promise<TokenResponse> =>
  createClient({ baseUrl }).clientCredentials({ clientId: DEMO.clientId, clientSecret: DEMO.clientSecret, ...input } as never);

describe('clientCredentials scope', () => {
  it.each([
    ['no scope: all of the client\'s', {}, 'market.read'],
    ['the scope the client has', { scope: 'market.read' }, 'market.read'],
    ['a scope the client lacks: none granted', { scope: 'market.write' }, ''],
  ])('%s', async (_name, input, granted) => {
    const token = await grant(input);
    expect(token).toMatchObject({ tokenType: 'Bearer', scope: granted, expiresIn: 3600, organizationId: undefined });
  });

  it('refuses a scope that is not a string, without a request', async () => {
    const requests: string[] = [];
    const recorder = await startFaultServer((req, res) => {
      requests.push(`${req.method} ${req.url}`);
      res.writeHead(500).end();
    });
    try {
      const error = await grant({ scope: ['market.read'] }, recorder.url).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(OptionsError);
      expect(error).toMatchObject({ code: 'INVALID_OPTIONS', message: expect.stringContaining('scope must be a string') });
      expect(requests).toEqual([]);
    } finally {
      await recorder.close();
    }
  });
});
