// The text of a batch's messages, each read for a number whose fraction a double loses as a line of
// its own is: the elements of a JSON array as written, whatever their strings hold.
import { describe, expect, it } from 'vitest';
import { arrayElements, fractionLostToDouble } from '../../../src/cli/mcp/lost-fraction.js';

describe('arrayElements', () => {
  it.each<[string, string, string[]]>([
    ['objects', '[{"a":1},{"b":2}]', ['{"a":1}', '{"b":2}']],
    ['spaces around them', ' [ {"a":1} ,\t{"b":[1,2]} ] ', [' {"a":1} ', '\t{"b":[1,2]} ']],
    ['nested arrays and objects', '[[1,[2,3]],{"x":{"y":[4,5]}},6]', ['[1,[2,3]]', '{"x":{"y":[4,5]}}', '6']],
    ['strings that hold commas, brackets and escaped quotes', '["a,b]","c\\"],{d",{"e":"]}"}]', ['"a,b]"', '"c\\"],{d"', '{"e":"]}"}']],
    ['an empty array', '[]', []],
    ['an empty array with a space', '[ ]', []],
  ])('%s', (_name, line, elements) => {
    expect(arrayElements(line)).toEqual(elements);
    // Each element is the JSON it was: parsed alone, it is the array's element.
    expect(elements.map((text) => JSON.parse(text) as unknown)).toEqual(JSON.parse(line));
  });

  it('finds the one element whose number a double reads as whole', () => {
    const line = '[{"id":1,"q":1.5},{"id":2,"q":100.000000000000001},{"id":3,"s":"100.000000000000001"}]';
    expect(arrayElements(line).map((text) => fractionLostToDouble(text))).toEqual([undefined, '100.000000000000001', undefined]);
  });
});
