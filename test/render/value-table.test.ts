// The value board's tables (renderValueTable with a board view): a Change column in the base, signed
// with an arrow; in a window too narrow for every column, the least needed left out, named in a line
// below, every line within the width, the symbol and its value in the base kept. The one-shot table
// (no board view) keeps every column and has no such line.
import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import { valueExactly, valuationAt, type Quote } from '../../src/api/index.js';
import { createValuationTracker } from '../../src/render/value-changes.js';
import { VALUE_TABLE_FIELDS } from '../../src/render/value-fields.js';
import { renderValueTable } from '../../src/render/value-table.js';

const quote = (symbol: string, mid: string): Quote => ({ symbol, bid: mid, ask: mid, mid, timestamp: '2026-01-05T14:30:00.000Z' });
const POSITIONS = [
  { symbol: 'AAPL', quantity: '3', currency: 'USD', cost: '150.25' },
  { symbol: 'VOD.L', quantity: '1000', currency: 'GBX' },
];
const value = (aapl: string) => valueExactly({ positions: POSITIONS, quotes: [quote('AAPL', aapl), quote('VOD.L', '72.5'), quote('GBPUSD', '1.25')], base: 'USD', now: Date.parse('2026-01-05T14:31:00Z') });

/** Two polls: AAPL from 0.1 to 0.2, VOD.L unchanged; the valuation as the board writes it (minor). */
function twoPolls() {
  const tracker = createValuationTracker();
  tracker.update(value('0.1'), 0);
  const exact = value('0.2');
  return { valuation: valuationAt(exact, 'minor', { rateDigits: 10 }), change: tracker.update(exact, 1000) };
}

const table = (columns: number | undefined) => ({ fields: VALUE_TABLE_FIELDS, color: false, now: 0, columns, ascii: true });
const width = (text: string) => Math.max(...text.split('\n').map((line) => line.length));

describe('the value board', () => {
  it('a Change column in the base: AAPL up by 3 × (0.2 - 0.1), VOD.L unchanged; the total up by the same', () => {
    const { valuation, change } = twoPolls();
    const text = renderValueTable(valuation, table(undefined), { change });
    const up = `+${new Big('0.2').minus('0.1').times('3').toFixed(2)}`;
    expect(up).toBe('+0.30');
    const [positions, totals] = text.split('\n\n') as [string, string];
    expect(positions).toContain('Change USD');
    // In cents, as the board writes its figures in the base.
    expect(positions.split('\n').find((line) => line.startsWith('| AAPL'))).toMatch(/\+0\.30 \^ \|$/);
    expect(positions.split('\n').find((line) => line.startsWith('| VOD.L'))).toMatch(/ 0\.00 {3}\|$/);
    expect(totals.split('\n').find((line) => line.startsWith('| all, in USD'))).toMatch(/\+0\.30 \^ \|$/);
  });

  it('narrow: the least needed columns left out and named below each table, each line within the width; symbol and Value USD kept', () => {
    const { valuation, change } = twoPolls();
    const wide = renderValueTable(valuation, table(undefined), { change });
    const columns = 72;
    expect(width(wide)).toBeGreaterThan(columns);
    const text = renderValueTable(valuation, table(columns), { change });
    expect(width(text)).toBeLessThanOrEqual(columns);
    // The lines below the box (its last line starts with +), read as one: the names and the advice, whole.
    const hiddenOf = (part: string) => {
      const lines = part.trimEnd().split('\n').filter((line) => !line.startsWith('Prices as of') && !line.startsWith('(the oldest'));
      const below = lines.slice(lines.findLastIndex((line) => line.startsWith('+')) + 1);
      return below.join(' ').match(/^(.*) hidden; widen the window or use --fields$/)?.[1]?.split(', ');
    };
    const [widePositions, wideTotals] = wide.split('\n\n') as [string, string];
    const [positions, totals] = text.split('\n\n') as [string, string];
    for (const [narrow, whole, kept] of [[positions, widePositions, 'Symbol'], [totals, wideTotals, 'Total']] as const) {
      const header = narrow.split('\n')[1]!;
      expect(header).toContain(kept);
      expect(header).toContain('Value USD');
      expect(header).toContain('Change USD');
      const named = hiddenOf(narrow);
      expect(named?.length).toBeGreaterThan(0);
      // Each title named is one the wide table has and this one's header does not; the rest are all there.
      const titles = (line: string) => line.split('|').map((cell) => cell.trim()).filter(Boolean);
      const wideTitles = titles(whole.split('\n')[1]!);
      expect(titles(header)).toEqual(wideTitles.filter((title) => !named!.includes(title)));
      expect(named!.every((title) => wideTitles.includes(title))).toBe(true);
    }
    // Cost and P&L first, then the price and the quantity; named in the order of the columns.
    expect(hiddenOf(positions)).toEqual(['Quantity', 'Price', 'Cost', 'P&L']);
    // Narrower: the value in its own currency goes before its currency, never shown without it.
    const narrower = renderValueTable(valuation, table(56), { change }).split('\n\n')[0]!;
    expect(hiddenOf(narrower)).toEqual(['Quantity', 'Price', 'Value', 'Cost', 'P&L']);
    // Too long for one line of 55: wrapped over two, the advice kept.
    expect(narrower.trimEnd().split('\n').slice(-2)).toEqual(['Quantity, Price, Value, Cost, P&L hidden; widen the', 'window or use --fields']);
    expect(narrower.split('\n')[1]).toContain('Currency');
  });

  it('the one-shot table (no board) keeps every column: no line of hidden ones', () => {
    const { valuation } = twoPolls();
    const text = renderValueTable(valuation, table(60));
    expect(text).not.toContain('hidden');
    expect(text).not.toContain('Change');
  });
});
