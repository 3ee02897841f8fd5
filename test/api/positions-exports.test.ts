// Positions files as brokers and banks export them (issue 35 items 1 to 5): the header found after
// title lines, the delimiter from it, columns mapped or ignored and said so, grouped thousands,
// decimal commas and (20), totals and notes skipped, every problem at once, other encodings. The
// library gives its warnings as data (onWarning) and its problems as PositionsError.problems.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { OptionsError } from '../../src/api/errors.js';
import { COLUMN_SYNONYMS } from '../../src/api/positions-columns.js';
import { PositionsError } from '../../src/api/positions-error.js';
import { parsePositions, type ParsePositionsOptions } from '../../src/api/positions-text.js';
import { checkPositions, positionsFromObjects, type PositionsWarning } from '../../src/api/positions.js';
import {
  EURO_BANK, EURO_BANK_POSITIONS, EXCEL_UTF16LE, EXTRA_COLUMNS, FIDELITY, FIDELITY_POSITIONS, GERMAN_EXCEL_CP1252, IBKR_FLEX, SCHWAB, SCHWAB_POSITIONS, UK_EXCEL_CP1252,
} from '../helpers/broker-exports.js';
import { ROOT } from '../helpers/bin.js';

/** parsePositions with its warnings collected. */
function read(input: string | Uint8Array, options: ParsePositionsOptions = {}) {
  const warnings: PositionsWarning[] = [];
  const positions = parsePositions(input, { source: 'p.csv', ...options, onWarning: (warning) => warnings.push(warning) });
  return { positions, warnings, codes: warnings.map((warning) => warning.code) };
}

/** The PositionsError `run` throws. */
function refused(run: () => unknown): PositionsError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(PositionsError);
    return error as PositionsError;
  }
  throw new Error('expected a PositionsError');
}

const warning = (warnings: PositionsWarning[], code: PositionsWarning['code']) => warnings.find((w) => w.code === code);

describe('a broker\'s export as it comes', () => {
  it('Schwab: the title and blank line skipped, the header found, quoted fields, "1,250" and (20) read, $ columns ignored, the cash and total rows skipped', () => {
    const { positions, warnings, codes } = read(SCHWAB, { defaultCurrency: 'USD' });
    expect(positions).toEqual(SCHWAB_POSITIONS.map(([symbol, quantity], i) => ({ symbol, quantity, currency: 'USD', line: 4 + i })));
    expect(codes).toEqual(['skipped_lines', 'ignored_columns', 'skipped_rows']);
    expect(warning(warnings, 'skipped_lines')).toEqual({ code: 'skipped_lines', message: 'skipped 2 lines before the header on line 3', lines: [1, 2] });
    expect(warning(warnings, 'ignored_columns')).toMatchObject({
      message: 'ignored columns: Description, Price, Mkt Val (Market Value), Cost Basis, Gain $ (Gain/Loss $), Security Type',
      columns: ['Description', 'Price', 'Mkt Val (Market Value)', 'Cost Basis', 'Gain $ (Gain/Loss $)', 'Security Type'],
      // Never guessed: a total in Schwab's file, per unit in others'.
      costColumns: ['Cost Basis'],
      hint: expect.stringContaining('"Cost Basis" may be a cost per unit or the lot\'s total'),
    });
    expect(warning(warnings, 'skipped_rows')).toEqual({
      code: 'skipped_rows', message: 'skipped 2 rows with no quantity that are totals or notes: line 7 (Cash & Cash Investments), line 8 (Account Total)',
      lines: [7, 8], labels: ['Cash & Cash Investments', 'Account Total'],
    });
  });

  it('Schwab with its Cost Basis mapped to cost_total: each $ amount refused, all of them at once, naming the sign', () => {
    const error = refused(() => read(SCHWAB, { defaultCurrency: 'USD', columns: { cost_total: 'cost basis' } }));
    expect(error.problemCount).toBe(2);
    expect(error.problems).toEqual([
      expect.objectContaining({ line: 4, field: 'cost_total', value: '$15,025.00', option: 'columns', message: 'cost_total "$15,025.00" has a currency sign ($): a number is read alone, and its currency from the currency column' }),
      expect.objectContaining({ line: 5, field: 'cost_total', value: '$400,000.00' }),
    ]);
    expect(error.message).toMatch(/^p\.csv has 2 problems: line 4: cost_total "\$15,025\.00" has a currency sign/);
  });

  it('Fidelity: $ in "Cost Basis Total" refused until it is left out (cost_total=), then the pending activity, empty and disclaimer rows skipped', () => {
    const error = refused(() => read(FIDELITY, { defaultCurrency: 'USD' }));
    expect(error.problems.map((problem) => `${problem.line} ${problem.field} ${problem.value}`)).toEqual(['2 cost_total $1502.50', '3 cost_total $3750.00']);
    const { positions, warnings } = read(FIDELITY, { defaultCurrency: 'USD', columns: { cost_total: '' } });
    expect(positions).toEqual(FIDELITY_POSITIONS.map(([symbol, quantity], i) => ({ symbol, quantity, currency: 'USD', line: 2 + i })));
    // Left out on purpose, so not offered for mapping; Average Cost Basis is offered.
    expect(warning(warnings, 'ignored_columns')).toMatchObject({ costColumns: ['Average Cost Basis'] });
    expect(warning(warnings, 'ignored_columns')!.columns).toContain('Cost Basis Total');
    expect(warning(warnings, 'skipped_rows')).toMatchObject({ lines: [4, 6, 7] });
    expect(warning(warnings, 'skipped_rows')!.message).toBe(
      'skipped 3 rows with no quantity that are totals or notes: line 4 (Pending Activity), line 6 (The data and information in this spreads…), line 7 (Date downloaded Jan-06-2025 9:30 a.m ET)',
    );
  });

  it('Interactive Brokers: its currency and cost columns by --columns, per unit or per lot', () => {
    const perUnit = read(IBKR_FLEX, { columns: { currency: 'CurrencyPrimary', cost: 'CostBasisPrice' } }).positions;
    expect(perUnit).toEqual([
      { symbol: 'AAPL', quantity: '100', currency: 'USD', cost: '150.25', line: 2 },
      { symbol: 'SAP.DE', quantity: '20', currency: 'EUR', cost: '180.5', line: 3 },
      { symbol: 'RY.TO', quantity: '-50', currency: 'CAD', cost: '160', line: 4 },
    ]);
    const perLot = read(IBKR_FLEX, { columns: { currency: 'currencyprimary', cost_total: 'COSTBASISMONEY' } }).positions;
    expect(perLot.map((position) => [position.symbol, position.cost_total, position.cost])).toEqual([['AAPL', '15025', undefined], ['SAP.DE', '3610', undefined], ['RY.TO', '-8000', undefined]]);
    // Unmapped, its camelCase cost columns are offered for mapping; once one is mapped, the other is only ignored.
    const warned: PositionsWarning[] = [];
    refused(() => parsePositions(IBKR_FLEX, { onWarning: (w) => warned.push(w) }));
    expect(warned).toEqual([expect.objectContaining({ code: 'ignored_columns', costColumns: ['CostBasisPrice', 'CostBasisMoney'] })]);
    expect(read(IBKR_FLEX, { columns: { currency: 'CurrencyPrimary', cost: 'CostBasisPrice' } }).warnings[0]!.costColumns).toEqual([]);
    // No currency column and no default: said once, at the header, not for every row.
    const error = refused(() => read(IBKR_FLEX));
    expect(error.problemCount).toBe(1);
    expect(error.message).toBe('p.csv, line 1: the header has no currency column, and no default currency was given');
    expect(error).toMatchObject({ reason: 'no-currency', readOption: 'defaultCurrency' });
  });

  it('a European bank: ; from the header line, title lines skipped, decimal commas read when told, the Summe row skipped', () => {
    const { positions, warnings } = read(EURO_BANK, { decimalComma: true });
    expect(positions).toEqual(EURO_BANK_POSITIONS.map((position, i) => ({ ...position, line: 5 + i })));
    expect(warning(warnings, 'skipped_lines')).toMatchObject({ message: 'skipped 3 lines before the header on line 4' });
    expect(warning(warnings, 'skipped_rows')).toMatchObject({ lines: [8], labels: ['Summe'] });
    expect(warning(warnings, 'ignored_columns')).toMatchObject({ columns: ['Name', 'Market Value'], costColumns: [] });
  });

  it('the same file without --decimal-comma: every ambiguous number refused at once, naming the option; a thousandfold error never passes', () => {
    const error = refused(() => read(EURO_BANK));
    expect(error.problems.map((problem) => `${problem.line} ${problem.field} ${problem.value} ${problem.option}`)).toEqual([
      '5 quantity 1.250 decimalComma', '5 cost 180,50 decimalComma', '6 cost 240,125 decimalComma', '7 quantity 2.500,75 decimalComma',
    ]);
    expect(error.problems[0]!.message).toMatch(/^quantity "1\.250" may be a number with a decimal point or thousands grouped with points/);
    expect(error.problems[1]!.message).toMatch(/^cost "180,50" has a comma, which in a ;-separated file may be a decimal comma/);
    // Told the file writes decimal points: 1.250 is one and a quarter, 240,125 is thousands as the
    // caller says, and 180,50 is badly grouped.
    const points = refused(() => read(EURO_BANK, { decimalComma: false }));
    expect(points.problems.map((problem) => `${problem.line} ${problem.value}`)).toEqual(['5 180,50', '7 2.500,75']);
    expect(points.problems.map((problem) => problem.message)).toEqual([
      'cost "180,50" is not a decimal number: its thousands are not grouped in threes', 'quantity "2.500,75" is not a decimal number',
    ]);
  });

  it('Excel on Windows, CP1252: refused as UTF-8 naming the first byte that is not, read with encoding cp1252, its headers mapped', () => {
    const error = refused(() => read(GERMAN_EXCEL_CP1252, { decimalComma: true }));
    // K, then ü: 0xFC, the second byte.
    expect(error.message).toBe('p.csv, line 1: is not UTF-8 text: byte 2 of the file is 0xFC, which UTF-8 does not allow there');
    expect(error).toMatchObject({ reason: 'encoding', line: 1, value: '0xFC', readOption: 'encoding' });
    const { positions, warnings } = read(GERMAN_EXCEL_CP1252, {
      encoding: 'cp1252', decimalComma: true, columns: { symbol: 'Kürzel', quantity: 'STÜCK', currency: 'Währung', cost: 'Einstandskurs' },
    });
    expect(positions).toEqual([
      { symbol: 'SAP.DE', quantity: '20', currency: 'EUR', cost: '180.50', line: 2 },
      { symbol: '7203.T', quantity: '100', currency: 'JPY', cost: '2800', line: 3 },
    ]);
    expect(warning(warnings, 'ignored_columns')!.columns).toEqual(['Bezeichnung', 'Kurswert (€)']);
    // The British one: its £ in a header that is ignored, the rest read by their synonyms.
    const uk = read(UK_EXCEL_CP1252, { encoding: 'windows-1252' });
    expect(uk.positions).toEqual([
      { symbol: 'VOD.L', quantity: '1000', currency: 'GBX', cost: '70.25', line: 2 },
      { symbol: 'AAPL', quantity: '10', currency: 'USD', cost: '150', line: 3 },
    ]);
    expect(uk.warnings).toEqual([expect.objectContaining({ code: 'ignored_columns', columns: ['Value (£)'] })]);
  });

  it('UTF-16 with a byte-order mark, little- or big-endian, is read whatever the encoding given: the mark decides', () => {
    const expected = [
      { symbol: 'SAP.DE', quantity: '20', currency: 'EUR', cost: '200', line: 2 },
      { symbol: '7203.T', quantity: '100', currency: 'JPY', cost: '2800', line: 3 },
    ];
    expect(read(EXCEL_UTF16LE).positions).toEqual(expected);
    expect(read(EXCEL_UTF16LE, { encoding: 'cp1252' }).positions).toEqual(expected);
    const bigEndian = Buffer.from(EXCEL_UTF16LE);
    bigEndian.swap16();
    expect(bigEndian.subarray(0, 2)).toEqual(Buffer.from([0xfe, 0xff]));
    expect(read(bigEndian).positions).toEqual(expected);
    // Without the mark, UTF-16's zero bytes are NUL characters: refused, saying what it may be.
    const bare = refused(() => read(EXCEL_UTF16LE.subarray(2)));
    expect(bare.message).toBe('p.csv, line 1: holds a NUL character: it may be UTF-16 without a byte-order mark');
    expect(read(EXCEL_UTF16LE.subarray(2), { encoding: 'utf-16le' }).positions).toEqual(expected);
  });

  it('extra columns: read past, named once', () => {
    const { positions, warnings } = read(EXTRA_COLUMNS);
    expect(positions).toEqual([{ symbol: 'AAPL', quantity: '10', currency: 'USD', cost: '200.5', line: 2 }, { symbol: 'KO', quantity: '5', currency: 'USD', line: 3 }]);
    expect(warnings).toEqual([{ code: 'ignored_columns', message: 'ignored columns: account, notes', columns: ['account', 'notes'], costColumns: [] }]);
  });
});

describe('columns', () => {
  it('the names read without a mapping are the README\'s table, field by field', () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const table = readme.slice(readme.indexOf('| field | names read without `--columns` |'));
    const lines = table.split('\n').slice(2);
    const rows = lines.slice(0, lines.indexOf(''));
    const documented = Object.fromEntries(rows.map((row) => {
      const [field, names] = row.split(' | ').map((cell) => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]!));
      return [field![0]!, names!];
    }));
    const read = Object.fromEntries(Object.entries(COLUMN_SYNONYMS).map(([field, synonyms]) => [field, [field, ...synonyms]]));
    expect(documented).toEqual(read);
  });

  it.each([
    ['Ticker,Qty,Ccy,Unit Cost', 'cost'],
    ['ticker symbol;shares;currency code;cost per share', 'cost'],
    ['SYMBOL\tUNITS\tCURRENCY\tCost/Share', 'cost'],
    ['Symbol,Qty (Quantity),Currency,Total Cost', 'cost_total'],
    ['Symbol,Quantity,Currency,Cost Basis Total', 'cost_total'],
    ['symbol,quantity,currency,cost_total', 'cost_total'],
    ['symbol,quantity,currency,  Cost   Total ', 'cost_total'],
    ['Ticker_Symbol,QTY,currency,cost_per_share', 'cost'],
    ['TickerSymbol,Units,CurrencyCode,UnitCost', 'cost'],
  ])('%j: the synonyms that can mean one thing, read without a mapping', (header, costField) => {
    const delimiter = /\t/.test(header) ? '\t' : header.includes(';') ? ';' : ',';
    const { positions } = read(`${header}\nAAPL${delimiter}10${delimiter}USD${delimiter}150\n`);
    expect(positions).toEqual([{ symbol: 'AAPL', quantity: '10', currency: 'USD', [costField]: '150', line: 2 }]);
  });

  it.each(['Cost Basis', 'Avg Cost', 'Average Cost', 'Average Cost Basis', 'Book Cost', 'Cost Price', 'Avg Price', 'Purchase Price', 'Price Paid', 'Book Value'])(
    '%j is a cost per unit or a total: never guessed, ignored, and the warning says how to map it', (name) => {
      const { positions, warnings } = read(`symbol,quantity,currency,${name},Price\nAAPL,10,USD,150,227\n`);
      expect(positions).toEqual([{ symbol: 'AAPL', quantity: '10', currency: 'USD', line: 2 }]);
      expect(warnings).toEqual([expect.objectContaining({ code: 'ignored_columns', columns: [name, 'Price'], costColumns: [name] })]);
      expect(warnings[0]!.hint).toBe(`"${name}" may be a cost per unit or the lot's total, which is never guessed: map one with columns: { cost: "${name}" } (per unit) or { cost_total: "${name}" } (the total)`);
    },
  );

  it('a mapping wins over the names, in any case; a column of a mapped field\'s own name is then ignored; \'\' leaves a field out', () => {
    const text = 'Symbol,Ticker,Quantity,Currency,Cost\nX1,AAPL,10,USD,150\n';
    const mapped = read(text, { columns: { symbol: ' ticker ', cost: '' } });
    expect(mapped.positions).toEqual([{ symbol: 'AAPL', quantity: '10', currency: 'USD', line: 2 }]);
    expect(mapped.warnings[0]!.columns).toEqual(['Symbol', 'Cost']);
    // Unmapped, two columns claim the symbol: neither is guessed.
    const error = refused(() => read(text));
    expect(error.message).toBe('p.csv, line 1: the header names symbol twice: "Symbol" and "Ticker"');
    expect(error).toMatchObject({ reason: 'header', field: 'symbol', readOption: 'columns' });
  });

  it('a mapped header that is not there is refused, naming it and the header the file has', () => {
    const error = refused(() => read('symbol,quantity,currency\nAAPL,1,USD\n', { columns: { cost: 'Avg Cost' } }));
    expect(error.message).toBe('p.csv, line 1: the header has no column "avg cost", which columns maps to cost; it has "symbol", "quantity", "currency"');
    const noHeader = refused(() => read('Ticker,Qty\nAAPL,1\n', { columns: { symbol: 'Instrument' } }));
    expect(noHeader.message).toBe('p.csv, line 1: the header has no symbol column (it has Ticker, Qty)');
    const nothing = refused(() => read('Positions as of today\nInstrument,Amount\nAAPL,1\n'));
    expect(nothing.message).toBe('p.csv: has no header: no line names a symbol and a quantity column (the first line is "Positions as of today")');
  });

  it('a mapping naming a field a position does not have, or one column for two fields, is an OptionsError before anything is read', () => {
    expect(() => read('x', { columns: { price: 'Price' } as never })).toThrow(new OptionsError('INVALID_OPTIONS', 'columns names a field "price" that a position does not have; the fields are symbol, quantity, currency, cost, cost_total', { option: 'columns' }));
    expect(() => read('x', { columns: { cost: 'Cost Basis', cost_total: 'cost basis' } })).toThrow(/^columns maps both cost and cost_total to "cost basis"; a column holds one field$/);
    expect(() => read('x', { columns: 'symbol=Ticker' as never })).toThrow(/^columns must map fields to column names/);
  });

  it('JSON members: mapped and ignored as columns are, snake_case as spaces', () => {
    const warnings: PositionsWarning[] = [];
    const objects = [{ Ticker: 'AAPL', Shares: '10', currency: 'USD', account: 'IRA', avg_cost: '150' }, { Ticker: 'KO', Shares: 5, currency: 'USD', note: 'x', unit_cost: '60.5' }];
    const positions = positionsFromObjects(objects, { onWarning: (w) => warnings.push(w) });
    expect(positions).toEqual([{ symbol: 'AAPL', quantity: '10', currency: 'USD' }, { symbol: 'KO', quantity: '5', currency: 'USD', cost: '60.5' }]);
    expect(warnings).toEqual([{
      code: 'ignored_columns', message: 'ignored members: account, avg_cost, note', columns: ['account', 'avg_cost', 'note'], costColumns: ['avg_cost'], hint: expect.stringContaining('"avg_cost" may be a cost per unit'),
    }]);
  });

  it('the delimiter is the header line\'s: the one that names a symbol and a quantity, with the most columns', () => {
    expect(read('symbol;quantity;currency\nAAPL;1,5;USD\n', { decimalComma: true }).positions[0]!.quantity).toBe('1.5');
    expect(read('Report, 6 January\nsymbol\tquantity\tcurrency\nAAPL\t1\tUSD\n').positions).toEqual([{ symbol: 'AAPL', quantity: '1', currency: 'USD', line: 3 }]);
    // A title with a stray quote is not the header, nor an error.
    expect(read('Holdings at 5" past\nsymbol,quantity,currency\nAAPL,1,USD\n').positions).toHaveLength(1);
  });

  it('rows between account blocks: titles, the header again and subtotals skipped, named; a position without a quantity is still an error', () => {
    const text = [
      'Account,Symbol,Quantity,Currency', 'IRA,AAPL,10,USD', 'IRA Subtotal,,,', 'Account: Taxable', 'Account,Symbol,Quantity,Currency', 'Taxable,KO,5,USD', 'Total,,,', '',
    ].join('\n');
    const { positions, warnings } = read(text);
    expect(positions.map((p) => `${p.symbol} ${p.line}`)).toEqual(['AAPL 2', 'KO 6']);
    expect(warning(warnings, 'skipped_rows')).toMatchObject({ lines: [3, 4, 5, 7], labels: ['IRA Subtotal', 'Account: Taxable', 'the header again', 'Total'] });
    const error = refused(() => read('symbol,quantity,currency\nAAPL,,USD\nKO,--,USD\n'));
    expect(error.problems.map((p) => `${p.line} ${p.message}`)).toEqual(['2 no quantity', '3 no quantity']);
  });
});

describe('numbers as files write them', () => {
  it.each([
    ['"1,000"', '1000'], ['"12,345.50"', '12345.50'], ['"-1,000,000.25"', '-1000000.25'], ['(20)', '-20'], ['"(1,234.50)"', '-1234.50'],
    ['1 000', '1000'], ['1\u00a0000.5', '1000.5'], ['1\u202f000', '1000'], ['0.25', '0.25'], ['1e6', '1e6'], ['-2.5E-3', '-2.5E-3'],
  ])('%s reads %s', (cell, value) => {
    expect(read(`symbol,quantity,currency\nAAPL,${cell},USD\n`).positions[0]!.quantity).toBe(value);
  });

  it.each([
    ['1.000,50', '1000.50'], ['0,25', '0.25'], ['1.000', '1000'], ['(2,5)', '-2.5'], ['1 000,5', '1000.5'], ['12', '12'], ['1,5e3', '1.5e3'],
  ])('with decimal commas, %s reads %s', (cell, value) => {
    expect(read(`symbol;quantity;currency\nAAPL;${cell};USD\n`, { decimalComma: true }).positions[0]!.quantity).toBe(value);
  });

  it('a cost of --, N/A or nothing is no cost', () => {
    const { positions } = read('symbol,quantity,currency,cost\nA,1,USD,--\nB,1,USD,N/A\nC,1,USD,\nD,1,USD,n/a\nE,1,USD, - \n');
    expect(positions.every((position) => !('cost' in position))).toBe(true);
  });

  it.each([
    ['"1,00"', 'quantity "1,00" is not a decimal number: its thousands are not grouped in threes', 'decimalComma'],
    ['"1,0000"', 'quantity "1,0000" is not a decimal number: its thousands are not grouped in threes', 'decimalComma'],
    ['"12,34,567"', 'quantity "12,34,567" is not a decimal number: its thousands are not grouped in threes', 'decimalComma'],
    ['"1.000,50"', 'quantity "1.000,50" is not a decimal number', 'decimalComma'],
    ['+10', 'quantity "+10" is not a decimal number', undefined],
    ['(-20)', 'quantity "(-20)" is not a decimal number', undefined],
    ['007', 'quantity "007" is not a decimal number', undefined],
    ['"$1,000"', 'quantity "$1,000" has a currency sign ($): a number is read alone, and its currency from the currency column', 'columns'],
    ['€5', 'quantity "€5" has a currency sign (€): a number is read alone, and its currency from the currency column', 'columns'],
    ['1e9999', 'quantity "1e9999" is too large: 10000 digits before the point; at most 100 are read', undefined],
    [`1${'0'.repeat(100)}`, `quantity "1${'0'.repeat(39)}…" is too large: 101 digits before the point; at most 100 are read`, undefined],
    [`0.${'1'.repeat(101)}`, `quantity "0.${'1'.repeat(38)}…" has 101 significant digits; at most 100 are read`, undefined],
  ])('%s is refused: %s', (cell, message, option) => {
    const error = refused(() => read(`symbol,quantity,currency\nAAPL,${cell},USD\n`));
    expect(error.message).toBe(`p.csv, line 2: ${message}`);
    expect(error.readOption).toBe(option);
  });

  it('JSON numbers are JSON\'s, and as bounded: 1e9999 is too large, not "not a decimal"', () => {
    const huge = refused(() => read('[{"symbol": "AAPL", "quantity": 1e9999, "currency": "USD"}]', { source: 'p.json' }));
    expect(huge.message).toBe('p.json, position 1 (line 1): quantity "1e9999" is too large: 10000 digits before the point; at most 100 are read');
    const grouped = refused(() => read('[{"symbol": "AAPL", "quantity": "1,000", "currency": "USD"}]', { source: 'p.json' }));
    expect(grouped.message).toBe('p.json, position 1 (line 1): quantity "1,000" is not a decimal number');
    // Within the bounds, any exponent JSON allows.
    expect(read('[{"symbol": "AAPL", "quantity": 1e0002, "currency": "USD"}]', { source: 'p.json' }).positions[0]!.quantity).toBe('1e0002');
  });
});

describe('every problem at once', () => {
  it('the first 20 listed with their lines, the rest counted; the header\'s and the rows\' together', () => {
    const rows = Array.from({ length: 25 }, (_, i) => `S${i},x${i},USD`);
    const error = refused(() => read(`symbol,quantity,currency,symbol\n${rows.join('\n')}\n`));
    expect(error.problemCount).toBe(26);
    expect(error.problems).toHaveLength(20);
    expect(error.problems[0]).toMatchObject({ reason: 'header', line: 1, message: 'the header names symbol twice: "symbol" and "symbol"' });
    expect(error.problems.slice(1).map((problem) => problem.line)).toEqual(Array.from({ length: 19 }, (_, i) => i + 2));
    expect(error.message).toMatch(/^p\.csv has 26 problems: line 1: the header names symbol twice: "symbol" and "symbol"; line 2: quantity "x0" is not a decimal number; .*; line 20: quantity "x18" is not a decimal number; and 6 more$/);
    // The first problem's facts are the error's own, as a single problem's are.
    expect(error).toMatchObject({ reason: 'header', line: 1, field: 'symbol' });
  });

  it('each field of a row: a bad symbol, quantity and currency are three problems of one line', () => {
    const error = refused(() => read('symbol,quantity,currency,cost\n"A B",abc,usd,1.2.3\nOK,1,USD\n'));
    expect(error.problems.map((problem) => `${problem.line} ${problem.field}`)).toEqual(['2 symbol', '2 quantity', '2 cost', '2 currency']);
  });

  it('a JSON file\'s, each with its position and the line it starts on', () => {
    const text = '[\n  {"symbol": "AAPL", "quantity": "abc", "currency": "USD"},\n  5,\n  {"symbol": "KO",\n   "quantity": 1}\n]';
    const error = refused(() => read(text, { source: 'p.json' }));
    expect(error.problems.map((problem) => ({ item: problem.item, line: problem.line, message: problem.message }))).toEqual([
      { item: 1, line: 2, message: 'quantity "abc" is not a decimal number' },
      { item: 2, line: 3, message: 'is not an object such as {"symbol": "AAPL", "quantity": "10"}' },
      { item: 3, line: 4, message: 'KO has no currency, and no default currency was given' },
    ]);
    expect(read(text.replace('"abc"', '1').replace('  5,\n', ''), { source: 'p.json', defaultCurrency: 'USD' }).positions.map((p) => p.line)).toEqual([2, 3]);
  });
});

describe('cost_total', () => {
  it('a lot\'s total cost, kept as written beside the quantity; a row giving both costs is a problem', () => {
    expect(read('symbol,quantity,currency,cost_total\nAAPL,3,USD,450.10\n').positions).toEqual([{ symbol: 'AAPL', quantity: '3', currency: 'USD', cost_total: '450.10', line: 2 }]);
    const both = refused(() => read('symbol,quantity,currency,cost,cost_total\nAAPL,3,USD,150,450.10\nKO,1,USD,,70\nJPM,1,USD,200,\n'));
    expect(both.problems).toEqual([expect.objectContaining({ line: 2, field: 'cost_total', message: 'gives both a cost per unit (150) and a total cost (450.10); a position has one' })]);
  });

  it('checkPositions, for positions a program passes: cost_total a decimal, not beside a cost, and numbers within the bounds', () => {
    expect(() => checkPositions([{ symbol: 'AAPL', quantity: '3', currency: 'USD', cost_total: '450.10' }])).not.toThrow();
    expect(() => checkPositions([{ symbol: 'AAPL', quantity: '3', currency: 'USD', cost_total: 450 }])).toThrow(/^position 1: cost_total must be a string holding a decimal number/);
    expect(() => checkPositions([{ symbol: 'AAPL', quantity: '3', currency: 'USD', cost: '1', cost_total: '3' }])).toThrow('position 1: has both cost and cost_total; a position has one');
    expect(() => checkPositions([{ symbol: 'AAPL', quantity: '1e9999', currency: 'USD' }])).toThrow('position 1: quantity "1e9999" is too large: 10000 digits before the point; at most 100 are read');
  });
});

describe('encodings and shapes, named', () => {
  it('the first byte that is not UTF-8, past a U+FFFD written in the file, with its line', () => {
    const bytes = Buffer.concat([Buffer.from('symbol,quantity,currency\nAAPL,1,USD\n\ufffd,1,USD\nX'), Buffer.from([0xe9]), Buffer.from(',1,USD\n')]);
    const error = refused(() => read(bytes));
    const at = bytes.indexOf(0xe9);
    expect(error.message).toBe(`p.csv, line 4: is not UTF-8 text: byte ${at + 1} of the file is 0xE9, which UTF-8 does not allow there`);
  });

  it('an encoding the platform does not know, or one given with a string, is an OptionsError', () => {
    expect(() => read(Buffer.from('symbol,quantity\n'), { encoding: 'klingon' })).toThrow(/^encoding "klingon" is not one this platform can decode$/);
    expect(() => read('symbol,quantity\n', { encoding: 'cp1252' })).toThrow(/^encoding applies to bytes/);
  });

  it('JSON nested deeper than mkt reads says so, with the line, before the parser recurses; 64 levels are read', () => {
    const deep = refused(() => read(`[\n${'['.repeat(5000)}${']'.repeat(5000)}]`, { source: 'p.json' }));
    expect(deep.message).toBe('p.json, line 2: is JSON nested more than 64 levels deep, deeper than positions are read (an array of positions is 2 levels)');
    const nested = `{"a":${'['.repeat(61)}${']'.repeat(61)}}`;
    const { positions, warnings } = read(`[{"symbol": "AAPL", "quantity": 1, "currency": "USD", "extra": ${nested}}]`, { source: 'p.json' });
    expect(positions).toEqual([{ symbol: 'AAPL', quantity: '1', currency: 'USD', line: 1 }]);
    expect(warnings[0]).toMatchObject({ code: 'ignored_columns', columns: ['extra'] });
    expect(() => read(`[{"x": {"a":${'['.repeat(62)}${']'.repeat(62)}}}]`, { source: 'p.json' })).toThrow(/nested more than 64 levels/);
  });
});
