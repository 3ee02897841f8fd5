// Help that says what mkt does (issue 35 item 7): `mkt value --help`'s --check option and examples
// name a valuation's fields, not a quote's, and no example passes the total through jq, which loses
// digits (jq 1.6); every example of every help page runs in test/cli/help-examples.test.ts. `mkt help
// environment` names every command MKT_FORMAT acts on. A symbol written EUR/USD is answered with
// EURUSD, by `mkt quotes` and by mkt mcp's check_quotes.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../../helpers/cli.js';
import { helpExamples, helpPage } from '../../helpers/help.js';
import { getToken, startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';
import { errorText, startMcp, structured } from '../../helpers/mcp-process.js';

let sb: TestSandbox;
let env: Record<string, string>;
let dir: string;
beforeAll(async () => {
  sb = await startTestSandbox({ limits: { perMinute: 1000 } });
  env = { MKT_BASE_URL: sb.url, MKT_TOKEN: await getToken(sb.url), MKT_ORG: 'org_demo', MKT_CONFIG_DIR: path.join(tempDir(), 'config') };
  dir = tempDir('mkt-value-help-');
  fs.writeFileSync(path.join(dir, 'portfolio.csv'), 'symbol,quantity,currency,cost\nAAPL,10,USD,150\nSAP.DE,20,EUR\nNOSUCH,1,USD\nEUR,2500.75,EUR\n');
});
afterAll(async () => {
  await sb.close();
  fs.rmSync(path.dirname(env.MKT_CONFIG_DIR!), { recursive: true, force: true });
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('mkt value --help', () => {
  it('names no quote field, and passes no total through jq', async () => {
    const { text } = await helpPage(['value']);
    const check = /--check <expr>\s+([\s\S]*?)\n {2}--/.exec(text)![1]!.replace(/\s+/g, ' ');
    expect(check).toBe("exit 8 unless [SYMBOL.]FIELD OP VALUE holds, e.g. 'total_base >= 10000' or 'AAPL.pnl > 0' (repeatable: all must hold)");
    expect(text.replace(/\s+/g, ' ')).toContain('the triggering values in MKT_SYMBOL, MKT_VALUE_BASE, …');
    expect(text).not.toMatch(/EURUSD|MKT_BID|spread_bps/);
    for (const { command } of (await helpExamples()).filter((example) => example.page === 'mkt value --help')) expect(command).not.toMatch(/jq [^|]*total_base/);
    // mkt quotes keeps its own.
    expect((await helpPage(['quotes'])).text.replace(/\s+/g, ' ')).toContain("e.g. 'EURUSD.bid > 1.08' or 'spread_bps < 5'");
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
