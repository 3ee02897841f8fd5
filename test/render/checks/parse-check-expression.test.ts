// The text of a check, read into symbol, field, operator and value: the forms people type, and the
// ones refused with a message that names the flag and the expression.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/shared/errors.js';
import { parseCheckExpression, quoteSymbol } from '../../../src/render/checks/parse-check-expression.js';

/** The usage error parseCheckExpression refuses `text` with, as --until's. */
function refusal(text: string): UsageError {
  let caught: unknown;
  try {
    parseCheckExpression(text, '--until');
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(UsageError);
  return caught as UsageError;
}

describe('parseCheckExpression: what it reads', () => {
  it.each([
    ['EURUSD.bid > 1.0841500000000000009', 'EURUSD', 'bid', '>', '1.0841500000000000009'],
    ['spread <= 0.000020000000000002', undefined, 'spread', '<=', '0.000020000000000002'],
    ['eurusd.BID<1', 'EURUSD', 'bid', '<', '1'],
    ['  EURUSD.ask>=2  ', 'EURUSD', 'ask', '>=', '2'],
    ['EURUSD.mid   ==   1.08', 'EURUSD', 'mid', '==', '1.08'],
    ['EURUSD.mid != 1.08', 'EURUSD', 'mid', '!=', '1.08'],
    ['age < 30s', undefined, 'age', '<', '30s'],
    ['Spread_BPS > 2', undefined, 'spread_bps', '>', '2'],
    // The field is after the last dot: symbols with dots need nothing special.
    ['VOD.L.bid > 100', 'VOD.L', 'bid', '>', '100'],
    ['BRK.B.ask<500.5', 'BRK.B', 'ask', '<', '500.5'],
    ['a.b.c.d.mid > 0', 'A.B.C.D', 'mid', '>', '0'],
    // Any visible ASCII but an operator character needs no quotes.
    ['$(TOUCH;X).bid > 1', '$(TOUCH;X)', 'bid', '>', '1'],
    ['A"B.bid > 1', 'A"B', 'bid', '>', '1'],
    // With one, the symbol is quoted; a quote inside is doubled.
    ['"A<B".bid > 1', 'A<B', 'bid', '>', '1'],
    ['"x=y!".ask<=2', 'X=Y!', 'ask', '<=', '2'],
    ['"SAY""HI".bid == 3', 'SAY"HI', 'bid', '==', '3'],
    ['"VOD.L".bid > 100', 'VOD.L', 'bid', '>', '100'],
    ['total_base > -1e-7', undefined, 'total_base', '>', '-1e-7'],
    ['bid > 5 s', undefined, 'bid', '>', '5 s'],
  ])('%j: symbol %s, field %s, op %s, value %s', (text, symbol, field, op, value) => {
    expect(parseCheckExpression(text, '--check')).toEqual({ text: text.trim(), symbol, field, op, value });
  });
});

describe('parseCheckExpression: what it refuses, naming the flag and the expression', () => {
  it.each([
    ['', /the check is empty/],
    ['   ', /the check is empty/],
    ['EURUSD.bid', /it has no operator/],
    ['EURUSD.bid 1.08', /it has no operator/],
    ['> 1', /names no field before the operator/],
    ['EURUSD. bid > 1', /has a space in it/],
    ['EUR USD.bid > 1', /has a space in it/],
    ['.bid > 1', /names no symbol before the dot/],
    ['EURUSD. > 1', /names no field after the dot/],
    ['EURUSD.> 1', /names no field after the dot/],
    ['EURUSD.b-d > 1', /"b-d" is not a field name/],
    ['EURUSD.1bid > 1', /"1bid" is not a field name/],
    ['EURUSD.bid = 1', /unknown operator "="; did you mean ==\?/],
    ['EURUSD.bid => 1', /unknown operator "=>"; did you mean >=\?/],
    ['EURUSD.bid =< 1', /unknown operator "=<"; did you mean <=\?/],
    ['EURUSD.bid <> 1', /unknown operator "<>"; did you mean !=\?/],
    ['EURUSD.bid === 1', /unknown operator "==="; did you mean ==\?/],
    ['EURUSD.bid >> 1', /unknown operator ">>"$/],
    ['EURUSD.bid ! 1', /unknown operator "!"$/],
    ['EURUSD.bid >', /it has no value after >/],
    ['EURUSD.bid >=   ', /it has no value after >=/],
    ['"A<B.bid > 1', /the quoted symbol has no closing quote/],
    ['"A<B"bid > 1', /a quoted symbol is followed by a dot and a field: "A<B".bid/],
    ['"A<B". > 1', /names no field after the dot/],
    ['"A<B".bid 1', /an operator comes after bid/],
    ['"".bid > 1', /"" is not a symbol/],
    ['ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.bid > 1', /is not a symbol: 1 to 32 visible ASCII characters/],
    ['+EURUSD.bid > 1', /"\+EURUSD" is not a symbol: no market's symbol starts with =, \+, - or @/],
    ['@SUM.bid > 1', /"@SUM" is not a symbol: no market's symbol starts with =, \+, - or @/],
    [`EURUSD.bid > ${'9'.repeat(200)}`, /longer than 200 characters/],
  ])('%j', (text, message) => {
    const error = refusal(text);
    expect(error.message).toMatch(message);
    expect(error.message.startsWith(`--until ${JSON.stringify(text.trim().slice(0, 80) + (text.trim().length > 80 ? '…' : ''))}: `)).toBe(true);
    // Nothing invisible in the message: it may be shown on a terminal.
    expect(error.message).not.toMatch(/[\u0000-\u001f\u007f]/);
    expect(error.hint).toBeTruthy();
  });

  // What a terminal would act on is left out of the quoted expression, as from any text mkt shows; the
  // character refused is named by its code point, for it may be invisible or look like ASCII.
  it.each([
    ['EURUSD.bid > 1\u0000', '"EURUSD.bid > 1"', 15, 'U+0000'],
    ['EURUSD.bid > 1\u001b[2J', '"EURUSD.bid > 1[2J"', 15, 'U+001B'],
    ['EURUSD.bid > 1\u202e80.1', '"EURUSD.bid > 180.1"', 15, 'U+202E'],
    ['EURUSD.bíd > 1', '"EURUSD.bíd > 1"', 9, 'U+00ED'],
    ['EURUSD.bid\u00a0> 1', '"EURUSD.bid\u00a0> 1"', 11, 'U+00A0'],
    ['EURUSD\uff0ebid > 1', '"EURUSD\uff0ebid > 1"', 7, 'U+FF0E'],
    ['\u{1F4C8}.bid > 1 and \u{1F4C9}', '"\u{1F4C8}.bid > 1 and \u{1F4C9}"', 1, 'U+1F4C8'],
    ['AB\u{1F4C8}.bid > 1\u0007', '"AB\u{1F4C8}.bid > 1"', 3, 'U+1F4C8'],
    [`EURUSD.bid > 1 ${'\u0007'.repeat(10)}${'9'.repeat(90)}`, `"EURUSD.bid > 1 ${'9'.repeat(80 - 'EURUSD.bid > 1 '.length)}…"`, 16, 'U+0007'],
  ])('%j: named as %s, refused at character %d, %s', (text, shown, at, code) => {
    expect(refusal(text).message).toBe(`--until ${shown}: a check is visible ASCII characters and spaces only; character ${at} is ${code}`);
  });

  it('reads an unquoted symbol with an operator character as far as that character: A<B.bid is the field "A"', () => {
    // `A<B.bid > 1` reads `A` as the field and `<` as the operator, then `B.bid > 1` is the value, which
    // compile-checks refuses (not a decimal); quoting is the way to write such a symbol.
    expect(parseCheckExpression('A<B.bid > 1', '--check')).toEqual({ text: 'A<B.bid > 1', symbol: undefined, field: 'a', op: '<', value: 'B.bid > 1' });
  });
});

describe('quoteSymbol: a symbol as a check writes it, so that it reads back the same', () => {
  it.each([
    ['EURUSD', 'EURUSD'],
    ['VOD.L', 'VOD.L'],
    ['A<B', '"A<B"'],
    ['X=Y!', '"X=Y!"'],
    ['"Q', '"""Q"'],
    ['SAY"HI', 'SAY"HI'],
  ])('%s is written %s and reads back', (symbol, written) => {
    expect(quoteSymbol(symbol)).toBe(written);
    expect(parseCheckExpression(`${written}.bid > 1`, '--check').symbol).toBe(symbol);
  });
});
