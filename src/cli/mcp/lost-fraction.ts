// A JSON number written with a fraction that a double reads as a whole number: 100.000000000000001
// and 0.99999999999999999 parse as 100 and 1, and a tool that takes a whole JSON number for an amount
// (value_portfolio's quantity and cost) would value the wrong one without knowing. JSON.parse leaves
// nothing to tell them apart by, so the line's own text is read: the transport refuses a request
// that holds such a number before anything reads it (stdio-transport.ts).
import { decimalBoundsProblem } from '../../shared/decimal-bounds.js';
import { figureOf } from '../../shared/figure.js';

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** The first number of the JSON text `line` (outside its strings) written with a fraction a double reads as whole; undefined when there is none. */
export function fractionLostToDouble(line: string): string | undefined {
  // No digit before a point or an exponent: no such number (most lines).
  if (!/\d[.eE]/.test(line)) return undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 0x22) {
      // A string, skipped whole, an escaped quote in it too.
      for (i++; i < line.length && line.charCodeAt(i) !== 0x22; i++) if (line.charCodeAt(i) === 0x5c) i++;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      NUMBER.lastIndex = i;
      const literal = NUMBER.exec(line)?.[0];
      if (literal === undefined) continue;
      i += literal.length - 1;
      if (/[.eE]/.test(literal) && Number.isInteger(Number(literal)) && !isWhole(literal)) return literal;
    }
  }
  return undefined;
}

/** Whether decimal text is a whole number, exactly (1.50e1 is, 1e-400 is not); one beyond mkt's bounds is not read as whole. */
function isWhole(literal: string): boolean {
  if (decimalBoundsProblem(literal) !== undefined) return false;
  const { n, d } = figureOf(literal);
  return n % d === 0n;
}
