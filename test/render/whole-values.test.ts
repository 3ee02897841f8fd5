// Property: a price, a symbol and a spread are drawn whole or not at all, by the table and the board,
// at every width from 0 to 200. Every number in the output is one of the input's prices or a spread
// (ask - bid), in full; every bid and ask is there; no line is wider than the width unless it holds
// a single value wider than the width (written whole for the terminal to wrap). Runs in npm test;
// fast-check with a fixed seed, so a failure is the same failure on every machine.
import Big from 'big.js';
import fc from 'fast-check';
import { describe, it } from 'vitest';
import type { Quote } from '../../src/api/types.js';
import { renderBoard } from '../../src/render/board.js';
import { createChangeTracker } from '../../src/render/changes.js';
import { renderQuoteTable as renderTable } from '../../src/render/quote-table.js';

const SEED = 20261126;
const NOW = Date.parse('2026-11-22T12:00:02.000Z');
const SGR = /\u001b\[[0-9;]*m/g;
/** A number as it can appear in the output: sign, digits, fraction, exponent; not part of a word (`2s`, `12:00`). */
const NUMBER = /(?<![\w.:+-])[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?(?![\w.:])/g;

/** 1 to 30 significant digits, plain (0.000123, 123000, 12.3) or in exponent form (1.23e-7, 123E+4), maybe negative. */
const price = fc.record({
  digits: fc.stringMatching(/^[1-9][0-9]{0,29}$/),
  point: fc.integer({ min: -8, max: 36 }),
  exponent: fc.option(fc.integer({ min: -40, max: 40 }), { nil: undefined }),
  upper: fc.boolean(),
  negative: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
}).map(({ digits, point, exponent, upper, negative }) => {
  let text: string;
  if (exponent !== undefined) {
    text = `${digits[0]}${digits.length > 1 ? `.${digits.slice(1)}` : ''}${upper ? 'E' : 'e'}${exponent >= 0 && upper ? '+' : ''}${exponent}`;
  } else if (point <= 0) {
    text = `0.${'0'.repeat(-point)}${digits}`;
  } else if (point >= digits.length) {
    text = digits + '0'.repeat(point - digits.length);
  } else {
    text = `${digits.slice(0, point)}.${digits.slice(point)}`;
  }
  return negative ? `-${text}` : text;
});

const quote = fc.record({
  symbol: fc.stringMatching(/^[A-Z]{1,12}$/),
  bid: price,
  ask: price,
  mid: price,
  ageMs: fc.integer({ min: 0, max: 100_000 }),
}).map(({ ageMs, ...prices }): Quote => ({ ...prices, timestamp: new Date(NOW - ageMs).toISOString() }));

const input = fc.record({
  quotes: fc.array(quote, { minLength: 1, maxLength: 4 }),
  width: fc.integer({ min: 0, max: 200 }),
  ascii: fc.boolean(),
  color: fc.boolean(),
});

/** The checks both renderers must pass, on the lines holding the quotes. */
function holdsWhole(lines: string[], quotes: Quote[], width: number | undefined): void {
  const allowed = quotes.flatMap((q) => [q.bid, q.ask, q.mid, new Big(q.ask).minus(q.bid).toString()]).map((text) => new Big(text));
  const text = lines.join('\n');
  const numbers = [...text.matchAll(NUMBER)].map((match) => match[0]);
  for (const number of numbers) {
    if (!allowed.some((value) => value.eq(number))) throw new Error(`${number} is not one of the input's numbers:\n${text}`);
  }
  for (const q of quotes) {
    for (const sent of [q.bid, q.ask]) {
      if (!numbers.some((number) => new Big(number).eq(sent))) throw new Error(`${sent} is not shown whole:\n${text}`);
    }
    if (!new RegExp(`(^|[^A-Z])${q.symbol}($|[^A-Z])`, 'm').test(text)) throw new Error(`${q.symbol} is not shown whole:\n${text}`);
  }
  if (width === undefined) return;
  for (const line of lines) {
    if ([...line].length > width && /\s/.test(line.trim())) throw new Error(`a line wider than ${width} holds more than one value: "${line}"\n${text}`);
  }
}

describe(`prices whole at every width (property, seed ${SEED})`, () => {
  it('the table', () => {
    fc.assert(fc.property(input, ({ quotes, width, ascii, color }) => {
      const text = renderTable(quotes, { color, ascii, now: NOW, columns: width }).replace(SGR, '');
      holdsWhole(text.split('\n'), quotes, width === 0 ? undefined : width);
    }), { seed: SEED, numRuns: 400 });
  });

  it('the board', () => {
    fc.assert(fc.property(input, ({ quotes, width, ascii, color }) => {
      const tracker = createChangeTracker();
      const view = {
        data: quotes, changes: tracker.update(quotes), history: quotes.map((q) => [q.mid]), missing: [],
        status: { polls: 1, updatedAt: NOW, intervalMs: 2000, rateLimit: undefined, throttledUntil: undefined, problem: undefined },
      };
      const lines = renderBoard(view, { color, ascii, now: NOW, columns: width, rows: undefined }).map((line) => line.replace(SGR, ''));
      // The status line and the blank line above it are the board's own words, not the data.
      holdsWhole(lines.slice(0, -2), quotes, Math.max(1, (width === 0 ? 80 : width) - 1));
    }), { seed: SEED, numRuns: 400 });
  });
});
