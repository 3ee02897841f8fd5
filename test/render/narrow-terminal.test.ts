// The table and the board on a real terminal of 0 to 100 columns (util-linux `script` gives
// the built bin a pseudo-terminal; `stty cols` sets its width, 0 being a terminal that does not know
// its own). Every price the sandbox served is drawn whole, every number drawn is one it served (or a
// spread), and no line is wider than the terminal unless it is one value, written whole for the
// terminal to wrap. On the board, every field is shown or named with how to see it, in words never
// cut. Needs `script` and the built dist/ (npm test builds it first).
import fs from 'node:fs';
import path from 'node:path';
import Big from 'big.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAS_SCRIPT, ROOT, runOnTerminal } from '../helpers/bin.js';
import { readBoardFrame } from '../helpers/board-frame.js';
import { tempDir } from '../helpers/cli.js';
import { cliLogin, getQuotes, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

if (!HAS_SCRIPT) console.warn('test/render/narrow-terminal.test.ts skipped: util-linux script is not installed');

const SYMBOLS = ['EURUSD', 'USDJPY', 'AAPL'];
const SGR = /\u001b\[[0-9;]*m/g;
const NUMBER = /(?<![\w.:+-])[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?(?![\w.:])/g;
let sandbox: TestSandbox;
let token: string;
let dir: string;
/** The prices as served, digit for digit, per symbol. */
let served: Array<{ symbol: string; bid: string; ask: string; mid: string }>;

/** Runs mkt in a pseudo-terminal `columns` wide; what the terminal was sent. */
async function inTerminal(columns: number, args: string[], env: Record<string, string> = {}, rows = 40): Promise<string> {
  const result = await runOnTerminal(['quotes', ...args], {
    columns, rows, timeoutMs: 15_000,
    env: { TERM: 'xterm-256color', MKT_BASE_URL: sandbox.url, MKT_ORG: 'org_demo', MKT_TOKEN: token, MKT_CONFIG_DIR: dir, ...env },
  });
  return result.stdout;
}

/** The last frame the board drew: after the last cursor-home, up to the clear to the screen's end. */
function lastFrame(raw: string): string[] {
  const frame = raw.slice(raw.lastIndexOf('\u001b[H') + 3);
  return frame.slice(0, frame.indexOf('\u001b[J')).split(/\r*\n/).map((line) => line.replaceAll('\u001b[K', '').replace(SGR, ''));
}

/** The titles of the first block: `  Bid  1.08505`, or a title alone on its line where that does not fit. */
function fieldTitles(lines: string[]): string[] {
  const block = lines.slice(1, lines.indexOf(''));
  const inline = block.map((line) => /^ {2}(\w+) {2,}\S/.exec(line)?.[1]);
  return inline.every((title) => title !== undefined) ? inline as string[] : block.filter((line) => /^[A-Z][a-z]+$/.test(line));
}

/** `count`: the quotes the lines hold, the first served (a board may have room for fewer). */
function expectWhole(lines: string[], width: number | undefined, count = served.length): void {
  const text = lines.join('\n');
  const allowed = served.flatMap((q) => [q.bid, q.ask, q.mid, new Big(q.ask).minus(q.bid).toString()]).map((value) => new Big(value));
  const numbers = [...text.matchAll(NUMBER)].map((match) => match[0]);
  for (const number of numbers) expect(allowed.some((value) => value.eq(number)), `${number} in\n${text}`).toBe(true);
  for (const q of served.slice(0, count)) {
    expect(text).toMatch(new RegExp(`(^|\\s)${q.symbol}(\\s|$)`, 'm'));
    for (const price of [q.bid, q.ask]) expect(numbers.some((number) => new Big(number).eq(price)), `${price} whole in\n${text}`).toBe(true);
  }
  if (width === undefined) return;
  for (const line of lines) if ([...line].length > width) expect(line.trim(), `a line wider than ${width}`).not.toMatch(/\s/);
}

describe.skipIf(!HAS_SCRIPT)('narrow terminals, as a process (script)', () => {
  beforeAll(async () => {
    if (!fs.existsSync(path.join(ROOT, 'dist', 'cli', 'main.cjs'))) throw new Error('dist/ is not built: run npm run build (npm test does)');
    sandbox = await startTestSandbox();
    token = await cliLogin(sandbox.url);
    dir = tempDir('mkt-narrow-');
    const { text } = await getQuotes(sandbox.url, token, `symbols=${SYMBOLS.join(',')}`);
    // Read as text: JSON.parse would make 216.80 216.8.
    served = [...text.matchAll(/"symbol":"(\w+)","bid":([^,]+),"ask":([^,]+),"mid":([^,]+),/g)].map(([, symbol, bid, ask, mid]) => ({ symbol: symbol!, bid: bid!, ask: ask!, mid: mid! }));
    expect(served.map((q) => q.symbol)).toEqual(SYMBOLS);
  });
  afterAll(async () => {
    await sandbox?.close();
    if (dir !== undefined) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('0 columns (the terminal does not know): the table drawn whole, as in a pipe', async () => {
    const lines = (await inTerminal(0, SYMBOLS)).replace(SGR, '').split(/\r*\n/);
    expect(lines[1]!.split('│').map((cell) => cell.trim()).filter(Boolean)).toEqual(['Symbol', 'Bid', 'Ask', 'Mid', 'Spread', 'Age']);
    expectWhole(lines, undefined);
  });

  it('0 columns with COLUMNS=40: COLUMNS is the width, too narrow for the columns side by side', async () => {
    const lines = (await inTerminal(0, SYMBOLS, { COLUMNS: '40' })).replace(SGR, '').split(/\r*\n/);
    expect(lines[0]).toBe('EURUSD');
    expect(fieldTitles(lines)).toEqual(['Bid', 'Ask', 'Mid', 'Spread', 'Age']);
    expectWhole(lines, 40);
  });

  it('100 columns: the table, every column side by side', async () => {
    const lines = (await inTerminal(100, SYMBOLS)).replace(SGR, '').split(/\r*\n/);
    expect(lines[1]!.split('│').map((cell) => cell.trim()).filter(Boolean)).toEqual(['Symbol', 'Bid', 'Ask', 'Mid', 'Spread', 'Age']);
    expectWhole(lines, 100);
  });

  // A narrower terminal never shows fewer fields: where the table does not fit, each block has them all.
  it.each([8, 20, 30, 50])('%s columns: a block per quote, every field, every price whole', async (columns) => {
    const lines = (await inTerminal(columns, SYMBOLS)).replace(SGR, '').split(/\r*\n/);
    expect(lines[0]).toBe('EURUSD');
    expect(fieldTitles(lines)).toEqual(['Bid', 'Ask', 'Mid', 'Spread', 'Age']);
    expectWhole(lines, columns);
  });

  it.each([0, 8, 20, 30])('the board at %s columns: every price whole (0: taken as 80)', async (columns) => {
    const lines = lastFrame(await inTerminal(columns, [...SYMBOLS, '--watch', '--count', '1']));
    // The quotes, without the status line and the blank line above it.
    const quotes = lines.slice(0, lines.lastIndexOf(''));
    if (columns === 0) expect(quotes[0]).toMatch(/^Symbol +Bid +Ask +Mid +Spread +Age +Trend$/);
    else expect(quotes[0]).toMatch(/^EURUSD\b/);
    expectWhole(quotes, columns === 0 ? 79 : columns - 1);
  });

  // The board in windows where the columns do not fit side by side. 3 quotes' blocks with every field
  // take 3 x 6 lines and 2 between, with the status line and the blank above it 22 rows: they fit 45
  // rows, as in the one-shot table, and not 20, 10 or 5, where fields may go, named with how to see them.
  const FIELDS = ['Bid', 'Ask', 'Mid', 'Spread', 'Age'];
  it.each([
    [40, 20], [30, 45], [30, 10], [20, 10], [20, 5],
  ])('the board at %sx%s: every field shown or named, in words never cut', async (columns, rows) => {
    const lines = lastFrame(await inTerminal(columns, [...SYMBOLS, '--watch', '--count', '1'], {}, rows));
    const where = lines.join('\n');
    expect(lines.length, where).toBeLessThanOrEqual(rows);
    for (const line of lines) expect([...line].length, where).toBeLessThan(columns);
    const frame = readBoardFrame(lines, FIELDS);
    expect(frame.shown.length + frame.more, where).toBe(SYMBOLS.length);
    for (const [index, shown] of frame.shown.entries()) {
      expect(shown.lines[0], where).toMatch(new RegExp(`^${SYMBOLS[index]}\\b`));
      expect([...shown.titles, ...frame.named].sort(), where).toEqual([...FIELDS].sort());
    }
    expectWhole(frame.shown.flatMap((shown) => shown.lines), columns - 1, frame.shown.length);
    if (rows >= 22) {
      expect(frame.named, where).toEqual([]);
      expect(frame.shown.length, where).toBe(SYMBOLS.length);
    } else if (columns === 40) {
      // Blocks of Symbol, Bid, Ask and Mid take 3 x 4 lines and 2 between, 2 for the notice at 39
      // columns and 2 for the status line: 18 rows. Every quote is shown, Spread and Age at most hidden.
      expect(frame.shown.length, where).toBe(SYMBOLS.length);
      expect(frame.named.length, where).toBeLessThanOrEqual(2);
    } else if (frame.shown.length === 0) {
      // Not one quote fits: the line saying how many do not fit stands alone, no field is named.
      expect(frame.notice, where).toBeUndefined();
    }
  });
});
