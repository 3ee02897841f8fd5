// A data operation bound by its descriptor (src/api/data-operation.ts): listOperation makes a whole
// method from a descriptor and the reader of its items (listOperations, one for each reader, is how
// client.ts lists them), tried here on getQuotes' descriptor (the one the repository ships; the
// library's getQuotes sends batches on the same checks); and the checks and the query any data
// operation's method builds, on a descriptor made up for the test whose empty list means every item.
import { describe, expect, it } from 'vitest';
import { checkDataInput, dataInputs, dataQuery, listOperation, listOperations } from '../../src/api/data-operation.js';
import { AuthError, InvalidRequestError, OptionsError, ResponseError } from '../../src/api/index.js';
import { DEMO } from '../../src/sandbox/index.js';
import { DATA_OPERATIONS, VENUE, type DataOperation } from '../../src/shared/operations.js';
import { reply, useServers } from '../helpers/fault-server.js';
import { getToken, startTestSandbox } from '../helpers/sandbox.js';

const servers = useServers();

/** getQuotes' descriptor as a method asked in one request. */
const getQuotesOnce = listOperation('getQuotes', (item) => ({
  symbol: item.key('symbol'), bid: item.decimal('bid'), ask: item.decimal('ask'), mid: item.decimal('mid'), timestamp: item.text('timestamp'),
}));

const VENUES = {
  method: 'GET', path: '/v1/market/venues', scope: 'market.read', noun: 'venue',
  list: { name: 'venues', items: VENUE, empty: 'all', maxItems: 50, example: 'XNAS,EBS' },
  params: {},
} as const satisfies DataOperation;

describe('listOperation: a method from a descriptor and an item reader', () => {
  it('asks the sandbox once and reads each item, decimals as the exact text sent', async () => {
    const sb = await startTestSandbox();
    try {
      const options = { baseUrl: sb.url, accessToken: await getToken(sb.url), organizationId: DEMO.org };
      const result = await getQuotesOnce(options, { symbols: ['aapl', 'EURUSD', 'NOSUCH'], venue: 'xnas' });
      expect(result.data.map((quote) => quote.symbol)).toEqual(['AAPL']);
      expect(result.data[0]!.bid).toMatch(/^\d+\.\d\d$/);
      expect(result.attempts).toBe(1);
      expect(result.rateLimit?.limit).toBe(60);
    } finally {
      await sb.close();
    }
  });

  it('sends the path under the base URL\'s prefix, the list comma-separated and the other parameters, with the bearer\'s headers', async () => {
    const server = await servers.script(reply(200, '{"data":[{"symbol":"EURUSD","bid":1.10,"ask":1.20,"mid":1.150,"timestamp":"2025-01-06T14:30:15.250Z"}]}'));
    const result = await getQuotesOnce({ baseUrl: `${server.url}/prefix/`, accessToken: 'tok-1', organizationId: 'org_demo' }, { symbols: ['EURUSD', 'A,B'], venue: 'EBS' });
    expect(result.data).toEqual([{ symbol: 'EURUSD', bid: '1.10', ask: '1.20', mid: '1.150', timestamp: '2025-01-06T14:30:15.250Z' }]);
    expect(server.requests.map((request) => [request.method, request.url, request.headers.authorization, request.headers['x-organization-id']]))
      .toEqual([['GET', '/prefix/v1/market/quotes?symbols=EURUSD,A%2CB&venue=EBS', 'Bearer tok-1', 'org_demo']]);
  });

  it('names the item and the field of a body it cannot read, and words a 400 by the descriptor', async () => {
    let count = 0;
    const server = await servers.start((_req, res) => {
      count++;
      if (count === 1) res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[{"symbol":"EURUSD","bid":"x","ask":1,"mid":1,"timestamp":"t"}]}');
      else res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"code":"INVALID_REQUEST","message":"no"}}');
    });
    const options = { baseUrl: server.url, accessToken: 'tok-1', organizationId: 'org_demo', retries: 0 };
    const unreadable = await getQuotesOnce(options, { symbols: ['EURUSD'] }).catch((caught: unknown) => caught);
    expect(unreadable).toBeInstanceOf(ResponseError);
    expect((unreadable as ResponseError).message).toBe(`GET ${server.url}/v1/market/quotes returned quote 1 (EURUSD) whose bid is not a number ("x")`);
    const error = await getQuotesOnce(options, { symbols: ['EURUSD'] }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as InvalidRequestError).hint).toBe('check the symbols, the venue and the organizationId');
  });

  it('listOperations makes the method of each reader, by operationId, as client.ts lists them', async () => {
    const server = await servers.script(reply(200, '{"data":[]}'));
    const methods = listOperations({ getQuotes: (item) => ({ symbol: item.key('symbol'), bid: '1', ask: '1', mid: '1', timestamp: 't' }) });
    expect(Object.keys(methods)).toEqual(['getQuotes']);
    expect(await methods.getQuotes({ baseUrl: server.url, accessToken: 'tok-1', organizationId: 'org_demo' }, { symbols: ['KO'] })).toEqual({ data: [], attempts: 1, rateLimit: undefined });
    expect(listOperations({})).toEqual({});
  });

  it('refuses, before any request, a call without a token, and then input its descriptor refuses', async () => {
    const server = await servers.script(reply(200, '{"data":[]}'));
    await expect(getQuotesOnce({ baseUrl: server.url, organizationId: 'org_demo' }, { symbols: ['EURUSD'] })).rejects.toBeInstanceOf(AuthError);
    await expect(getQuotesOnce({ baseUrl: server.url, accessToken: 'tok-1', organizationId: 'org_demo' }, { symbols: [] })).rejects.toMatchObject({ option: 'symbols', operation: 'getQuotes' });
    await expect(getQuotesOnce({ baseUrl: server.url, accessToken: 'tok-1', organizationId: 'org_demo' }, { symbols: ['EURUSD'], venue: '' })).rejects.toBeInstanceOf(OptionsError);
    expect(server.requests).toEqual([]);
  });

  it('refuses more items than one request takes (the descriptor\'s maxItems), counted as the service counts them', async () => {
    const { maxItems } = DATA_OPERATIONS.getQuotes.list;
    const symbols = Array.from({ length: maxItems + 1 }, (_, i) => `S${i}`);
    const server = await servers.script(reply(200, '{"data":[]}'));
    const options = { baseUrl: server.url, accessToken: 'tok-1', organizationId: 'org_demo' };
    await expect(getQuotesOnce(options, { symbols })).rejects.toMatchObject({
      option: 'symbols', operation: 'getQuotes', message: `symbols holds ${maxItems + 1} symbols, and one request takes at most ${maxItems}`,
    });
    expect(server.requests).toEqual([]);
    // The same symbol in two cases is one, as the service reads the list: maxItems of them are sent.
    await getQuotesOnce(options, { symbols: [...symbols.slice(0, maxItems), symbols[0]!.toLowerCase()] });
    expect(server.requests).toHaveLength(1);
  });
});

describe('a data operation\'s input, by its descriptor', () => {
  it('takes no list, or an empty one, where that means every item, and sends no list then', () => {
    for (const input of [{}, { venues: [] }, { venues: undefined }]) {
      expect(() => checkDataInput('getVenues', VENUES, input)).not.toThrow();
      expect(dataQuery(VENUES, input)).toEqual({ venues: undefined });
    }
    expect(dataQuery(VENUES, { venues: ['XNAS', 'EBS'] })).toEqual({ venues: ['XNAS', 'EBS'] });
  });

  it.each([
    ['a list that is not an array', { venues: 'XNAS' }, 'getVenues needs venues: an array of at least one venue, e.g. ["XNAS"]'],
    ['an item that breaks the rule', { venues: ['XNAS', 'a b'] }, 'invalid venue in venues: "a b"'],
    ['an empty item', { venues: [''] }, 'invalid venue in venues: ""'],
  ])('refuses %s, naming it', (_name, input, message) => {
    const error = (() => {
      try {
        checkDataInput('getVenues', VENUES, input);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(OptionsError);
    expect(error).toMatchObject({ message, option: 'venues', operation: 'getVenues' });
  });

  it('refuses an empty list where the descriptor refuses one, and a parameter by its rule', () => {
    const quotes = DATA_OPERATIONS.getQuotes;
    expect(() => checkDataInput('getQuotes', quotes, { symbols: [] })).toThrow('getQuotes needs symbols: an array of at least one symbol, e.g. ["EURUSD"]');
    expect(() => checkDataInput('getQuotes', quotes, {})).toThrow('getQuotes needs symbols');
    expect(() => checkDataInput('getQuotes', quotes, { symbols: ['EURUSD'], venue: 42 })).toThrow('venue must be 1 to 64 visible ASCII characters, not "42"');
    expect(() => checkDataInput('getQuotes', quotes, { symbols: ['EURUSD'], venue: 'X'.repeat(64) })).not.toThrow();
  });

  it('says what a 400 may be about', () => {
    expect(dataInputs(DATA_OPERATIONS.getQuotes)).toBe('the symbols, the venue and the organizationId');
    expect(dataInputs(VENUES)).toBe('the venues and the organizationId');
  });
});
