// Cells a spreadsheet would run (OWASP's CSV injection): no market's symbol starts with =, +, - or
// @, so mkt refuses such a symbol wherever it reads one (arguments, --symbols, --symbols-file, a
// positions file: exit 2 naming it, before any request), leaves out a quote the service sends for
// one, and writes no CSV or TSV cell that starts so, but a number (a negative quantity or P&L).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../../helpers/cli.js';
import { sendTheseQuotes, useServers, type FaultServer } from '../../helpers/fault-server.js';
import { quote, quotesJson } from '../../helpers/quotes.js';

const servers = useServers();
/** Symbols a spreadsheet would run; a list of symbols splits at commas, so these have none. */
const FORMULAS = ['=HYPERLINK("http://evil.example/")', '@SUM(1)', '+1', '-1+2', '=cmd|\'/Ccalc\'!A0'];
/** What a spreadsheet would run: a cell that starts with =, +, - or @ and is not a number. */
const RUNS = /^[=+\-@](?!(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$)/;

/** Every cell of a CSV (RFC 4180, quoted cells unquoted) or TSV text. */
function cells(text: string, separator: ',' | '\t'): string[] {
  if (separator === '\t') return text.split('\n').flatMap((line) => line.split('\t'));
  const found: string[] = [];
  for (const line of text.split('\r\n')) {
    for (const match of line.matchAll(/(?:^|,)("(?:[^"]|"")*"|[^,]*)/g)) {
      const cell = match[1]!;
      found.push(cell.startsWith('"') ? cell.slice(1, -1).replaceAll('""', '"') : cell);
    }
  }
  return found;
}

/** A service that quotes what it is given, for the symbols asked for, and counts the requests. */
async function service(quotes = [quote('AAPL', '199.99', '200.01', '200.00'), quote('EURUSD')]): Promise<FaultServer> {
  return servers.start((req, res) => sendTheseQuotes(req, res, quotes));
}

const env = (server: FaultServer) => ({ MKT_BASE_URL: server.url, MKT_TOKEN: 'tok-formula-0123456789', MKT_ORG: 'org_demo' });

describe('a symbol that starts a formula is refused wherever mkt reads one', () => {
  it.each(FORMULAS)('mkt quotes %j: exit 2 naming it, from an argument, --symbols or --symbols-file, before any request', async (symbol) => {
    const server = await service();
    const file = path.join(tempDir(), 'symbols.txt');
    fs.writeFileSync(file, `EURUSD\n${symbol}\n`);
    // A symbol that starts with - is an argument after --, as for any command.
    for (const args of [['EURUSD', '--', symbol], ['--symbols', `EURUSD,${symbol}`], ['--symbols-file', file], ['--symbols-file', '-']]) {
      const result = await runCli(['quotes', '--format', 'csv', ...args], { env: env(server), stdin: `EURUSD\n${symbol}\n` });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toContain(`error: invalid symbol: ${JSON.stringify(symbol)}`);
      expect(result.stderr).toContain(': no market\'s symbol starts with =, +, - or @');
      expect(result.stdout).toBe('');
    }
    expect(server.requests).toHaveLength(0);
  });

  it.each([
    ['CSV', 'positions.csv', (symbol: string) => `symbol,quantity,currency\nAAPL,1,USD\n"${symbol.replaceAll('"', '""')}",2,USD\n`, 'line 3'],
    ['TSV', 'positions.tsv', (symbol: string) => `symbol\tquantity\tcurrency\nAAPL\t1\tUSD\n"${symbol.replaceAll('"', '""')}"\t2\tUSD\n`, 'line 3'],
    ['JSON', 'positions.json', (symbol: string) => JSON.stringify([{ symbol: 'AAPL', quantity: '1', currency: 'USD' }, { symbol, quantity: '2', currency: 'USD' }]), 'position 2 (line 1)'],
  ])('mkt value refuses it in a %s positions file: exit 2 naming the file, the line and the symbol, before any request', async (_kind, name, text, where) => {
    const server = await service();
    for (const symbol of FORMULAS) {
      const file = path.join(tempDir(), name);
      fs.writeFileSync(file, text(symbol));
      const result = await runCli(['value', file, '--base', 'USD', '--format', 'csv'], { env: env(server) });
      expect(result.code, symbol).toBe(2);
      expect(result.stderr).toBe(`error: ${file}, ${where}: symbol ${JSON.stringify(symbol)} is not a symbol: no market's symbol starts with =, +, - or @\n`);
      expect(result.stdout).toBe('');
    }
    expect(server.requests).toHaveLength(0);
  });

  it('mkt quotes --check refuses it in a check, before any request', async () => {
    const server = await service();
    const result = await runCli(['quotes', 'EURUSD', '--check', '@EURUSD.bid > 1'], { env: env(server) });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('"@EURUSD" is not a symbol: no market\'s symbol starts with =, +, - or @');
    expect(server.requests).toHaveLength(0);
  });
});

describe('no CSV or TSV cell mkt writes starts a formula', () => {
  it.each([['csv', ','], ['tsv', '\t']] as const)('%s: quotes the service sends for such symbols unasked are left out, with a warning', async (format, separator) => {
    // The service answers for every symbol it has, asked for or not.
    const server = await servers.start((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(quotesJson([quote('EURUSD'), ...FORMULAS.map((symbol) => quote(symbol))])));
    const result = await runCli(['quotes', 'EURUSD', '--format', format], { env: env(server) });
    expect(result.code).toBe(0);
    const written = cells(result.stdout, separator);
    expect(written.filter((cell) => RUNS.test(cell))).toEqual([]);
    expect(written).toContain('EURUSD');
    expect(result.stdout.split(separator === ',' ? '\r\n' : '\n').filter(Boolean)).toHaveLength(2);
    expect(result.stderr).toContain('warning: the service sent quotes for symbols not asked for');
  });

  it.each([['csv', ','], ['tsv', '\t']] as const)('%s: a negative quantity, value and P&L are written as the numbers they are', async (format, separator) => {
    const server = await service();
    const file = path.join(tempDir(), 'positions.csv');
    fs.writeFileSync(file, 'symbol,quantity,currency,cost\nAAPL,10,USD,300\nAAPL,-5,USD\n');
    const result = await runCli(['value', file, '--base', 'USD', '--format', format], { env: env(server) });
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.split(separator === ',' ? '\r\n' : '\n').map((line) => line.split(separator));
    // (200.00 - 300) × 10 = -1000.00; 200.00 × -5 = -1000.00.
    expect(lines[1]!.slice(0, 12)).toEqual(['position', 'AAPL', '10', 'USD', '200.00', '2000.00', '2000.00', '300', '', '-1000.00', '-1000.00', 'ok']);
    expect(lines[2]!.slice(0, 12)).toEqual(['position', 'AAPL', '-5', 'USD', '200.00', '-1000.00', '-1000.00', '', '', '', '', 'ok']);
    const negative = cells(result.stdout, separator).filter((cell) => cell.startsWith('-'));
    expect(negative.length).toBeGreaterThan(0);
    expect(cells(result.stdout, separator).filter((cell) => RUNS.test(cell))).toEqual([]);
  });
});
