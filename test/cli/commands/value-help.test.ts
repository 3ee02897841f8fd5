// Help that does what it says (issue 35 item 7): `mkt value --help`'s examples run as written against
// the sandbox (those that end; a watch's are left to the watch's tests) and print what they say: the
// awk example the total, not the cost column; its --check examples and option name a valuation's
// fields, not a quote's; no example passes the total through jq, which loses digits (jq 1.6). `mkt
// help environment` names every command MKT_FORMAT acts on. A symbol written EUR/USD is answered
// with EURUSD, by `mkt quotes` and by mkt mcp's check_quotes.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'lossless-json';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MKT_SH, runBin } from '../../helpers/bin.js';
import { runCli, tempDir } from '../../helpers/cli.js';
import { helpPage } from '../../helpers/help.js';
import { getToken, startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';
import { errorText, startMcp, structured } from '../../helpers/mcp-process.js';
import { SCHWAB } from '../../helpers/broker-exports.js';

let sb: TestSandbox;
let env: Record<string, string>;
let dir: string;
beforeAll(async () => {
  sb = await startTestSandbox({ limits: { perMinute: 1000 } });
  env = { MKT_BASE_URL: sb.url, MKT_TOKEN: await getToken(sb.url), MKT_ORG: 'org_demo', MKT_CONFIG_DIR: path.join(tempDir(), 'config') };
  dir = tempDir('mkt-value-help-');
  // The files the examples name.
  const files: Record<string, string> = {
    'portfolio.csv': 'symbol,quantity,currency,cost\nAAPL,10,USD,150\nSAP.DE,20,EUR\nNOSUCH,1,USD\nEUR,2500.75,EUR\n',
    'portfolio.tsv': 'symbol\tquantity\tcurrency\nAAPL\t10\tUSD\n',
    'positions.csv': SCHWAB,
    'depot.csv': 'Ticker;Name;Stück;Währung;Einstandskurs\nSAP.DE;SAP SE;1.250;EUR;180,50\n',
    'holdings.json': '[{"symbol": "AAPL", "quantity": "10"}, {"symbol": "VOD.L", "quantity": 100, "currency": "GBX"}]',
  };
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
});
afterAll(async () => {
  await sb.close();
  fs.rmSync(path.dirname(env.MKT_CONFIG_DIR!), { recursive: true, force: true });
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The `$ mkt value ...` lines of the help, as written. */
async function examples(): Promise<string[]> {
  const { text } = await helpPage(['value']);
  return text.split('\n').filter((line) => line.startsWith('  $ mkt value')).map((line) => line.slice('  $ '.length).replace(/\s+#.*$/, ''));
}

/** An example run by sh in the scratch directory, `mkt` the built bin. */
async function shell(example: string): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)('sh', ['-c', example.replace(/^mkt /, `${MKT_SH} `)], { cwd: dir, env: { ...env, PATH: process.env.PATH! }, encoding: 'utf8' });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const jq = (() => {
  try {
    return fs.statSync('/usr/bin/jq').isFile();
  } catch {
    return false;
  }
})();

describe('mkt value --help: its examples', () => {
  it('name no quote field, pass no total through jq, and print no column by number that is not the total', async () => {
    const { text } = await helpPage(['value']);
    const check = /--check <expr>\s+([\s\S]*?)\n {2}--/.exec(text)![1]!.replace(/\s+/g, ' ');
    expect(check).toBe("exit 8 unless [SYMBOL.]FIELD OP VALUE holds, e.g. 'total_base >= 10000' or 'AAPL.pnl > 0' (repeatable: all must hold)");
    expect(text.replace(/\s+/g, ' ')).toContain('the triggering values in MKT_SYMBOL, MKT_VALUE_BASE, …');
    expect(text).not.toMatch(/EURUSD|MKT_BID|spread_bps/);
    for (const example of await examples()) expect(example).not.toMatch(/jq [^|]*total_base/);
    // mkt quotes keeps its own.
    expect((await helpPage(['quotes'])).text.replace(/\s+/g, ' ')).toContain("e.g. 'EURUSD.bid > 1.08' or 'spread_bps < 5'");
  });

  it('the awk example prints the total in the base, every digit of it, the same as --json\'s', async () => {
    const awk = (await examples()).find((example) => example.includes('awk') && !example.includes('--watch'))!;
    expect(awk).toBe("mkt value portfolio.csv --base EUR --price side --format tsv --fields row,value_base | awk -F'\\t' '$1 == \"total_base\" {print $2}'");
    const printed = await shell(awk);
    expect(printed.code).toBe(0);
    const json = await runBin(['value', path.join(dir, 'portfolio.csv'), '--base', 'EUR', '--price', 'side', '--json'], { env });
    const total = (parse(json.stdout, null, (number: string) => number) as { total_base: string }).total_base;
    // A cross or inverse rate has 34 significant digits: more than a double, and jq 1.6, keep.
    expect(total.replace(/\D/g, '').length).toBeGreaterThan(17);
    expect(printed.stdout).toBe(`${total}\n`);
  });

  it('each example that ends runs as written: exit 0, or 8 for a check that fails', async () => {
    const ends = (await examples()).filter((example) => !example.includes('--watch') && !(example.includes('jq') && !jq));
    expect(ends.length).toBeGreaterThanOrEqual(7);
    for (const example of ends) {
      const result = await shell(example);
      // NOSUCH has no quote: the totals are incomplete, so a check on total_base fails (exit 8); portfolio.tsv is whole.
      const expected = example.includes('--check') ? 8 : 0;
      expect({ example, code: result.code }).toEqual({ example, code: expected });
      expect(result.stderr).not.toMatch(/^error: .*(unknown|not among|refused)/m);
    }
    if (jq) expect((await shell("mkt value portfolio.csv --base USD --json | jq -r '.missing[]'")).stdout).toBe('NOSUCH\n');
    expect(fs.readFileSync(path.join(dir, 'valued.csv'), 'utf8').split('\r\n')[0]).toBe('row,symbol,quantity,currency,price,value,value_base,cost,cost_total,pnl,pnl_base,status,timestamp,reason');
  });
});

describe('mkt help environment', () => {
  it('says MKT_FORMAT is the default of mkt quotes and mkt value, and of their errors; mkt value reads it', async () => {
    const { stdout } = await runCli(['help', 'environment']);
    expect(stdout).toMatch(/\n {2}MKT_FORMAT +the default output format of mkt quotes and mkt value, --watch included \(and so of their errors: JSON with json or ndjson\)\n/);
    const result = await runCli(['value', path.join(dir, 'portfolio.csv'), '--base', 'USD'], { env: { ...env, MKT_FORMAT: 'ndjson' }, now: () => sb.clock.now() });
    expect(JSON.parse(result.stdout.split('\n')[0]!)).toMatchObject({ row: 'position', symbol: 'AAPL' });
    const refused = await runCli(['value', path.join(dir, 'nothing.csv'), '--base', 'USD'], { env: { ...env, MKT_FORMAT: 'json' } });
    expect(JSON.parse(refused.stderr)).toMatchObject({ error: { exit_code: 2 } });
  });
});

describe('EUR/USD: the service writes EURUSD, and mkt says so', () => {
  const quotes = (argv: string[]) => runCli(['quotes', ...argv], { env, now: () => sb.clock.now() });

  it('mkt quotes: the missing symbol\'s warning, and --strict\'s error, give the spelling; a check naming one spelling for the other asks', async () => {
    const warned = await quotes(['EUR/USD', 'gbp-usd', 'AAPL']);
    expect(warned.code).toBe(0);
    expect(warned.stderr).toBe('warning: no quote for 2 of 3 symbols: EUR/USD, GBP-USD (an FX pair is six letters, no separator: EURUSD, not EUR/USD; GBPUSD, not GBP-USD)\n');
    const strict = await quotes(['EUR/USD', '--strict']);
    expect(strict.code).toBe(3);
    expect(strict.stderr).toMatch(/^error: no quote for 1 of 1 symbol: EUR\/USD \(an FX pair is six letters, no separator: EURUSD, not EUR\/USD\)\n/);
    const check = await quotes(['EURUSD', '--check', 'EUR/USD.bid > 1']);
    expect(check.code).toBe(2);
    expect(check.stderr).toContain('hint: did you mean EURUSD? an FX pair is six letters, no separator: EURUSD, not EUR/USD; the symbols asked for: EURUSD');
    const asked = await quotes(['EUR/USD', '--check', 'EURUSD.bid > 1']);
    expect(asked.stderr).toContain('hint: ask for EURUSD: an FX pair is six letters, no separator: EURUSD, not EUR/USD; the symbols asked for: EUR/USD');
    // Not a pair: no spelling offered.
    expect((await quotes(['BRK/B'])).stderr).toBe('warning: no quote for 1 of 1 symbol: BRK/B\n');
  });

  it('mkt mcp\'s check_quotes: its error, and its failed check, give the spelling', async () => {
    const server = await startMcp(env);
    try {
      const refused = errorText(await server.call('check_quotes', { symbols: ['EURUSD'], checks: ['EUR/USD.bid > 1'] }));
      expect(refused).toContain('hint: did you mean EURUSD? an FX pair is six letters, no separator: EURUSD, not EUR/USD;');
      const answered = structured<{ held: boolean; message: string; checks: Array<{ results: Array<{ message?: string }> }> }>(await server.call('check_quotes', { symbols: ['EUR/USD'], checks: ['bid > 1'] }));
      expect(answered.held).toBe(false);
      expect(answered.checks[0]!.results[0]!.message).toBe('EUR/USD has no quote (an FX pair is six letters, no separator: EURUSD, not EUR/USD), so EUR/USD.bid > 1 fails');
    } finally {
      await server.close();
    }
  });
});
