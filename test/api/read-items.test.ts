// readItems, the shared reader of `{data: [...]}` bodies: every item a JSON object (a JSON number,
// which the exact parser makes an object, is not one), each field read strictly and named in the
// message with its item; parseQuotes reads its bodies with it.
import { describe, expect, it } from 'vitest';
import { ResponseError } from '../../src/api/index.js';
import { parseJsonExact } from '../../src/api/json.js';
import { parseQuotes } from '../../src/api/parse-quotes.js';
import { readItems } from '../../src/api/read-items.js';

const source = { method: 'GET', url: 'http://127.0.0.1:1/v1/gadgets?kinds=lamp', operation: 'getGadgets' };
const read = (text: string) => readItems(parseJsonExact(text), source, 'gadget', (item) => ({
  gadget: item.key('gadget'), kind: item.text('kind'), price: item.decimal('price'), on: item.boolean('on'),
}));
const good = { gadget: 'L1', kind: 'lamp', price: 10.50, on: true };
const body = (items: unknown[]) => JSON.stringify({ data: items }).replace('10.5,', '10.50,');

describe('readItems', () => {
  it('reads each item, decimals as the exact text sent', () => {
    expect(read(body([good, { ...good, gadget: 'L2', price: '7', on: false }]))).toEqual([
      { gadget: 'L1', kind: 'lamp', price: '10.50', on: true },
      { gadget: 'L2', kind: 'lamp', price: '7', on: false },
    ]);
    expect(readItems(parseJsonExact('{"data":[{"a":1}],"more":true}'), source, 'gadget')).toHaveLength(1);
  });

  it.each([
    ['a number', '{"data":[1]}', 'gadget 1 that is not an object (the number 1)'],
    ['null', '{"data":[null]}', 'gadget 1 that is not an object (null)'],
    ['a string', '{"data":["x"]}', 'gadget 1 that is not an object ("x")'],
    ['an array', `{"data":[${JSON.stringify(good)},[]]}`, 'gadget 2 that is not an object (an array)'],
    ['true', '{"data":[true]}', 'gadget 1 that is not an object (true)'],
  ])('refuses an item that is %s, naming it', (_name, text, what) => {
    const error = (() => {
      try {
        read(text);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ResponseError);
    expect(error).toMatchObject({
      message: `GET http://127.0.0.1:1/v1/gadgets returned ${what}`,
      method: 'GET', url: source.url, status: 200, operation: 'getGadgets', problem: 'unexpected',
      hint: 'the service sent gadgets the client cannot read; check baseUrl, or report it to the service',
    });
  });

  it.each([
    ['a body that is a number', '5', 'a body that is not a JSON object'],
    ['a body that is an array', '[]', 'a body that is not a JSON object'],
    ['no data', '{"gadgets":[]}', 'a JSON object without a "data" field'],
    ['data that is an object', '{"data":{}}', 'a "data" field that is not an array (an object)'],
    ['data that is a number', '{"data":3}', 'a "data" field that is not an array (the number 3)'],
  ])('refuses %s', (_name, text, what) => {
    expect(() => read(text)).toThrow(`returned ${what}`);
  });

  it.each([
    ['no key', { ...good, gadget: undefined }, 'gadget 1 without gadget'],
    ['a key that is blank', { ...good, gadget: '  ' }, 'gadget 1 whose gadget is empty'],
    ['a key that is a number', { ...good, gadget: 7 }, 'gadget 1 whose gadget is not a string (the number 7)'],
    ['no kind', { ...good, kind: undefined }, 'gadget 1 (L1) without kind'],
    ['a price that is not a number', { ...good, price: 'ten' }, 'gadget 1 (L1) whose price is not a number ("ten")'],
    ['a price that is null', { ...good, price: null }, 'gadget 1 (L1) whose price is not a number (null)'],
    ['on that is a string', { ...good, on: 'true' }, 'gadget 1 (L1) whose on is not true or false ("true")'],
    ['on that is a number', { ...good, on: 1 }, 'gadget 1 (L1) whose on is not true or false (the number 1)'],
    ['no on', { ...good, on: undefined }, 'gadget 1 (L1) without on'],
  ])('refuses an item with %s, naming the item and the field', (_name, item, what) => {
    expect(() => read(body([item]))).toThrow(`returned ${what}`);
  });

  it('names an item by its key without control characters, cut at 40', () => {
    expect(() => read(body([{ ...good, gadget: `EV\u001bIL${'x'.repeat(50)}`, on: 0 }]))).toThrow(`gadget 1 (EVIL${'x'.repeat(36)}…) whose on is`);
  });

  it('gives a reader its own failure, worded as the others', () => {
    const error = (() => {
      try {
        readItems(parseJsonExact(body([good])), source, 'gadget', (item) => {
          item.key('gadget');
          throw item.fail('whose price is below zero');
        });
      } catch (caught) {
        return caught as ResponseError;
      }
      return undefined;
    })();
    expect(error?.message).toBe('GET http://127.0.0.1:1/v1/gadgets returned gadget 1 (L1) whose price is below zero');
  });
});

describe('parseQuotes reads its bodies with readItems', () => {
  const url = 'http://127.0.0.1:1/v1/market/quotes?symbols=EURUSD';
  it.each([
    ['{"data":[1]}', 'quote 1 that is not an object (the number 1)'],
    ['{"data":[null]}', 'quote 1 that is not an object (null)'],
    ['{"data":["x"]}', 'quote 1 that is not an object ("x")'],
  ])('%s: %s', (text, what) => {
    expect(() => parseQuotes(parseJsonExact(text), url)).toThrow(`GET http://127.0.0.1:1/v1/market/quotes returned ${what}`);
  });
});
