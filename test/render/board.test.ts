// The board as text: highlighted changes, arrows that survive without colour, sparklines, the
// status line, and a layout that fits the terminal.
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import type { Quote } from '../../src/api/types.js';
import { renderBoard, stylePrice, type BoardStatus, type BoardView } from '../../src/render/board.js';
import { truncateStyled } from '../../src/render/grid.js';
import { createChangeTracker, type PriceChange } from '../../src/render/changes.js';
import { formatDuration } from '../../src/shared/duration.js';
import { formatClock } from '../../src/shared/time.js';
import { quote, QUOTE_TIME } from '../helpers/quotes.js';

// Two seconds after the factory's quotes were set.
const NOW = Date.parse(QUOTE_TIME) + 2000;
const SGR = /\u001b\[[0-9;]*m/g;
const plain = (text: string) => text.replace(SGR, '');

const status = (extra: Partial<BoardStatus> = {}): BoardStatus => ({
  polls: 3, updatedAt: NOW, intervalMs: 2000, rateLimit: { limit: 60, remaining: 58, resetSeconds: 40 }, throttledUntil: undefined, problem: undefined, ...extra,
});

/** Two polls through the real change tracker: the board shows the second. */
function view(before: Quote[], after: Quote[], extra: Partial<BoardView> = {}): BoardView {
  const tracker = createChangeTracker();
  tracker.update(before);
  const changes = tracker.update(after);
  return { data: after, changes, history: after.map((q, i) => [before[i]?.mid ?? q.mid, q.mid]), missing: [], status: status(), ...extra };
}

const EURUSD = quote('EURUSD', '1.08505', '1.08507', '1.08506');
const EURUSD_UP = quote('EURUSD', '1.08510', '1.08512', '1.08511');
const AAPL = quote('AAPL', '227.10', '227.12', '227.11');
const AAPL_DOWN = quote('AAPL', '227.05', '227.12', '227.085');

describe('stylePrice', () => {
  const c = new Chalk({ level: 1 });
  it.each([
    ['up: green, the digits from the first changed one bold and underlined', '1.08512', { direction: 'up', from: 5 }, `${c.green('1.085')}${c.green.bold.underline('12')}`],
    ['down: red', '227.05', { direction: 'down', from: 4 }, `${c.red('227.')}${c.red.bold.underline('05')}`],
    ['alignment spaces stay outside the styles', '  1.5 ', { direction: 'up', from: 2 }, `  ${c.green('1.')}${c.green.bold.underline('5')} `],
    ['every digit when the integer part grew', '100.1', { direction: 'up', from: 0 }, `${c.green('')}${c.green.bold.underline('100.1')}`],
    ['unchanged: as is', '1.08512', { direction: 'same', from: undefined }, '1.08512'],
    ['first poll: as is', '1.08512', { direction: 'new', from: undefined }, '1.08512'],
  ] as Array<[string, string, PriceChange, string]>)('%s', (_name, cell, change, expected) => {
    expect(stylePrice(cell, change, c)).toBe(expected);
  });
});

describe('renderBoard', () => {
  it('lays out the quotes with exact prices, arrows, sparklines and a status line', () => {
    const lines = renderBoard(view([EURUSD, AAPL], [EURUSD_UP, AAPL_DOWN]), { color: false, columns: 100, rows: 30, now: NOW });
    expect(lines.join('\n')).not.toMatch(SGR);
    expect(lines[0]).toMatch(/^Symbol +Bid +Ask +Mid +Spread +Age +Trend$/);
    expect(lines[1]).toMatch(/^EURUSD +1\.08510 +1\.08512 +1\.08511 +▲ +0\.00002 +2s +▁█$/);
    // Mid 227.085 has a digit more than the instrument's precision; the others pad to align.
    expect(lines[2]).toMatch(/^AAPL +227\.05 +227\.12 +227\.085 +▼ +0\.07 +2s +█▁$/);
    expect(lines[3]).toBe('');
    expect(lines[4]).toBe(`updated ${formatClock(NOW)} · poll 3 · every 2s · 58/60 left · q to quit`);
    expect(lines).toHaveLength(5);
  });

  it('highlights only the prices that changed, in colour when asked', () => {
    const lines = renderBoard(view([EURUSD, AAPL], [EURUSD_UP, AAPL]), { color: true, columns: 100, rows: 30, now: NOW });
    expect(lines[1]).toContain('\u001b[32m');
    expect(lines[1]).toMatch(/\u001b\[4m/); // underlined digits
    expect(lines[2]).not.toMatch(/\u001b\[3[12]m/); // AAPL did not move
    expect(plain(lines[1]!)).toMatch(/1\.08511 +▲/);
  });

  it('says it is waiting before the first answer', () => {
    const lines = renderBoard({ data: [], changes: [], history: [], missing: [], status: status({ polls: 0, updatedAt: undefined, rateLimit: undefined }) },
      { color: false, columns: 80, rows: 24, now: NOW });
    expect(lines[0]).toBe('waiting for the first quotes…');
    expect(lines.at(-1)).toBe('no quotes yet · poll 0 · every 2s · q to quit');
  });

  it('shows throttling, a failing poll and missing symbols, without control characters', () => {
    const lines = renderBoard(view([EURUSD], [EURUSD], {
      missing: ['ZZZ\u001b[2J'],
      status: status({ throttledUntil: NOW + 42_000, problem: { message: 'GET /v1/market/quotes failed with 503\u001b]0;pwned\u0007', retryAt: NOW + 4000 } }),
    }), { color: false, columns: 100, rows: 30, now: NOW });
    const text = lines.join('\n');
    expect(text).not.toContain('\u001b');
    expect(text).toContain('no quote for ZZZ[2J');
    expect(text).toContain(`throttled until ${formatClock(NOW + 42_000)} (rate limit)`);
    expect(text).toContain(`retrying at ${formatClock(NOW + 4000)}: GET /v1/market/quotes failed with 503]0;pwned`);
  });

  it('marks stale, crossed and locked quotes', () => {
    const old = quote('OLD', '1.1', '1.2', '1.15', '2025-01-06T14:00:00.000Z');
    const crossed = quote('X', '1.3', '1.2', '1.25');
    const lines = renderBoard(view([old, crossed], [old, crossed]), { color: false, columns: 120, rows: 30, now: NOW, maxAgeMs: 60_000 });
    expect(lines[0]).toMatch(/Note$/);
    expect(lines[1]).toMatch(/30m +▄▄ +stale$/);
    expect(lines[2]).toMatch(/crossed$/);
  });

  // In a window of 8 rows, two quotes' blocks (6 lines each and one between) do not fit: the columns
  // stay side by side and the least needed go.
  it.each([
    [100, ['Spread', 'Age', 'Trend']],
    [62, ['Spread', 'Age']], // the sparkline goes first
    [55, ['Spread']],
    [46, []],
  ])('fits %s columns of a short window: keeps %j besides the prices', (columns, kept) => {
    const lines = renderBoard(view([EURUSD, AAPL], [EURUSD_UP, AAPL_DOWN]), { color: true, columns, rows: 8, now: NOW });
    for (const line of lines) expect([...plain(line)].length).toBeLessThan(columns);
    for (const title of ['Spread', 'Age', 'Trend']) expect(lines[0]!.includes(title)).toBe(kept.includes(title));
    expect(plain(lines[1]!)).toContain('1.08511');
  });

  it.each([
    [100, undefined],
    [62, undefined], // only the sparkline went: not a field
    [55, ['Age hidden; widen the window or use --fields']],
    // 45 wide: wrapped, never cut.
    [46, ['Spread, Age hidden; widen the window or use', '--fields']],
  ])('at %s columns of a short window names the fields it leaves out, and how to see them: %j', (columns, said) => {
    const lines = renderBoard(view([EURUSD, AAPL], [EURUSD_UP, AAPL_DOWN]), { color: true, columns, rows: 8, now: NOW }).map(plain);
    // The quotes' lines end where the status line's blank line begins.
    const quotes = lines.slice(0, lines.lastIndexOf(''));
    expect(quotes.slice(3)).toEqual(said ?? []);
    for (const line of lines) expect([...line].length).toBeLessThan(columns);
  });

  it.each([
    // The columns do not fit 46 or 30; the blocks (6 lines each, 1 between, 2 for the status line) fit 15 rows.
    [46, 15],
    [30, 30],
  ])('at %s columns of a window %s high: a block per quote with every field, as the one-shot table', (columns, rows) => {
    const lines = renderBoard(view([EURUSD, AAPL], [EURUSD_UP, AAPL_DOWN]), { color: false, columns, rows, now: NOW });
    // The status line, shortened to the width, last.
    expect(lines.slice(0, -1)).toEqual([
      'EURUSD ▲', '  Bid     1.08510', '  Ask     1.08512', '  Mid     1.08511', '  Spread  0.00002', '  Age     2s', '',
      'AAPL ▼', '  Bid     227.05', '  Ask     227.12', '  Mid     227.085', '  Spread  0.07', '  Age     2s', '',
    ]);
    expect(lines.at(-1)).toMatch(new RegExp(`^updated ${formatClock(NOW)} · poll 3`));
  });

  it('at 40x20 with 3 quotes: blocks leaving out only what the height cannot hold, named whole with how to see it', () => {
    const USDJPY = quote('USDJPY', '149.711', '149.714', '149.7125');
    const lines = renderBoard(view([EURUSD, USDJPY, AAPL], [EURUSD_UP, USDJPY, AAPL_DOWN]), { color: false, columns: 40, rows: 20, now: NOW });
    // 18 rows above the status line. Every field: 3 blocks of 6 lines and 2 between, 20. Without Age:
    // 17, and the notice takes 2 at 39 columns, 19. Without Spread and Age: 14 and 2, 16. The columns
    // side by side hold Symbol, Bid and Ask (6 + 9 + 9, the arrow, 2 between each: 31), not Mid (42).
    expect(lines.slice(0, -2)).toEqual([
      'EURUSD ▲', '  Bid  1.08510', '  Ask  1.08512', '  Mid  1.08511', '',
      'USDJPY', '  Bid  149.711', '  Ask  149.714', '  Mid  149.7125', '',
      'AAPL ▼', '  Bid  227.05', '  Ask  227.12', '  Mid  227.085',
      'Spread, Age hidden; enlarge the window',
      'or use --fields',
    ]);
    expect(lines.at(-2)).toBe('');
  });

  it('keeps within the height, the lines naming the hidden columns taking rows\' places', () => {
    const many = Array.from({ length: 20 }, (_, i) => quote(`SYM${i}`, '1.3', '1.2', '1.25')); // crossed: every row has a Note
    const lines = renderBoard(view(many, many), { color: false, columns: 40, rows: 10, now: NOW });
    // 10 rows: the status line and the blank above it, the notice (2 lines at 39), the line of the
    // quotes left out, the titles, and 4 quotes.
    expect(lines.slice(0, 8)).toEqual([
      expect.stringMatching(/^Symbol +Bid +Ask +Mid +Note$/),
      ...[0, 1, 2, 3].map((i) => expect.stringMatching(new RegExp(`^SYM${i} +1\\.3 +1\\.2 +1\\.25 +crossed$`))),
      '… 16 more; enlarge the window to see…',
      'Spread, Age hidden; widen the window or',
      'use --fields',
    ]);
    expect(lines).toHaveLength(10);
  });

  it('shrinks the sparkline before dropping it', () => {
    const history = [Array.from({ length: 30 }, (_, i) => `1.0${String(i).padStart(2, '0')}`)];
    const lines = renderBoard({ ...view([EURUSD], [EURUSD_UP]), history }, { color: false, columns: 75, rows: 30, now: NOW });
    const trend = /([▁▂▃▄▅▆▇█]+)$/.exec(lines[1]!)?.[1] ?? '';
    expect(trend.length).toBeGreaterThanOrEqual(8);
    expect(trend.length).toBeLessThan(30);
    expect(lines[1]!.length).toBeLessThan(75);
  });

  it('summarises the rows that do not fit the terminal height', () => {
    const many = Array.from({ length: 20 }, (_, i) => quote(`SYM${i}`, '1.1', '1.2', '1.15'));
    const lines = renderBoard(view(many, many), { color: false, columns: 100, rows: 10, now: NOW });
    expect(lines.length).toBeLessThanOrEqual(10);
    expect(lines).toContain('… 14 more; enlarge the window to see them');
  });

  it('lays out only the rows on screen: one off screen neither widens a column nor adds a Note', () => {
    const many = Array.from({ length: 20 }, (_, i) => quote(`SYM${i}`, '1.1', '1.2', '1.15'));
    many.push(quote('A-SYMBOL-FAR-LONGER-THAN-THE-REST', '1.3', '1.2', '1.25'));
    const lines = renderBoard(view(many, many), { color: false, columns: 100, rows: 10, now: NOW });
    expect(lines[0]).toMatch(/^Symbol {2}Bid/);
    expect(lines[0]).not.toContain('Note');
  });

  it('never has more lines than the terminal, however small', () => {
    const lines = renderBoard(view([EURUSD], [EURUSD], { missing: ['X'], status: status({ throttledUntil: NOW }) }), { color: false, columns: 80, rows: 3, now: NOW });
    expect(lines).toHaveLength(3);
  });
});

describe('renderBoard in plain ASCII', () => {
  it('draws arrows, sparklines, the status line and ellipses without a character beyond ASCII', () => {
    const history = [['1.08505', '1.08510', '1.08507', '1.08511'], ['227.11', '227.085']];
    const lines = renderBoard({ ...view([EURUSD, AAPL], [EURUSD_UP, AAPL_DOWN]), history }, { color: false, ascii: true, columns: 100, rows: 30, now: NOW });
    expect(lines.join('\n')).toMatch(/^[\x20-\x7e\n]*$/);
    expect(lines[1]).toMatch(/^EURUSD +1\.08510 +1\.08512 +1\.08511 +\^ +0\.00002 +2s +_\*:#$/);
    expect(lines[2]).toMatch(/^AAPL +227\.05 +227\.12 +227\.085 +v +0\.07 +2s +#_$/);
    expect(lines[4]).toBe(`updated ${formatClock(NOW)} | poll 3 | every 2s | 58/60 left | q to quit`);
    const waiting = renderBoard({ data: [], changes: [], history: [], missing: [], status: status({ polls: 0 }) }, { color: false, ascii: true, columns: 80, rows: 24, now: NOW });
    expect(waiting[0]).toBe('waiting for the first quotes...');
    const many = Array.from({ length: 20 }, (_, i) => quote(`SYM${i}`, '1.1', '1.2', '1.15'));
    expect(renderBoard(view(many, many), { color: false, ascii: true, columns: 100, rows: 10, now: NOW })).toContain('... 14 more; enlarge the window to see them');
  });
});

describe('renderBoard with --changes-only', () => {
  it('says how many unchanged quotes it leaves out', () => {
    const lines = renderBoard({ ...view([EURUSD], [EURUSD_UP]), unchanged: 2 }, { color: false, columns: 100, rows: 30, now: NOW });
    expect(lines).toContain('2 quotes without a price change hidden (--changes-only)');
  });

  it('says so when nothing changed', () => {
    const lines = renderBoard({ data: [], changes: [], history: [], missing: [], status: status(), unchanged: 2 }, { color: false, columns: 100, rows: 30, now: NOW });
    expect(lines[0]).toBe('no price changed at the latest poll');
  });
});

describe('ages on the board', () => {
  it('reads under a second as tenths, so a stale row never says 0s', () => {
    const fresh = quote('EURUSD', '1.08505', '1.08507', '1.08506', new Date(NOW - 800).toISOString());
    const lines = renderBoard(view([fresh], [fresh]), { color: false, columns: 100, rows: 30, now: NOW, maxAgeMs: 500 });
    expect(lines[1]).toMatch(/ 0\.8s .* stale$/);
  });
});

describe('truncateStyled', () => {
  it.each([
    ['abc', 5, 'abc'],
    ['abcdef', 3, 'abc'],
    ['\u001b[32mabcdef\u001b[39m', 3, '\u001b[32mabc\u001b[0m'],
    ['ab\u001b[1mcd\u001b[22m', 4, 'ab\u001b[1mcd\u001b[22m'],
    ['▁▂▃▄', 2, '▁▂'],
  ])('%j to %s columns', (text, width, expected) => {
    expect(truncateStyled(text, width)).toBe(expected);
  });
});

describe('clock', () => {
  it.each([[1000, '1s'], [2000, '2s'], [1500, '1.5s'], [500, '500ms'], [60_000, '1m'], [90_000, '90s']])('formatDuration(%s) = %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
  it('formats local wall-clock time', () => {
    expect(formatClock(NOW)).toMatch(/^\d{2}:\d{2}:\d{2}$/);
    expect(formatClock(NOW)).toBe(new Date(NOW).toTimeString().slice(0, 8));
  });
});
