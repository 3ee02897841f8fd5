// parsePositions and positionsFromObjects take what a program passes, which may be anything: an
// argument of the wrong type is the library's error, naming the option and what it must be, before
// anything is read; never a TypeError from deep inside, and never a value of the wrong kind read as
// if it were not given.
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { OptionsError, PositionsError, parsePositions, positionsFromObjects, type ParsePositionsOptions, type PositionsWarning } from '../../src/api/index.js';

const CSV = 'symbol,quantity,currency\nAAPL,10,USD\n';
/** A file with a column mkt does not use: reading it calls onWarning, at the end of the header. */
const WITH_EXTRA = 'symbol,quantity,currency,x\nA,1,USD,2\n';
const OBJECTS = [{ symbol: 'AAPL', quantity: '10', currency: 'USD' }];

/** Any value, as a program without types may pass it. */
const parseAnything = parsePositions as (input: unknown, options?: unknown) => ReturnType<typeof parsePositions>;
const fromAnything = positionsFromObjects as (items: unknown, options?: unknown) => ReturnType<typeof positionsFromObjects>;

/** What `run` throws (failing the test when it throws nothing). */
function thrown(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected an error');
}

describe('parsePositions refuses an input that is neither text nor bytes, as a PositionsError', () => {
  it.each([
    ['null', null, 'null'],
    ['a number', 5, 'a number'],
    ['an object', {}, 'an object'],
    ['an array', [], 'an array'],
    ['undefined', undefined, 'undefined'],
  ])('%s', (_name, input, kind) => {
    const error = thrown(() => parseAnything(input));
    expect(error).toBeInstanceOf(PositionsError);
    expect(error).toBeInstanceOf(OptionsError);
    expect(error.message).toBe(`positions must be text (a string) or bytes (a Uint8Array or Buffer), not ${kind}`);
    expect(error).toMatchObject({ reason: 'syntax', option: 'positions' });
  });

  it('names the source, as every PositionsError of the input does', () => {
    expect(thrown(() => parseAnything(null, { source: 'p.csv' })).message).toBe('p.csv: positions must be text (a string) or bytes (a Uint8Array or Buffer), not null');
  });
});

describe('parsePositions refuses options of the wrong type or value, as an OptionsError naming the option', () => {
  it.each<[string, unknown, unknown, string, { option: string; expected?: string }]>([
    ['options null', CSV, null, "parsePositions's options must be an object, not null", { option: 'options', expected: 'an object' }],
    ['options an array', CSV, [], "parsePositions's options must be an object, not an array", { option: 'options', expected: 'an object' }],
    ['options a string (the source, passed as if it were the options)', CSV, 'p.csv', "parsePositions's options must be an object, not a string", { option: 'options', expected: 'an object' }],
    ['a source that is a number', CSV, { source: 5 }, "source must be a string (the input's name), not a number", { option: 'source', expected: "a string (the input's name)" }],
    ['a defaultCurrency that is a number', 'symbol,quantity\nAAPL,10\n', { defaultCurrency: 5 }, 'defaultCurrency must be a string (a currency code such as "USD"), not a number', { option: 'defaultCurrency' }],
    ['an onWarning that is a string, with a warning to give', WITH_EXTRA, { onWarning: 'x' }, 'onWarning must be a function, not a string', { option: 'onWarning', expected: 'a function' }],
    ['an onWarning that is a string, with no warning to give', CSV, { onWarning: 'x' }, 'onWarning must be a function, not a string', { option: 'onWarning', expected: 'a function' }],
    ['a format it does not read', CSV, { format: 'xml' }, 'format must be "csv", "tsv" or "json", not "xml"', { option: 'format', expected: '"csv", "tsv" or "json"' }],
    ['a format in capitals', CSV, { format: 'CSV' }, 'format must be "csv", "tsv" or "json", not "CSV"', { option: 'format' }],
    ['a decimalComma that is a string', 'symbol;quantity;currency\nA;1,5;EUR\n', { decimalComma: 'yes' }, 'decimalComma must be true or false, not a string', { option: 'decimalComma', expected: 'true or false' }],
    ['an encoding that is a number', Buffer.from(CSV), { encoding: 5 }, 'encoding must be a string (an encoding\'s label such as "cp1252"), not a number', { option: 'encoding' }],
    // Checked before the text is: an empty input would otherwise be the error, and the mapping's mistake said only once it is fixed.
    ['columns that are not a mapping, with an empty input', '', { columns: 5 }, 'columns must map fields to column names, e.g. { symbol: "Ticker", quantity: "Shares", cost: "Avg Cost" }', { option: 'columns' }],
  ])('%s', (_name, input, options, message, facts) => {
    const error = thrown(() => parseAnything(input, options));
    expect(error).toBeInstanceOf(OptionsError);
    // The options' mistake, not the positions': no place in a file is named.
    expect(error).not.toBeInstanceOf(PositionsError);
    expect(error.message).toBe(message);
    expect(error).toMatchObject(facts);
    if (facts.option !== 'columns') expect(error).toMatchObject({ operation: 'parsePositions' });
  });
});

describe('positionsFromObjects refuses options of the wrong type, as an OptionsError naming the option', () => {
  it.each<[string, unknown, string, string]>([
    ['options null', null, "positionsFromObjects's options must be an object, not null", 'options'],
    ['options a number', 5, "positionsFromObjects's options must be an object, not a number", 'options'],
    ['a source that is an object', { source: {} }, "source must be a string (the input's name), not an object", 'source'],
    ['a defaultCurrency that is a number', { defaultCurrency: 840 }, 'defaultCurrency must be a string (a currency code such as "USD"), not a number', 'defaultCurrency'],
    ['an onWarning that is a string', { onWarning: 'x' }, 'onWarning must be a function, not a string', 'onWarning'],
  ])('%s', (_name, options, message, option) => {
    const error = thrown(() => fromAnything([{ ...OBJECTS[0], x: 1 }], options));
    expect(error).toBeInstanceOf(OptionsError);
    expect(error).not.toBeInstanceOf(PositionsError);
    expect(error.message).toBe(message);
    expect(error).toMatchObject({ option, operation: 'positionsFromObjects' });
  });
});

describe('good arguments are read as before', () => {
  const expected = [{ symbol: 'AAPL', quantity: '10', currency: 'USD', line: 2 }];

  it('takes a string, a Buffer and a Uint8Array, the options left out or undefined', () => {
    expect(parsePositions(CSV)).toEqual(expected);
    expect(parsePositions(CSV, undefined)).toEqual(expected);
    expect(parsePositions(Buffer.from(CSV))).toEqual(expected);
    expect(parsePositions(new TextEncoder().encode(CSV))).toEqual(expected);
  });

  it('takes bytes made in another realm (a vm context), which instanceof would refuse', () => {
    const bytes = runInNewContext(`new Uint8Array(${JSON.stringify([...Buffer.from(CSV)])})`) as Uint8Array;
    expect(bytes).not.toBeInstanceOf(Uint8Array);
    expect(parsePositions(bytes)).toEqual(expected);
  });

  it('takes every option of its type, and calls onWarning', () => {
    const warnings: PositionsWarning[] = [];
    const options: ParsePositionsOptions = {
      source: 'p.csv', defaultCurrency: 'EUR', format: 'csv', columns: { symbol: 'Ticker' }, decimalComma: true, encoding: 'cp1252', onWarning: (warning) => warnings.push(warning),
    };
    expect(parsePositions(Buffer.from('Ticker;quantity;x\nSAP;1,5;2\n'), options)).toEqual([{ symbol: 'SAP', quantity: '1.5', currency: 'EUR', line: 2 }]);
    expect(warnings.map((warning) => warning.code)).toEqual(['ignored_columns']);
  });

  it('positionsFromObjects takes its objects with the options left out, empty or given', () => {
    const plain = [{ symbol: 'AAPL', quantity: '10', currency: 'USD' }];
    expect(positionsFromObjects(OBJECTS)).toEqual(plain);
    expect(positionsFromObjects(OBJECTS, {})).toEqual(plain);
    expect(positionsFromObjects([{ symbol: 'AAPL', quantity: '10' }], { source: 'tool', defaultCurrency: 'USD', onWarning: () => undefined })).toEqual(plain);
  });
});
