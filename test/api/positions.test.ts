// Positions files: CSV and TSV (RFC 4180) and JSON, read digit for digit; every bad input a
// PositionsError naming the file and the line (or the position of a JSON array), with its facts.
import { describe, expect, it } from 'vitest';
import { OptionsError } from '../../src/api/errors.js';
import { JsonNumber, parseJsonExact } from '../../src/api/json.js';
import { PositionsError } from '../../src/api/positions-error.js';
import { detectPositionsFormat, parsePositions } from '../../src/api/positions-text.js';
import { positionsFromObjects } from '../../src/api/positions.js';
import { MAX_POSITIONS_FILE_BYTES } from '../../src/shared/limits.js';

describe('parsePositions: CSV', () => {
  it('reads symbol, quantity, currency and cost, each as written, with the line it came from', () => {
    const text = 'symbol,quantity,currency,cost\nAAPL,10,USD,200.50\nVOD.L,1000,GBX\nEUR,2500.75,EUR\n7203.T,-100,JPY,2800\n';
    expect(parsePositions(text, { source: 'p.csv' })).toEqual([
      { symbol: 'AAPL', quantity: '10', currency: 'USD', cost: '200.50', line: 2 },
      { symbol: 'VOD.L', quantity: '1000', currency: 'GBX', line: 3 },
      { symbol: 'EUR', quantity: '2500.75', currency: 'EUR', line: 4 },
      { symbol: '7203.T', quantity: '-100', currency: 'JPY', cost: '2800', line: 5 },
    ]);
  });

  it('keeps every digit: no float ever holds a quantity or a cost', () => {
    const [position] = parsePositions('symbol,quantity,cost,currency\nX,123456789012345678.90,1.084150000000000001,USD\n');
    expect(position).toMatchObject({ quantity: '123456789012345678.90', cost: '1.084150000000000001' });
    expect(String(Number('1.084150000000000001'))).toBe('1.08415');
  });

  it('takes RFC 4180 quoting: commas, doubled quotes and line breaks inside quotes, CRLF, and counts lines right', () => {
    const text = 'symbol,quantity,currency,cost\r\n"AAPL","1,5"\r\n"BRK""A",2,"USD"\r\n"MULTI\r\nLINE",3,USD\r\nKO,4,USD\r\n';
    const error = catchError(() => parsePositions(text, { source: 'q.csv', defaultCurrency: 'USD' }));
    // "1,5" is one field holding a comma: a quantity that is not a decimal, on line 2.
    expect(error).toMatchObject({ line: 2, field: 'quantity', value: '1,5' });
    const fixed = text.replace('"1,5"', '"15"').replace('"MULTI\r\nLINE"', '" SPY "');
    expect(parsePositions(fixed, { source: 'q.csv', defaultCurrency: 'USD' })).toEqual([
      { symbol: 'AAPL', quantity: '15', currency: 'USD', line: 2 },
      { symbol: 'BRK"A', quantity: '2', currency: 'USD', line: 3 },
      { symbol: 'SPY', quantity: '3', currency: 'USD', line: 4 },
      { symbol: 'KO', quantity: '4', currency: 'USD', line: 5 },
    ]);
    // A line break inside quotes moves every later line number on by one.
    const broken = catchError(() => parsePositions(text.replace('"1,5"', '15').replace('KO,4', 'KO,x'), { source: 'q.csv', defaultCurrency: 'USD' }));
    expect(broken).toMatchObject({ field: 'symbol', line: 4 });
    const later = catchError(() => parsePositions(text.replace('"1,5"', '15').replace('"MULTI\r\nLINE"', 'M').replace('KO,4', 'KO,x'), { defaultCurrency: 'USD' }));
    expect(later).toMatchObject({ field: 'quantity', line: 5, value: 'x' });
  });

  it('ignores a byte-order mark, blank lines and spaces around cells; reads the header in any case', () => {
    const text = '\uFEFF\n Symbol , QUANTITY ,Currency\n\n  AAPL , 10 , USD \n\r\n\nKO,1,USD';
    expect(parsePositions(text)).toEqual([
      { symbol: 'AAPL', quantity: '10', currency: 'USD', line: 4 },
      { symbol: 'KO', quantity: '1', currency: 'USD', line: 7 },
    ]);
  });

  it('ends lines at CR alone too', () => {
    expect(parsePositions('symbol,quantity,currency\rAAPL,1,USD\rKO,2,USD').map((p) => p.line)).toEqual([2, 3]);
  });

  it('leaves the last columns empty on a short row: EUR,2500.75,EUR under four columns', () => {
    expect(parsePositions('symbol,quantity,currency,cost\nEUR,2500.75,EUR\n')).toEqual([{ symbol: 'EUR', quantity: '2500.75', currency: 'EUR', line: 2 }]);
  });

  it('gives a position without a currency the default currency, and only then', () => {
    const text = 'symbol,quantity,currency\nAAPL,10,\nVOD.L,5,GBp\n';
    expect(parsePositions(text, { defaultCurrency: 'USD' }).map((p) => p.currency)).toEqual(['USD', 'GBp']);
    const error = catchError(() => parsePositions(text, { source: 'p.csv' }));
    expect(error.message).toBe('p.csv, line 2: AAPL has no currency, and no default currency was given');
    expect(error).toMatchObject({ reason: 'no-currency', source: 'p.csv', line: 2, field: 'currency' });
  });
});

describe('parsePositions: TSV and JSON', () => {
  it('reads TSV, quoted fields included', () => {
    expect(parsePositions('symbol\tquantity\tcurrency\nAAPL\t10\tUSD\n"SAP.DE"\t"2.5"\tEUR\n')).toEqual([
      { symbol: 'AAPL', quantity: '10', currency: 'USD', line: 2 },
      { symbol: 'SAP.DE', quantity: '2.5', currency: 'EUR', line: 3 },
    ]);
  });

  it('reads JSON numbers and strings digit for digit', () => {
    const text = '[{"symbol": "AAPL", "quantity": 10, "currency": "USD", "cost": 200.50},\n {"symbol": "X", "quantity": "1.084150000000000001", "currency": "EUR", "cost": null},\n {"symbol": "Y", "quantity": 1e3, "currency": null}]';
    // Each with the line it starts on, as a delimited file's positions have theirs.
    expect(parsePositions(text, { defaultCurrency: 'JPY' })).toEqual([
      { symbol: 'AAPL', quantity: '10', currency: 'USD', cost: '200.50', line: 1 },
      { symbol: 'X', quantity: '1.084150000000000001', currency: 'EUR', line: 2 },
      { symbol: 'Y', quantity: '1e3', currency: 'JPY', line: 3 },
    ]);
  });

  it('takes objects as a program or an MCP tool passes them, numbers as text or exact JsonNumbers', () => {
    const objects = parseJsonExact('[{"symbol": "AAPL", "quantity": 0.1, "currency": "USD"}]') as unknown[];
    expect((objects[0] as { quantity: unknown }).quantity).toBeInstanceOf(JsonNumber);
    expect(positionsFromObjects(objects)).toEqual([{ symbol: 'AAPL', quantity: '0.1', currency: 'USD' }]);
    expect(positionsFromObjects([{ symbol: 'AAPL', quantity: 10, currency: 'USD', cost: '1.5' }])).toEqual([{ symbol: 'AAPL', quantity: '10', currency: 'USD', cost: '1.5' }]);
    // A JavaScript number that is not a safe integer may already have lost digits: refused, not guessed.
    const error = catchError(() => positionsFromObjects([{ symbol: 'AAPL', quantity: 0.1, currency: 'USD' }]));
    expect(error.message).toMatch(/^position 1: quantity 0.1 is a JavaScript number that is not a safe integer/);
    expect(error.hint).toMatch(/decimal string/);
    expect(() => positionsFromObjects([{ symbol: 'AAPL', quantity: 2 ** 53, currency: 'USD' }])).toThrow(/not a safe integer/);
  });

  it.each([
    ['a.json', 'symbol,quantity', 'json'],
    ['a.CSV', '[', 'csv'],
    ['a.tsv', 'symbol,quantity', 'tsv'],
    ['positions', '  \n [ {"symbol": "A"} ]', 'json'],
    ['positions.txt', '{"symbol": "A"}', 'json'],
    [undefined, '\uFEFFsymbol\tquantity\nA\t1', 'tsv'],
    [undefined, '\n\nsymbol,quantity\tcurrency\n', 'tsv'],
    [undefined, '\n\nsymbol,quantity\nA\t1\n', 'csv'],
    [undefined, 'symbol,quantity\nA\t1,2', 'csv'],
    ['-', 'symbol;quantity', 'csv'],
  ] as const)('detects %s holding %j as %s', (name, text, format) => {
    expect(detectPositionsFormat(text, name)).toBe(format);
  });

  it('lets the caller say the format whatever the name', () => {
    expect(parsePositions('symbol\tquantity\tcurrency\nA\t1\tUSD', { source: 'x.csv', format: 'tsv' })).toEqual([{ symbol: 'A', quantity: '1', currency: 'USD', line: 2 }]);
  });
});

/** The error `run` throws, which must be a PositionsError (an OptionsError: exit 2 in the CLI). */
function catchError(run: () => unknown): PositionsError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(PositionsError);
    expect(error).toBeInstanceOf(OptionsError);
    return error as PositionsError;
  }
  throw new Error('expected a PositionsError');
}

describe('parsePositions refuses a bad file, naming it and the line', () => {
  const header = 'symbol,quantity,currency,cost\n';
  it.each([
    ['an empty file', '', 'p.csv: is empty: no header and no positions', { reason: 'empty' }],
    ['only white space and a byte-order mark', '\uFEFF \r\n\t\n', 'p.csv: is empty: no header and no positions', { reason: 'empty' }],
    ['a header and no rows', header, 'p.csv: holds no positions', { reason: 'empty' }],
    ['a quantity such as abc', `${header}AAPL,10,USD\nKO,abc,USD\n`, 'p.csv, line 3: quantity "abc" is not a decimal number', { reason: 'value', line: 3, field: 'quantity', value: 'abc' }],
    ['a quantity badly grouped in thousands', `${header}AAPL,"1,00",USD\n`, 'p.csv, line 2: quantity "1,00" is not a decimal number: its thousands are not grouped in threes', { line: 2 }],
    ['a quantity with a plus sign', `${header}AAPL,+10,USD\n`, 'p.csv, line 2: quantity "+10" is not a decimal number', { line: 2 }],
    ['an empty quantity', `${header}AAPL,,USD\n`, 'p.csv, line 2: no quantity', { field: 'quantity' }],
    ['an empty symbol', `${header},1,USD\n`, 'p.csv, line 2: no symbol', { field: 'symbol' }],
    ['a cost such as 1.2.3', `${header}AAPL,1,USD,1.2.3\n`, 'p.csv, line 2: cost "1.2.3" is not a decimal number', { field: 'cost' }],
    ['a symbol with a space', `${header}"A B",1,USD\n`, 'p.csv, line 2: symbol "A B" is not a symbol: 1 to 32 visible ASCII characters, no spaces', { field: 'symbol' }],
    ['a symbol with a control character', `${header}"A\u001b[31m",1,USD\n`, 'p.csv, line 2: symbol "A\\u001b[31m" is not a symbol: 1 to 32 visible ASCII characters, no spaces', {}],
    ['a lower-case currency', `${header}AAPL,1,usd\n`, /^p\.csv, line 2: currency "usd" is not a currency code: codes are case-sensitive .*did you mean USD\?$/, { field: 'currency', value: 'usd' }],
    ['a currency nobody issues', `${header}AAPL,1,XYZ\n`, /^p\.csv, line 2: currency "XYZ" is not an ISO 4217 currency code/, {}],
    ['a header without symbol', 'instrument,quantity\nAAPL,1\n', 'p.csv, line 1: the header has no symbol column (it has instrument, quantity)', { reason: 'header', line: 1 }],
    ['a header without quantity', 'symbol,currency\nAAPL,USD\n', 'p.csv, line 1: the header has no quantity column (it has symbol, currency)', { reason: 'header' }],
    ['a duplicate column', 'symbol,quantity,Symbol,currency\nA,1,B,USD\n', 'p.csv, line 1: the header names symbol twice: "symbol" and "Symbol"', { reason: 'header' }],
    ['no line that names a symbol and a quantity', 'AAPL,1,USD\nKO,2,USD\n', 'p.csv: has no header: no line names a symbol and a quantity column (the first line is "AAPL,1,USD")', { reason: 'header' }],
    ['a row with more cells than the header', `${header}AAPL,1,USD,2,3\n`, 'p.csv, line 2: has 5 fields, the header 4', { reason: 'cells', line: 2 }],
    ['a quote never closed', `${header}AAPL,1,USD\n"KO,2,USD\nX,3,USD\n`, 'p.csv, line 3: a quoted field opened on line 3 is never closed', { reason: 'syntax', line: 3 }],
    ['text after a closing quote', `${header}"AA"PL,1,USD\n`, /^p\.csv, line 2: has text after a closing quote/, { reason: 'syntax', line: 2 }],
    ['a quote inside an unquoted field', `${header}AA"PL,1,USD\n`, /^p\.csv, line 2: has a double quote inside an unquoted field/, { reason: 'syntax', line: 2 }],
  ])('%s', (_name, text, message, facts) => {
    const error = catchError(() => parsePositions(text, { source: 'p.csv' }));
    if (typeof message === 'string') expect(error.message).toBe(message);
    else expect(error.message).toMatch(message);
    expect(error).toMatchObject({ name: 'PositionsError', code: 'INVALID_OPTIONS', source: 'p.csv', ...facts });
  });

  it.each([
    ['JSON with a syntax error', '[\n  {"symbol": "AAPL", "quantity": 1,}\n]', /^p\.json, line 2: is not valid JSON: not valid JSON at position \d+$/, { reason: 'syntax', line: 2 }],
    ['JSON that is an object', '{"symbol": "AAPL", "quantity": 1}', /^p\.json: is JSON, but not an array of positions/, { reason: 'syntax' }],
    ['an empty JSON array', '[]', 'p.json: holds no positions', { reason: 'empty' }],
    ['an element that is not an object', '[{"symbol": "A", "quantity": 1, "currency": "USD"}, 5]', 'p.json, position 2 (line 1): is not an object such as {"symbol": "AAPL", "quantity": "10"}', { item: 2 }],
    ['a member twice in two cases', '[{"symbol": "A", "Symbol": "B", "quantity": 1, "currency": "USD"}]', 'p.json, position 1 (line 1): names symbol twice: "symbol" and "Symbol"', { item: 1 }],
    ['a member twice with different values', '[{"symbol": "A", "symbol": "B", "quantity": 1}]', /^p\.json, line 1: is not valid JSON: a member name appears twice/, { reason: 'syntax' }],
    ['a quantity that is true', '[{"symbol": "A", "quantity": true, "currency": "USD"}]', 'p.json, position 1 (line 1): quantity must be a decimal number or a string holding one, not boolean', { field: 'quantity' }],
    ['a quantity such as abc', '[{"symbol": "A", "quantity": "abc", "currency": "USD"}]', 'p.json, position 1 (line 1): quantity "abc" is not a decimal number', { item: 1, value: 'abc' }],
    ['a symbol that is a number', '[{"symbol": 7203, "quantity": 1, "currency": "JPY"}]', 'p.json, position 1 (line 1): symbol must be a string, not a number', { field: 'symbol' }],
    ['no currency and no default', '[{"symbol": "A", "quantity": 1}]', 'p.json, position 1 (line 1): A has no currency, and no default currency was given', { reason: 'no-currency', item: 1 }],
  ])('%s', (_name, text, message, facts) => {
    const error = catchError(() => parsePositions(text, { source: 'p.json' }));
    if (typeof message === 'string') expect(error.message).toBe(message);
    else expect(error.message).toMatch(message);
    expect(error).toMatchObject({ source: 'p.json', ...facts });
  });

  it(`refuses more than ${MAX_POSITIONS_FILE_BYTES / 1024 / 1024} MiB, counted in bytes`, () => {
    const row = 'SYN00001,1,USD\n';
    const rows = Math.ceil(MAX_POSITIONS_FILE_BYTES / row.length);
    const text = `symbol,quantity,currency\n${row.repeat(rows)}`;
    const error = catchError(() => parsePositions(text, { source: 'big.csv' }));
    expect(error.message).toBe('big.csv: is larger than 16 MiB, the most positions text read');
    expect(error.reason).toBe('too-large');
    // Characters are not bytes: 'é' is two.
    const wide = `symbol,quantity\n#,1\n${'é'.repeat(MAX_POSITIONS_FILE_BYTES / 2)}`;
    expect(catchError(() => parsePositions(wide)).reason).toBe('too-large');
  });

  it('refuses a default currency that is not one before reading a row', () => {
    const error = catchError(() => parsePositions('symbol,quantity\nAAPL,1\n', { defaultCurrency: 'dollars' }));
    expect(error.message).toMatch(/^the default currency "dollars" is not an ISO 4217/);
  });
});
