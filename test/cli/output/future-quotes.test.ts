// Quotes from the future: a timestamp more than the clock-skew allowance (10 s) ahead of this
// machine's clock is not a latest quote. The sandbox's clock is set ahead of the clock mkt is given,
// as a service whose clock runs fast would be: the table's Age reads `future`, a warning names the
// symbol, and --strict fails with exit 3, with or without --max-age.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';
import { cliLogin, startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';

const HOUR = 3_600_000;
/** 23 hours ahead, and some: the sandbox's quotes are stamped at their last tick, a little before its clock. */
const AHEAD = 23 * HOUR + 30_000;
let sandbox: TestSandbox;
let token: string;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  token = await cliLogin(sandbox.url);
});
afterAll(() => sandbox.close());

/** mkt quotes with its clock `behindMs` behind the sandbox's. */
const quotes = (args: string[], behindMs: number, tty = false) => runCli(['quotes', 'EURUSD', 'AAPL', ...args], {
  now: () => sandbox.clock.now() - behindMs,
  stdoutIsTTY: tty,
  env: { MKT_BASE_URL: sandbox.url, MKT_TOKEN: token, MKT_ORG: 'org_demo', NO_COLOR: '1' },
});

describe('a timestamp ahead of the clock', () => {
  it('23 hours ahead: Age reads future, the Note says by how much, a warning names the symbols, exit 0', async () => {
    // In a pipe, drawn whole: on a narrow terminal Age is the first column to go, and the Note says it too.
    const result = await quotes(['--format', 'table'], AHEAD);
    expect(result.code).toBe(0);
    const row = result.stdout.split('\n').find((line) => line.includes('EURUSD'))!;
    expect(row).toMatch(/│ future │ timestamp is 23h in the future │$/);
    expect(result.stderr).toBe("warning: 2 quotes from the future (timestamp more than 10s ahead of this machine's clock): EURUSD (23h ahead), AAPL (23h ahead)\n");
  });

  it.each([
    ['--strict', ['--strict']],
    ['--strict --max-age 30s', ['--strict', '--max-age', '30s']],
  ])('%s: exit 3, naming the symbols, the data written first', async (_name, args) => {
    const result = await quotes(['--format', 'csv', ...args], AHEAD);
    expect(result.code).toBe(3);
    expect(result.stdout).toMatch(/^symbol,bid,ask,mid,timestamp\r\nEURUSD,/);
    expect(result.stderr).toMatch(/^error: 2 quotes from the future \(timestamp more than 10s ahead of this machine's clock\): EURUSD \(23h ahead\), AAPL \(23h ahead\)\n/);
  });

  it('within the allowance (5 s ahead): fresh, no warning, --strict --max-age 30s passes', async () => {
    const result = await quotes(['--format', 'table', '--strict', '--max-age', '30s'], 5000, true);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain('future');
    expect(result.stdout.split('\n').find((line) => line.includes('EURUSD'))).toMatch(/│ +0s │$/);
  });
});
