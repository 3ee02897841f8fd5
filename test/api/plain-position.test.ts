// plainPosition, the shortcut for the common row of a delimited file, reads no row otherwise than
// positionOf (the reader's add): where it gives a position, it is the one the record gives; where it
// gives none, the row is one the record path reads in full (and says what is wrong with).
import { describe, expect, it } from 'vitest';
import { plainPosition, positionReader, type Position } from '../../src/api/positions.js';
import { PositionsError } from '../../src/api/positions-error.js';
import type { NumberStyle } from '../../src/api/positions-number.js';

type Cells = [symbol?: string, quantity?: string, currency?: string, cost?: string, costTotal?: string];

const COMMA: NumberStyle = { cell: true, delimiter: ',' };

/** The record path's reading of the same cells: its position, or the first problem's message. */
function recordReading(cells: Cells, style: NumberStyle, defaultCurrency?: string): Position | string {
  const [symbol, quantity, currency, cost, costTotal] = cells;
  const reader = positionReader({ defaultCurrency }, { style });
  reader.add({ values: { symbol, quantity, currency, cost, cost_total: costTotal }, line: 7 });
  try {
    return reader.finish()[0]!;
  } catch (error) {
    if (!(error instanceof PositionsError)) throw error;
    return error.problems[0]!.message;
  }
}

function plainReading(cells: Cells, style: NumberStyle, defaultCurrency?: string): Position | undefined {
  const [symbol, quantity, currency, cost, costTotal] = cells;
  return plainPosition(symbol, quantity, currency, cost, costTotal, 7, style, defaultCurrency);
}

describe('plainPosition', () => {
  it.each<[string, Cells, NumberStyle, string | undefined, Position]>([
    ['a lot with a cost', ['AAPL', '150', 'USD', '180.25'], COMMA, undefined, { symbol: 'AAPL', quantity: '150', currency: 'USD', cost: '180.25', line: 7 }],
    ['a lot with its total cost', ['AAPL', '-20', 'USD', undefined, '4600.00'], COMMA, undefined, { symbol: 'AAPL', quantity: '-20', currency: 'USD', cost_total: '4600.00', line: 7 }],
    ['no cost, an empty cell', ['VOD', '10000', 'GBX', ''], COMMA, undefined, { symbol: 'VOD', quantity: '10000', currency: 'GBX', line: 7 }],
    ['a cost of --', ['SAP', '35.5', 'EUR', '--'], COMMA, undefined, { symbol: 'SAP', quantity: '35.5', currency: 'EUR', line: 7 }],
    ['no currency cell, the default', ['NESN', '12', undefined], COMMA, 'CHF', { symbol: 'NESN', quantity: '12', currency: 'CHF', line: 7 }],
    ['a currency of N/A, the default', ['NESN', '12', 'N/A'], COMMA, 'CHF', { symbol: 'NESN', quantity: '12', currency: 'CHF', line: 7 }],
    ['thousands grouped', ['TOYOTA', '1,300', 'JPY', '2,500.5'], COMMA, undefined, { symbol: 'TOYOTA', quantity: '1300', currency: 'JPY', cost: '2500.5', line: 7 }],
    ['a short in parentheses', ['AAPL', '(20)', 'USD'], COMMA, undefined, { symbol: 'AAPL', quantity: '-20', currency: 'USD', line: 7 }],
    ['decimal commas', ['SAP', '1.000,50', 'EUR', '150,25'], { cell: true, delimiter: ';', decimalComma: true }, undefined, { symbol: 'SAP', quantity: '1000.50', currency: 'EUR', cost: '150.25', line: 7 }],
  ])('%s: the position the record gives', (_name, cells, style, defaultCurrency, expected) => {
    expect(plainReading(cells, style, defaultCurrency)).toEqual(expected);
    expect(recordReading(cells, style, defaultCurrency)).toEqual(expected);
  });

  it.each<[string, Cells, NumberStyle, string | undefined, string]>([
    ['no symbol', ['', '10', 'USD'], COMMA, undefined, 'no symbol'],
    ['a symbol of N/A', ['N/A', '10', 'USD'], COMMA, undefined, 'no symbol'],
    ['a symbol that starts a formula', ['=cmd', '10', 'USD'], COMMA, undefined, 'is not a symbol'],
    ['no quantity', ['AAPL', '', 'USD'], COMMA, undefined, 'no quantity'],
    ['a quantity with a currency sign', ['AAPL', '$10', 'USD'], COMMA, undefined, 'currency sign'],
    ['a cost that is no number', ['AAPL', '10', 'USD', 'abc'], COMMA, undefined, 'is not a decimal number'],
    ['both costs', ['AAPL', '10', 'USD', '1', '10'], COMMA, undefined, 'gives both'],
    ['a currency in lower case', ['AAPL', '10', 'usd'], COMMA, undefined, 'case-sensitive'],
    ['no currency and no default', ['AAPL', '10', undefined], COMMA, undefined, 'no currency'],
    ['1.000 in a ;-separated file', ['SAP', '1.000', 'EUR'], { cell: true, delimiter: ';' }, undefined, 'thousands grouped with points'],
    ['a quantity of 101 digits', ['AAPL', '1'.repeat(101), 'USD'], COMMA, undefined, 'significant digits'],
  ])('%s: none, and the record says what is wrong', (_name, cells, style, defaultCurrency, problem) => {
    expect(plainReading(cells, style, defaultCurrency)).toBeUndefined();
    expect(recordReading(cells, style, defaultCurrency)).toContain(problem);
  });
});
