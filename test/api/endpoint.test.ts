// The shared endpoint skeleton as a new endpoint meets it: `getGadgets`, an endpoint made up for this
// test, written as docs/architecture.md's walk-through says (requireBearer, checkList, endpoint()
// with its query, callEndpoint with its defaults, readItems). What it gets without saying: a GET,
// retried; no headers but the bearer's; the tokens it sent scrubbed from its errors; nothing sent
// and no token asked for when the signal is already aborted.
import { describe, expect, it } from 'vitest';
import { requireBearer } from '../../src/api/bearer.js';
import { checkList } from '../../src/api/check-options.js';
import { bearerHints, callEndpoint, endpoint } from '../../src/api/endpoint.js';
import { AbortError, InvalidRequestError, OptionsError, type ClientOptions } from '../../src/api/index.js';
import { readItems } from '../../src/api/read-items.js';
import type { Transport } from '../../src/api/transport.js';
import { reply, useServers } from '../helpers/fault-server.js';

const servers = useServers();

interface Gadget {
  gadget: string;
  on: boolean;
}

/** GET /v1/gadgets?kinds=…: an endpoint no service has, on the shared parts alone. */
async function getGadgets(options: ClientOptions & Transport, input: { kinds?: readonly string[] } = {}) {
  const operation = 'getGadgets';
  const url = endpoint(options.baseUrl, '/v1/gadgets', { kinds: input.kinds });
  const pending = requireBearer(options, undefined, { operation, url });
  if (input.kinds !== undefined) checkList(operation, 'kinds', input.kinds, { noun: 'kind', pattern: /^[a-z]{1,8}$/, rule: '1 to 8 small letters', example: 'lamp' });
  const bearer = await pending.open();
  const { value, attempts } = await callEndpoint(options, {
    url, operation, bearer, expected: 'a JSON object with a data array of gadgets',
    read: (json, response) => readItems(json, response, 'gadget', (item): Gadget => ({ gadget: item.key('gadget'), on: item.boolean('on') })),
    hints: bearerHints({ inputs: 'the kinds and the organizationId', scope: 'gadgets.read', organizationId: bearer.organizationId }),
  });
  return { data: value, attempts };
}

const noWait = { sleep: async () => {}, random: () => 0 };

describe('an endpoint on the shared skeleton', () => {
  it('sends a GET with its query and the bearer\'s two headers, and nothing of its own', async () => {
    const server = await servers.script(reply(200, '{"data":[{"gadget":"a lamp","on":true},{"gadget":"a fan","on":false}]}'));
    const result = await getGadgets({ baseUrl: `${server.url}/prefix/`, accessToken: 'tok-1', organizationId: 'org_demo' }, { kinds: ['lamp', 'fan'] });
    expect(result).toEqual({ data: [{ gadget: 'a lamp', on: true }, { gadget: 'a fan', on: false }], attempts: 1 });
    const [request] = server.requests;
    expect(request!.method).toBe('GET');
    expect(request!.url).toBe('/prefix/v1/gadgets?kinds=lamp,fan');
    expect(request!.headers.authorization).toBe('Bearer tok-1');
    expect(request!.headers['x-organization-id']).toBe('org_demo');
    expect(request!.headers['content-type']).toBeUndefined();
  });

  it('leaves a list it was not given out of the query', async () => {
    const server = await servers.script(reply(200, '{"data":[]}'));
    await getGadgets({ baseUrl: server.url, accessToken: 'tok-1', organizationId: 'org_demo' });
    expect(server.requests.map((request) => request.url)).toEqual(['/v1/gadgets']);
  });

  it('is retried after a 503, as a GET is', async () => {
    let count = 0;
    const server = await servers.start((_req, res) => {
      count++;
      if (count === 1) res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":{"code":"UNAVAILABLE","message":"busy"}}');
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[]}');
    });
    const result = await getGadgets({ baseUrl: server.url, accessToken: 'tok-1', organizationId: 'org_demo', ...noWait });
    expect(result.attempts).toBe(2);
    expect(server.requests).toHaveLength(2);
  });

  it('scrubs the token its source gave from the error of an answer that echoes it', async () => {
    const server = await servers.script(reply(400, '{"error":{"code":"INVALID_REQUEST","message":"no gadgets for token tok-from-the-source"}}'));
    const error = await getGadgets({ baseUrl: server.url, accessToken: () => 'tok-from-the-source', organizationId: 'org_demo' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(server.requests[0]!.headers.authorization).toBe('Bearer tok-from-the-source');
    expect(JSON.stringify({ ...(error as InvalidRequestError), message: (error as Error).message })).not.toContain('tok-from-the-source');
    expect((error as InvalidRequestError).hint).toBe('check the kinds and the organizationId');
  });

  it('sends nothing, and asks no token source, when its signal is already aborted', async () => {
    const server = await servers.script(reply(200, '{"data":[]}'));
    let asked = 0;
    const accessToken = () => {
      asked++;
      return 'tok-1';
    };
    const error = await getGadgets({ baseUrl: server.url, accessToken, organizationId: 'org_demo', signal: AbortSignal.abort() }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AbortError);
    expect(asked).toBe(0);
    expect(server.requests).toEqual([]);
  });

  it('checks its list before anything is sent, naming it', async () => {
    const server = await servers.script(reply(200, '{"data":[]}'));
    const error = await getGadgets({ baseUrl: server.url, accessToken: 'tok-1', organizationId: 'org_demo' }, { kinds: ['lamp', 'Fan'] }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OptionsError);
    expect(error).toMatchObject({ option: 'kinds', operation: 'getGadgets', message: 'invalid kind in kinds: "Fan"', hint: 'a kind is 1 to 8 small letters' });
    expect(server.requests).toEqual([]);
  });
});

describe('endpoint()', () => {
  it.each([
    ['no query', undefined, 'http://h.test/v1/things'],
    ['a list, each item percent-encoded, joined by commas', { ids: ['a b', 'c,d', 'é'] }, 'http://h.test/v1/things?ids=a%20b,c%2Cd,%C3%A9'],
    ['a list and a string, in order; undefined left out', { ids: ['x'], venue: 'XNAS', none: undefined }, 'http://h.test/v1/things?ids=x&venue=XNAS'],
    ['a string that needs encoding', { q: 'a&b=c' }, 'http://h.test/v1/things?q=a%26b%3Dc'],
  ])('%s', (_name, query, expected) => {
    expect(endpoint('http://h.test', '/v1/things', query).href).toBe(expected);
  });
});
