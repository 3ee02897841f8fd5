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

/** Why a request holding `literal` (fractionLostToDouble's) is refused, and what to send instead. */
export function lostFractionWords(literal: string): string {
  return `the number ${literal} reads as the double ${Number(literal)}, its fraction lost: give it as a decimal string ("${literal}")`;
}

/**
 * The text of each element of `line`, a JSON array (already parsed as one: a batch), in order, so
 * that each message of a batch is read for such a number as a line of its own is.
 */
export function arrayElements(line: string): string[] {
  const elements: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 0x22) {
      for (i++; i < line.length && line.charCodeAt(i) !== 0x22; i++) if (line.charCodeAt(i) === 0x5c) i++;
    } else if (c === 0x5b || c === 0x7b) {
      if (depth++ === 0) start = i + 1;
    } else if (c === 0x5d || c === 0x7d) {
      if (--depth === 0) {
        if (line.slice(start, i).trim() !== '') elements.push(line.slice(start, i));
        break;
      }
    } else if (c === 0x2c && depth === 1) {
      elements.push(line.slice(start, i));
      start = i + 1;
    }
  }
  return elements;
}

/** Whether decimal text is a whole number, exactly (1.50e1 is, 1e-400 is not); one beyond mkt's bounds is not read as whole. */
function isWhole(literal: string): boolean {
  if (decimalBoundsProblem(literal) !== undefined) return false;
  const { n, d } = figureOf(literal);
  return n % d === 0n;
}
