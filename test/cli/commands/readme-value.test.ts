// The README's `mkt value` example, run as written against the sandbox at the instant it names
// (6 January 2025, 14:30:15.250 UTC: the test sandbox's epoch): the output must be the README's, byte
// for byte, and each figure in it must be what the test works out itself from the sandbox's quotes.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../../src/api/index.js';
import { ROOT } from '../../helpers/bin.js';
import { runCli, tempDir } from '../../helpers/cli.js';
import { mul, rat, roundPlaces, same, sub, sum } from '../../helpers/decimal-oracle.js';
import { getToken, startTestSandbox, TEST_EPOCH, type TestSandbox } from '../../helpers/sandbox.js';

const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const start = readme.indexOf('### `mkt value`\n');
const section = readme.slice(start, readme.indexOf('\n### ', start + 1));
const example = /```sh\n\$ cat portfolio\.csv\n([\s\S]*?)\$ mkt (value [^\n]*)\n([\s\S]*?)\$ mkt (value [^\n]*)\n([\s\S]*?)```/.exec(section);

let sb: TestSandbox;
let token: string;
let dir: string;
beforeAll(async () => {
  sb = await startTestSandbox();
  token = await getToken(sb.url);
  dir = tempDir('mkt-readme-value-');
});
afterAll(async () => {
  await sb.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function runExample(command: string): Promise<string> {
  const file = path.join(dir, 'portfolio.csv');
  fs.writeFileSync(file, example![1]!);
  const argv = command.split(' ').map((word) => (word === 'portfolio.csv' ? file : word));
  const result = await runCli(argv, { now: () => sb.clock.now(), env: { MKT_BASE_URL: sb.url, MKT_TOKEN: token, MKT_ORG: 'org_demo' } });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return result.stdout;
}

describe("the README's mkt value example", () => {
  it('is there, at the sandbox epoch the test runs it at', () => {
    expect(example).not.toBeNull();
    expect(new Date(TEST_EPOCH).toISOString()).toBe('2025-01-06T14:30:15.250Z');
    expect(section).toContain('on 6 January 2025 at 14:30:15 UTC');
  });

  it('prints what the README shows', async () => {
    if (process.env.MKT_PRINT_README_VALUE) {
      process.stderr.write(`${await runExample(example![2]!)}\n---\n${await runExample(example![4]!)}`);
    }
    expect(await runExample(example![2]!)).toBe(example![3]);
    // CSV's CRLF line ends, as the README's LF ones.
    expect((await runExample(example![4]!)).replaceAll('\r\n', '\n')).toBe(example![5]);
  });

  it("has each figure the test works out from the sandbox's quotes at that instant, rounded once to its currency's minor units", async () => {
    const { data } = await createClient({ baseUrl: sb.url, accessToken: token, organizationId: 'org_demo' }).getQuotes({ symbols: ['AAPL', 'VOD.L', 'SAP.DE', 'GBPUSD', 'EURUSD'] });
    const mid = (symbol: string) => data.find((quote) => quote.symbol === symbol)!.mid;
    // One USD is 1; a penny is GBPUSD / 100; a euro is EURUSD: direct pairs, so every figure exact.
    const rate: Record<string, string> = { USD: '1', GBX: mul(mid('GBPUSD'), '0.01'), EUR: mid('EURUSD') };
    // Minor units: cents for USD and EUR, whole pence.
    const minor: Record<string, number> = { USD: 2, GBX: 0, EUR: 2 };
    const lots = example![1]!.trim().split('\n').slice(1).map((line) => line.split(','));
    const expected = lots.map(([symbol, quantity, currency, cost]) => {
      const price = symbol === currency ? '1' : mid(symbol!);
      const value = mul(price, quantity!);
      const pnl = cost ? mul(sub(price, cost), quantity!) : '';
      return { symbol, quantity, currency, price, value, valueBase: mul(value, rate[currency!]!), cost: cost ?? '', pnl, pnlBase: pnl && mul(pnl, rate[currency!]!) };
    });
    const rows = example![3]!.split('\n').filter((line) => /^│ \S/.test(line) && !line.startsWith('│ Symbol') && !line.startsWith('│ Total'));
    // The cells as written, thousands separators taken out.
    const cells = rows.map((line) => line.split('│').slice(1, -1).map((cell) => cell.trim().replaceAll(',', '')));
    const positions = cells.slice(0, lots.length);
    const round = (text: string, places: number) => roundPlaces(rat(text), places);
    positions.forEach(([symbol, quantity, currency, price, value, valueBase, cost, pnl, pnlBase], i) => {
      const e = expected[i]!;
      expect([symbol, quantity, currency, price, cost]).toEqual([e.symbol, e.quantity, e.currency, e.price, e.cost]);
      expect(value).toBe(round(e.value, minor[e.currency!]!));
      expect(valueBase).toBe(round(e.valueBase, 2));
      if (e.pnl !== '') expect([pnl, pnlBase]).toEqual([round(e.pnl, minor[e.currency!]!), round(e.pnlBase, 2)]);
    });
    // The total in USD: the exact total, rounded once.
    const all = cells.find(([first]) => first === 'all in USD')!;
    expect(all[3]).toBe(round(sum(expected.map((e) => e.valueBase)), 2));
    expect(all[5]).toBe(round(sum(expected.filter((e) => e.pnlBase !== '').map((e) => e.pnlBase)), 2));
    const eur = cells.slice(lots.length).find(([first]) => first === 'EUR')!;
    expect(eur.slice(1, 3)).toEqual([rate.EUR, round(sum(expected.filter((e) => e.currency === 'EUR').map((e) => e.value)), 2)]);
    // The CSV at full: the exact total, as the tests' own sum writes it.
    const csvTotal = example![5]!.trim().split('\n').at(-1)!.split(',');
    expect(csvTotal.slice(0, 4)).toEqual(['total_base', '', 'USD', '']);
    expect(same(csvTotal[4]!, sum(expected.map((e) => e.valueBase)))).toBe(true);
    expect(csvTotal[5]).toBe('ok');
  });
});


describe("the README's mkt value --check example", () => {
  const check = /```sh\n\$ mkt (value [^\n]*--check[^\n]*)\n([\s\S]*?)\$ echo \$\?\n(\d+)\n```/.exec(section);

  it('prints the data, then the failed check, and exits with the code the README shows', async () => {
    expect(check).not.toBeNull();
    const [, command, shown, code] = check!;
    const file = path.join(dir, 'portfolio.csv');
    fs.writeFileSync(file, example![1]!);
    // The quoted expressions as a shell would pass them: each '...' one argument.
    const argv = command!.match(/'[^']*'|\S+/g)!.map((word) => (word === 'portfolio.csv' ? file : word.replace(/^'|'$/g, '')));
    const result = await runCli(argv, { now: () => sb.clock.now(), env: { MKT_BASE_URL: sb.url, MKT_TOKEN: token, MKT_ORG: 'org_demo' } });
    expect(`${result.stdout.replaceAll('\r\n', '\n')}${result.stderr}`).toBe(shown);
    expect(String(result.code)).toBe(code);
    expect(code).toBe('8');
    // The value it names is the total of the data above it, and below 10,000 by the test's own comparison.
    const total = /^total_base,USD,(.*)$/m.exec(shown!)![1]!;
    expect(shown).toContain(`check failed: total_base is ${total}, not >= 10000\n`);
    expect(sub(total, '10000').startsWith('-')).toBe(true);
  });
});
