// The board at every width from 20 to 100 and windows of many heights: no field is left out without
// a word. Each frame is read as a person would: the columns' titles or each block's, the quotes shown,
// the line saying how many more there are, and the notice naming what is hidden. Every field is shown
// or named in a notice that is whole (over several lines if need be) with how to see it; when the
// blocks of every quote with every field fit the window, nothing is hidden, as in the one-shot table;
// no frame is taller than its window, counting the rows a value wider than the window wraps onto.
import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import type { Quote } from '../../src/api/types.js';
import { renderBoard, type BoardView } from '../../src/render/board.js';
import { createChangeTracker } from '../../src/render/changes.js';
import type { QuoteFieldName } from '../../src/render/quote-fields.js';
import { readBoardFrame } from '../helpers/board-frame.js';
import { quote, QUOTE_TIME } from '../helpers/quotes.js';

const NOW = Date.parse(QUOTE_TIME) + 2000;
const SGR = /\u001b\[[0-9;]*m/g;
const TITLES: Partial<Record<QuoteFieldName | 'note', string>> = { bid: 'Bid', ask: 'Ask', mid: 'Mid', spread: 'Spread', age: 'Age', timestamp: 'Timestamp', note: 'Note' };
const WIDTHS = Array.from({ length: 81 }, (_, i) => 20 + i);
const HEIGHTS = [undefined, 3, 5, 8, 10, 12, 16, 20, 22, 24, 30, 45];

const PRICES: Array<[string, string, string, string]> = [
  ['EURUSD', '1.12266', '1.12268', '1.12267'],
  ['USDJPY', '149.711', '149.714', '149.7125'],
  ['AAPL', '216.32', '216.33', '216.325'],
  ['GBPUSD', '1.27001', '1.27004', '1.270025'],
  ['MSFT', '415.10', '415.14', '415.12'],
  ['USDCHF', '0.88412', '0.88415', '0.884135'],
  ['XAUUSD', '2034.15', '2034.55', '2034.35'],
  ['TSLA', '180.01', '180.05', '180.03'],
];
const quotes = (count: number, crossed = false) => PRICES.slice(0, count).map(([symbol, bid, ask, mid]) => (crossed ? quote(symbol, ask, bid, mid) : quote(symbol, bid, ask, mid)));

interface Case {
  name: string;
  data: Quote[];
  fields?: QuoteFieldName[];
}

const CASES: Case[] = [
  { name: '3 quotes', data: quotes(3) },
  { name: '3 crossed quotes (a Note each)', data: quotes(3, true) },
  { name: '8 quotes', data: quotes(8) },
  { name: '3 quotes, --fields symbol,bid,ask,timestamp,mid', data: quotes(3), fields: ['symbol', 'bid', 'ask', 'timestamp', 'mid'] },
];

function view(data: Quote[]): BoardView {
  const changes = createChangeTracker().update(data);
  return {
    data, changes, history: data.map((q) => [q.mid, q.mid]), missing: [],
    status: { polls: 1, updatedAt: NOW, intervalMs: 2000, rateLimit: undefined, throttledUntil: undefined, problem: undefined },
  };
}

describe('the board at widths 20 to 100 and many heights: every field shown or named, with how to see it', () => {
  it.each(CASES.flatMap((c) => HEIGHTS.map((rows) => [c.name, rows, c] as const)))('%s, %s rows', (_name, rows, c) => {
    const names = c.fields ?? ['symbol', 'bid', 'ask', 'mid', 'spread', 'age'];
    const crossed = c.data.some((q) => new Big(q.bid).gt(q.ask));
    const expected = [...names.filter((name) => name !== 'symbol').map((name) => TITLES[name]!), ...(crossed ? ['Note'] : [])];
    // The blocks of every quote with every field, when each field fits its line (`  Spread  0.00002`):
    // a line for the symbol and one per field, a blank line between blocks, and 2 for the status line.
    const values = c.data.flatMap((q) => [q.bid, q.ask, q.mid, q.timestamp, new Big(q.ask).minus(q.bid).toFixed(), '2s', 'crossed']);
    const widestLine = 2 + Math.max(...expected.map((title) => title.length)) + 2 + Math.max(...values.map((value) => value.length));
    const blocksHeight = c.data.length * (1 + expected.length) + (c.data.length - 1) + 2;
    for (const columns of WIDTHS) {
      const lines = renderBoard(view(c.data), { color: true, columns, rows, now: NOW, fields: c.fields }).map((line) => line.replace(SGR, ''));
      const where = `${columns}x${rows}:\n${lines.join('\n')}`;
      const frame = readBoardFrame(lines, expected);
      // Within the window: a line wider than it is one value, written whole, and takes the rows it wraps onto.
      for (const line of lines) if ([...line].length >= columns) expect(line.trim(), where).not.toMatch(/\s/);
      if (rows !== undefined) expect(lines.reduce((sum, line) => sum + Math.max(1, Math.ceil([...line].length / columns)), 0), where).toBeLessThanOrEqual(rows);
      // The notice whole, each of its lines within the width; no other line speaks of hidden fields.
      for (const line of frame.noticeLines) expect([...line].length, where).toBeLessThan(columns);
      expect(lines.filter((line) => line.includes('hidden')).length, where).toBeLessThanOrEqual(frame.noticeLines.length);
      expect(frame.shown.length + frame.more, where).toBe(c.data.length);
      if (frame.shown.length === 0) {
        // Not one quote fits: the line saying so stands alone, no field is named.
        expect(frame.more, where).toBe(c.data.length);
        expect(frame.notice, where).toBeUndefined();
        continue;
      }
      for (const [index, shown] of frame.shown.entries()) {
        // Each quote shows the same fields; those and the ones named are every field, once.
        expect([...shown.titles, ...frame.named].sort(), where).toEqual([...expected].sort());
        const q = c.data[index]!;
        const text = shown.lines.join('\n');
        expect(text, where).toMatch(new RegExp(`^${q.symbol}\\b`));
        for (const price of [q.bid, q.ask]) expect(text.split(/\s+/), where).toContain(price);
      }
      // As the one-shot table: when the blocks of every quote with every field fit, nothing is hidden.
      if (widestLine < columns && (rows === undefined || blocksHeight <= rows)) {
        expect(frame.named, where).toEqual([]);
        expect(frame.shown.length, where).toBe(c.data.length);
      }
    }
  });
});
