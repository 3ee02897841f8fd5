// Every secret the library holds for a request (the bearer token, the API key and its secret part,
// the client secret) is scrubbed by value from every message, hint, request id and debug line,
// whatever the server echoes back; debug lines lose control characters, C1 ones included.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createClient, MktError, type ApiError } from '../../src/api/index.js';
import { startFaultServer, useServers, type FaultHandler } from '../helpers/fault-server.js';

const TOKEN = 'tok_SECRET_5d1c9e0f77';
const API_KEY = 'demo.key-SECRET-a41f0b';
const KEY_SECRET = 'key-SECRET-a41f0b';
const CLIENT_SECRET = 'cs_SECRET_e20c61b9';
const SECRETS = [TOKEN, API_KEY, KEY_SECRET, CLIENT_SECRET, 'SECRETTOKE'];

const { closeLater } = useServers();

async function setup(handler: FaultHandler) {
  const server = await startFaultServer(handler);
  closeLater(server);
  const debug: string[] = [];
  const client = createClient({
    baseUrl: server.url, accessToken: TOKEN, organizationId: 'org_demo', retries: 0, onDebug: (line) => debug.push(line),
  });
  return { client, debug };
}

/** The error, and everything of it a program or the CLI could print. */
async function shown(call: Promise<unknown>, debug: string[]): Promise<{ error: ApiError; text: string }> {
  const error = await call.then(() => undefined, (caught: unknown) => caught) as ApiError;
  expect(error).toBeInstanceOf(MktError);
  const causes: string[] = [];
  for (let cause = error.cause, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) causes.push(cause.message, cause.stack ?? '');
  const text = [error.message, error.hint, error.stack, error.requestId, JSON.stringify(error.body ?? null), ...causes, ...debug].join('\n');
  return { error, text };
}

function expectNoSecrets(text: string): void {
  for (const secret of SECRETS) expect(text).not.toContain(secret);
}

const echo = (status: number, message: (req: IncomingMessage, body: string) => string, type = 'application/json'): FaultHandler =>
  (req: IncomingMessage, res: ServerResponse, { body }) => {
    const text = type === 'application/json'
      ? JSON.stringify({ error: { code: 'INVALID_REQUEST', message: message(req, body) }, request_id: `req ${req.headers.authorization ?? ''}` })
      : message(req, body);
    res.writeHead(status, { 'content-type': type }).end(text);
  };

describe('secrets echoed back never come out', () => {
  it('a 400 whose message quotes the Authorization header', async () => {
    const { client, debug } = await setup(echo(400, (req) => `bad token ${req.headers.authorization}`));
    const { error, text } = await shown(client.getQuotes({ symbols: ['EURUSD'] }), debug);
    expect(error.message).toBe('the service rejected the request (400 INVALID_REQUEST): bad token Bearer [redacted]');
    expect(error.requestId).toBe('req Bearer [redacted]');
    expectNoSecrets(text);
  });

  it('a 502 in plain text quoting it', async () => {
    const { client, debug } = await setup(echo(502, (req) => `upstream refused ${req.headers.authorization}`, 'text/plain'));
    const { error, text } = await shown(client.getQuotes({ symbols: ['EURUSD'] }), debug);
    expect(error.message).toContain('upstream refused Bearer [redacted]');
    expectNoSecrets(text);
  });

  it.each([
    ['400 in JSON', echo(400, (_req, body) => `cannot read ${body}`)],
    ['401 in plain text', echo(401, (_req, body) => `no such key: ${body}`, 'text/plain')],
    ['200 echoing the body as the token type', (_req: IncomingMessage, res: ServerResponse, { body }: { body: string }) => {
      res.writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ access_token: 'at_issued_0a1b2c', token_type: JSON.parse(body).api_key as string }));
    }],
  ] as const)('login: the API key echoed back (%s)', async (_name, handler) => {
    const { client, debug } = await setup(handler as FaultHandler);
    const { text } = await shown(client.cliLogin({ apiKey: API_KEY, organizationId: 'org_demo' }), debug);
    expectNoSecrets(text);
    expect(debug.some((line) => line.includes('"api_key":"[redacted]"'))).toBe(true);
  });

  it('login: a long API key echoed back as the token type, quoted cut short: none of it comes out', async () => {
    const secret = 'k9QeR2vX7mT1pL8sW3nB6yH4cJ0dF5gA2uZ7iO1eKq8';
    const { client, debug } = await setup((_req, res, { body }) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ access_token: 'at_issued_0a1b2c', token_type: JSON.parse(body).api_key as string }));
    });
    const { error, text } = await shown(client.cliLogin({ apiKey: `demo.${secret}`, organizationId: 'org_demo' }), debug);
    expect(error.message).toContain('a token of type "[redacted]…"');
    for (let at = 0; at + 8 <= secret.length; at++) expect(text).not.toContain(secret.slice(at, at + 8));
  });

  it('its secret part alone echoed back', async () => {
    const { client, debug } = await setup(echo(400, () => `secret ${KEY_SECRET} is wrong`));
    const { error, text } = await shown(client.cliLogin({ apiKey: API_KEY, organizationId: 'org_demo' }), debug);
    expect(error.message).toContain('secret [redacted] is wrong');
    expectNoSecrets(text);
  });

  it('the client secret echoed back', async () => {
    const { client, debug } = await setup(echo(401, (_req, body) => `rejected ${body}`));
    const { text } = await shown(client.clientCredentials({ clientId: 'demo', clientSecret: CLIENT_SECRET }), debug);
    expectNoSecrets(text);
  });

  it('a response header x-request-id: Bearer <token>, under onDebug and as the request id', async () => {
    const { client, debug } = await setup((req, res) => {
      res.writeHead(403, { 'content-type': 'application/json', 'x-request-id': `${req.headers.authorization}` })
        .end(JSON.stringify({ error: { code: 'FORBIDDEN', message: 'no' } }));
    });
    const { error, text } = await shown(client.getQuotes({ symbols: ['EURUSD'] }), debug);
    expect(error.requestId).toBe('Bearer [redacted]');
    expect(debug).toContain('< x-request-id: Bearer [redacted]');
    expectNoSecrets(text);
  });

  it.each([
    ['timestamp', (token: string) => ({ symbol: 'ECHO', bid: '1', ask: '1', mid: '1', timestamp: token })],
    ['timestamp, after a prefix', (token: string) => ({ symbol: 'ECHO', bid: '1', ask: '1', mid: '1', timestamp: `at ${token}` })],
    ['bid', (token: string) => ({ symbol: 'ECHO', bid: token, ask: '1', mid: '1', timestamp: '2026-11-29T12:00:00Z' })],
  ] as const)('a 200 whose quote echoes a long token in its %s, quoted cut short in the error: none of it comes out', async (_where, quote) => {
    // 43 characters, as a token is: the error quotes 40 of them and a cut, no whole token.
    const token = 'Ys1Ma9i7yAW7Z9ZOvE-PvuV037Y2Yx90FSDou2mQk4w';
    const server = await startFaultServer((req, res) => {
      const echoed = String(req.headers.authorization).replace('Bearer ', '');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: [quote(echoed)] }));
    });
    closeLater(server);
    const debug: string[] = [];
    const client = createClient({ baseUrl: server.url, accessToken: token, organizationId: 'org_demo', retries: 0, onDebug: (line) => debug.push(line) });
    const { error, text } = await shown(client.getQuotes({ symbols: ['ECHO'] }), debug);
    expect(error.message).toContain('[redacted]…');
    // Not a run of 8 of its characters anywhere.
    for (let at = 0; at + 8 <= token.length; at++) expect(text).not.toContain(token.slice(at, at + 8));
  });

  it('a token endpoint answering SECRETTOKENVALUE0123456789: the parse error gives a position, never the body', async () => {
    const { client, debug } = await setup((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('SECRETTOKENVALUE0123456789'));
    const { error, text } = await shown(client.clientCredentials({ clientId: 'demo', clientSecret: CLIENT_SECRET }), debug);
    expect(error.message).toMatch(/returned a body that is not valid JSON \(not valid JSON at position 0\); expected a token response$/);
    expectNoSecrets(text);
  });
});

describe('debug lines carry no control characters', () => {
  it('response header values with C1 controls (CSI, OSC, ST) and C0 ones are stripped', async () => {
    const { client, debug } = await setup((req) => {
      const body = '{"data":[]}';
      req.socket.end(Buffer.concat([
        Buffer.from('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n', 'latin1'),
        // U+009B as UTF-8 (c2 9b) and as a raw byte, U+009D OSC ... U+009C ST, a tab.
        Buffer.from('x-request-id: req\xc2\x9b31m\x9b2J\x9d0;title\x9c\tend\r\n', 'latin1'),
        Buffer.from(`ratelimit-remaining: 5\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`, 'latin1'),
      ]));
    });
    await client.getQuotes({ symbols: ['EURUSD'] });
    const line = debug.find((text) => text.startsWith('< x-request-id:'));
    expect(line).toBeDefined();
    for (const text of debug) expect(text).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    // The bytes decode as latin1 (Node 20, 24) or with U+FFFD for the stray bytes (Node 22's undici):
    // either way the printable text stays and no control is left.
    expect(line!.replace(/[^\x20-\x7e]/g, '')).toBe('< x-request-id: req31m2J0;titleend');
  });
});
