import { describe, expect, it } from 'vitest';
import { normalizeSymbols, parseSymbolsText } from '../../../src/cli/options/symbols.js';
import { parseDuration } from '../../../src/shared/duration.js';
import { parseInteger } from '../../../src/shared/integer.js';
import fs from 'node:fs';
import path from 'node:path';
import { runCli, tempDir } from '../../helpers/cli.js';

describe('symbols', () => {
  it('trims, upper-cases and de-duplicates in first-seen order', () => {
    expect(normalizeSymbols([' eurusd', 'AAPL', 'EURUSD ', '', 'aapl', 'msft'])).toEqual(['EURUSD', 'AAPL', 'MSFT']);
  });

  it('reads files one per line or comma-separated, with # comments', () => {
    expect(parseSymbolsText('# watchlist\nEURUSD, GBPUSD\r\nAAPL # apple\n\n  spy  \n')).toEqual(['', 'EURUSD', ' GBPUSD', 'AAPL ', '', '  spy  ', '']);
    expect(normalizeSymbols(parseSymbolsText('# watchlist\nEURUSD, GBPUSD\r\nAAPL # apple\n\n  spy  \n'))).toEqual(['EURUSD', 'GBPUSD', 'AAPL', 'SPY']);
  });

  it.each([
    ['a control character', 'EUR\u0007USD'],
    ['an escape sequence', '\u001b[2J'],
    ['an inner space', 'EUR USD'],
    ['33 characters', 'A'.repeat(33)],
    // What the sandbox refuses (anything but visible ASCII) is refused here first, by the same pattern.
    ['a zero-width space', 'A\u200bB'],
    ['a bidi override', 'AB\u202eC'],
    ['a letter that upper-cases to ASCII', 'ﬀ'],
    ['a non-breaking space inside', 'EUR\u00a0USD'],
  ])('refuses %s and names it', (_name, symbol) => {
    expect(() => normalizeSymbols(['AAPL', symbol])).toThrow(/invalid symbol/);
  });

  it.each(['=1+1', '+A', '-B', '@SUM(1)', ' =HYPERLINK("http://x")'])('refuses %j, which a spreadsheet would take for a formula, naming it and the rule', (symbol) => {
    expect(() => normalizeSymbols(['AAPL', symbol])).toThrow(expect.objectContaining({
      message: `invalid symbol: ${JSON.stringify(symbol.trim())}: no market's symbol starts with =, +, - or @`,
      hint: 'a symbol is 1 to 32 visible ASCII characters (letters, digits and punctuation, no spaces), not starting with =, +, - or @',
    }));
  });

  it('accepts =, +, - and @ after the first character', () => {
    expect(normalizeSymbols(['BRK-B', 'A=B', 'X+Y@Z'])).toEqual(['BRK-B', 'A=B', 'X+Y@Z']);
  });

  it('accepts 32 characters', () => {
    expect(normalizeSymbols(['a'.repeat(32)])).toEqual(['A'.repeat(32)]);
  });
});

describe('durations and counts', () => {
  it.each([
    ['500ms', 500], ['2s', 2000], ['1m', 60_000], ['30', 30_000], ['1.5', 1500], ['1h', 3_600_000],
  ])('%s is %i ms', (text, ms) => {
    expect(parseDuration(text, '--max-age')).toBe(ms);
  });

  it.each(['', 'abc', '-1s', '2 days', '1e3', '25h'])('refuses %j', (text) => {
    expect(() => parseDuration(text, '--max-age')).toThrow(/--max-age/);
  });

  it('counts', () => {
    expect(parseInteger('4', '--batch-size', { min: 1 })).toBe(4);
    expect(() => parseInteger('0', '--batch-size', { min: 1 })).toThrow(/at least 1/);
    expect(() => parseInteger('1.5', '--batch-size')).toThrow(/whole number/);
  });
});

describe('symbols files without a size', () => {
  it.each([
    ['/dev/zero', /--symbols-file \/dev\/zero is larger than 16 MiB/],
    ['/nonexistent/list.txt', /cannot read --symbols-file \/nonexistent\/list\.txt: no such file/],
    ['/', /cannot read --symbols-file \/: it is a directory/],
  ])('%s ends with exit 2 naming the limit or the reason', async (file, message) => {
    const { code, stderr, stdout } = await runCli(['quotes', '--symbols-file', file], { env: { MKT_BASE_URL: 'http://127.0.0.1:9', MKT_TOKEN: 't0k3n', MKT_ORG: 'org_demo' } });
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(stdout).toBe('');
  });
});

describe('symbols files with a size', () => {
  it('refuses a file larger than 16 MiB before reading it', async () => {
    const dir = tempDir();
    try {
      const file = path.join(dir, 'huge.txt');
      // Sparse: 16 MiB and one byte of nothing, made at once.
      fs.writeFileSync(file, '');
      fs.truncateSync(file, 16 * 1024 * 1024 + 1);
      const { code, stderr, stdout } = await runCli(['quotes', '--symbols-file', file], { env: { MKT_BASE_URL: 'http://127.0.0.1:9', MKT_TOKEN: 't0k3n', MKT_ORG: 'org_demo' } });
      expect(code).toBe(2);
      expect(stderr).toContain(`--symbols-file ${file} is larger than 16 MiB`);
      expect(stdout).toBe('');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
