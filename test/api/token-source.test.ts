// accessToken as a token source: asked once per call, asked again with `rejected` after a 401, the
// request then repeated once; the same token back means no repeat. Requests refused with one token
// share one renewal. Every token it hands out is scrubbed from debug lines and errors.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { AuthError, createClient, OptionsError, type TokenContext } from '../../src/api/index.js';
import { sendQuotes, useServers } from '../helpers/fault-server.js';

const servers = useServers();

/** A service that takes only the tokens `accepts` allows, and otherwise answers 401 quoting the header it got. */
async function service(accepts: (token: string, index: number) => boolean) {
  return servers.start((req: IncomingMessage, res: ServerResponse, { index }) => {
    const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    if (accepts(token, index)) return sendQuotes(req, res);
    const body = JSON.stringify({ error: { code: 'UNAUTHORIZED', message: `token ${token} is not known here` } });
    res.writeHead(401, { 'content-type': 'application/json' }).end(body);
  });
}

/** A source handing out `tokens` in turn (the last one again when they run out), recording each ask. */
function source(...tokens: string[]) {
  const asked: TokenContext[] = [];
  let next = 0;
  const give = (context: TokenContext) => {
    asked.push(context);
    return tokens[Math.min(next++, tokens.length - 1)]!;
  };
  return { asked, give };
}

const sentTokens = (api: { requests: Array<{ headers: Record<string, unknown> }> }) => api.requests.map((request) => request.headers.authorization);

describe('a token source', () => {
  it('is asked once per call, with the call\'s signal and nothing rejected', async () => {
    const api = await service((token) => token === 'tok-1' || token === 'tok-2');
    const tokens = source('tok-1', 'tok-2');
    const controller = new AbortController();
    const client = createClient({ baseUrl: api.url, organizationId: 'org_demo', accessToken: tokens.give, signal: controller.signal });
    await client.getQuotes({ symbols: ['EURUSD'] });
    await client.getQuotes({ symbols: ['EURUSD', 'AAPL'], batchSize: 1 });
    expect(tokens.asked).toEqual([{ signal: controller.signal }, { signal: controller.signal }]);
    expect(sentTokens(api)).toEqual(['Bearer tok-1', 'Bearer tok-2', 'Bearer tok-2']);
  });

  it('after a 401 is asked again with the refused token, and the request is repeated once with the new one', async () => {
    const api = await service((token) => token === 'tok-2');
    const tokens = source('tok-1', 'tok-2');
    const client = createClient({ baseUrl: api.url, organizationId: 'org_demo', accessToken: async (context) => tokens.give(context) });
    const result = await client.getQuotes({ symbols: ['EURUSD'] });
    expect(result.data.map((quote) => quote.symbol)).toEqual(['EURUSD']);
    expect(result.attempts).toBe(2);
    expect(tokens.asked.map((context) => context.rejected)).toEqual([undefined, 'tok-1']);
    expect(sentTokens(api)).toEqual(['Bearer tok-1', 'Bearer tok-2']);
  });

  it('giving the refused token back means no repeat: the 401\'s AuthError', async () => {
    const api = await service(() => false);
    const tokens = source('tok-1');
    const client = createClient({ baseUrl: api.url, organizationId: 'org_demo', accessToken: tokens.give });
    await expect(client.getQuotes({ symbols: ['EURUSD'] })).rejects.toMatchObject({ name: 'AuthError', status: 401, operation: 'getQuotes' });
    expect(tokens.asked.map((context) => context.rejected)).toEqual([undefined, 'tok-1']);
    expect(api.requests).toHaveLength(1);
  });

  it('a second 401, after the new token, is the caller\'s: one renewal, two requests', async () => {
    const api = await service(() => false);
    const tokens = source('tok-1', 'tok-2', 'tok-3');
    const client = createClient({ baseUrl: api.url, organizationId: 'org_demo', accessToken: tokens.give });
    await expect(client.getQuotes({ symbols: ['EURUSD'] })).rejects.toBeInstanceOf(AuthError);
    expect(tokens.asked).toHaveLength(2);
    expect(sentTokens(api)).toEqual(['Bearer tok-1', 'Bearer tok-2']);
  });

  it('batches refused with the same token share one renewal', async () => {
    // tok-1 is good for the first request only (the batch that goes alone), then lost.
    const api = await service((token, index) => token === 'tok-2' || (token === 'tok-1' && index === 0));
    const tokens = source('tok-1', 'tok-2');
    const client = createClient({ baseUrl: api.url, organizationId: 'org_demo', accessToken: tokens.give });
    const result = await client.getQuotes({ symbols: ['A', 'B', 'C', 'D'], batchSize: 1, concurrency: 3 });
    expect(result.data.map((quote) => quote.symbol)).toEqual(['A', 'B', 'C', 'D']);
    expect(tokens.asked.map((context) => context.rejected)).toEqual([undefined, 'tok-1']);
    expect(api.requests.filter((request) => request.headers.authorization === 'Bearer tok-2')).toHaveLength(3);
  });

  it('the tokens it gives are scrubbed from debug lines and from the error, whatever the service echoes', async () => {
    const api = await service(() => false);
    const lines: string[] = [];
    const client = createClient({
      baseUrl: api.url, organizationId: 'org_demo', accessToken: source('first-SECRET-token', 'second-SECRET-token').give, onDebug: (line) => lines.push(line),
    });
    const error = await client.getQuotes({ symbols: ['EURUSD'] }).catch((caught: Error) => caught);
    expect(error).toBeInstanceOf(AuthError);
    expect(JSON.stringify(api.requests.map((request) => request.headers.authorization))).toContain('second-SECRET-token');
    const shown = `${lines.join('\n')}\n${(error as AuthError).message}\n${(error as AuthError).serviceMessage}\n${(error as Error).stack}`;
    expect(shown).not.toContain('SECRET');
    expect((error as AuthError).message).toContain('token [redacted] is not known here');
  });

  it('what it throws fails the call as it is, before anything is sent', async () => {
    const api = await service(() => true);
    const failure = new Error('the vault is sealed');
    const client = createClient({ baseUrl: api.url, organizationId: 'org_demo', accessToken: () => Promise.reject(failure) });
    await expect(client.getQuotes({ symbols: ['EURUSD'] })).rejects.toBe(failure);
    expect(api.requests).toHaveLength(0);
  });

  it.each([['a token with a line break', 'tok\nx'], ['not a string', 42], ['empty', '']])('returning %s: an OptionsError naming accessToken, nothing sent', async (_name, given) => {
    const api = await service(() => true);
    const client = createClient({ baseUrl: api.url, organizationId: 'org_demo', accessToken: () => given as string });
    const error = await client.getQuotes({ symbols: ['EURUSD'] }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OptionsError);
    expect(error).toMatchObject({ option: 'accessToken', operation: 'getQuotes' });
    expect(api.requests).toHaveLength(0);
  });

  it('the call\'s own token wins, and a 401 to it is not renewed', async () => {
    const api = await service(() => false);
    const tokens = source('tok-source');
    const client = createClient({ baseUrl: api.url, organizationId: 'org_demo', accessToken: tokens.give });
    await expect(client.getQuotes({ symbols: ['EURUSD'], accessToken: 'tok-call' })).rejects.toBeInstanceOf(AuthError);
    expect(tokens.asked).toEqual([]);
    expect(sentTokens(api)).toEqual(['Bearer tok-call']);
  });

  it('a fixed token is not renewed: one request', async () => {
    const api = await service(() => false);
    const client = createClient({ baseUrl: api.url, organizationId: 'org_demo', accessToken: 'tok-fixed' });
    await expect(client.getQuotes({ symbols: ['EURUSD'] })).rejects.toBeInstanceOf(AuthError);
    expect(api.requests).toHaveLength(1);
  });
});
