// `mkt value --check` in-process against the sandbox (port 0, its clock fixed): decided exactly on
// the valuation (a position's figures and the totals, total_<currency> among them), the data
// written first and the same as without the check, exit 8 when one fails (the JSON error object
// with the checks under --json), --strict's 3 over 8, and a bad check refused with exit 2 before
// any request (the sandbox's request log stays empty). Expected values are worked here with big.js
// on the quotes the sandbox serves, read apart from the command.
import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import { createClient } from '../../../src/api/index.js';
import { runCli } from '../../helpers/cli.js';
import { useValueSandbox } from '../../helpers/value-sandbox.js';

const fixture = useValueSandbox('mkt-value-checks-');
const { log, file } = fixture;

const run = (argv: string[]) => runCli(['value', ...argv], { now: () => fixture.sb.clock.now(), env: { MKT_BASE_URL: fixture.sb.url, MKT_TOKEN: fixture.token, MKT_ORG: 'org_demo' } });


/** AAPL at a cost, and cash of 0.1 and 0.2 USD: 0.1 + 0.2 is 0.30000000000000004 in a double. */
const PORTFOLIO = 'symbol,quantity,currency,cost\nAAPL,10,USD,150\nUSD,0.1,USD\nUSD,0.2,USD\n';
const HINT = 'hint: the data written is as the service sent it; each check is decided on its exact digits';

/** AAPL's mid now, read through the sandbox's quotes endpoint, apart from the command. */
async function aaplMid(): Promise<string> {
  const { data } = await createClient({ baseUrl: fixture.sb.url, accessToken: fixture.token, organizationId: 'org_demo' }).getQuotes({ symbols: ['AAPL'] });
  return data[0]!.mid;
}

/** The figures of PORTFOLIO in USD, by big.js. */
async function expected() {
  const mid = await aaplMid();
  const aapl = new Big(mid).times(10);
  return { aapl: aapl.toFixed(), pnl: new Big(mid).minus(150).times(10).toFixed(), total: aapl.plus('0.1').plus('0.2').toFixed() };
}

describe('mkt value --check', () => {
  it('the float trap: a double makes 0.1 + 0.2 more than 0.3', () => {
    expect(0.1 + 0.2 === 0.3).toBe(false);
  });

  it('every check holds: exit 0, nothing on stderr, the data as without --check', async () => {
    const portfolio = file('portfolio.csv', PORTFOLIO);
    const { aapl, pnl, total } = await expected();
    const plain = await run([portfolio, '--base', 'USD', '--format', 'tsv']);
    const result = await run([portfolio, '--base', 'USD', '--format', 'tsv',
      '--check', `total_base == ${total}`, '--check', `total_usd == ${total}`, '--check', `AAPL.value == ${aapl}`,
      '--check', `AAPL.pnl == ${pnl}`, '--check', 'USD.value <= 0.2', '--check', 'value_base > 0']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(plain.stdout);
    expect(new Big(total).minus(aapl).eq('0.3')).toBe(true);
  });

  it('one fails: the data, then the failure with the exact value, exit 8', async () => {
    const portfolio = file('portfolio.csv', PORTFOLIO);
    const { aapl, total } = await expected();
    const plain = await run([portfolio, '--base', 'USD', '--format', 'csv']);
    const result = await run([portfolio, '--base', 'USD', '--format', 'csv', '--check', `total_base < ${total}`, '--check', `AAPL.value == ${aapl}`]);
    expect(result.code).toBe(8);
    expect(result.stdout).toBe(plain.stdout);
    expect(result.stderr.split('\n')).toEqual([expect.stringMatching(new RegExp(`^check failed: total_base is ${total.replace('.', '\\.')}0*, not < ${total.replace('.', '\\.')}$`)), 'error: 1 of 2 checks failed', HINT, '']);
  });

  it('a check on a position with no quote fails and says so', async () => {
    const portfolio = file('missing.csv', `${PORTFOLIO}NOSUCH,1,USD\n`);
    const result = await run([portfolio, '--base', 'USD', '--format', 'tsv', '--check', 'NOSUCH.value > 0', '--check', 'total_base > 0']);
    expect(result.code).toBe(8);
    expect(result.stderr).toContain('NOSUCH.value');
    expect(result.stderr).toMatch(/NOSUCH\.value[^\n]*no quote/);
    expect(result.stderr).toMatch(/total_base[^\n]*incomplete/);
    expect(result.stderr).toContain('error: 2 of 2 checks failed');
  });

  it('under --json: the JSON error object on stderr, the failed checks in it', async () => {
    const portfolio = file('portfolio.csv', PORTFOLIO);
    const { aapl } = await expected();
    const result = await run([portfolio, '--base', 'USD', '--json', '--check', 'AAPL.value > 1000000']);
    expect(result.code).toBe(8);
    expect(JSON.parse(result.stdout)).toMatchObject({ base: 'USD', incomplete: false });
    const { error } = JSON.parse(result.stderr) as { error: Record<string, unknown> & { checks: Array<Record<string, unknown>> } };
    expect(error).toMatchObject({ code: 'CHECK_FAILED', exit_code: 8 });
    expect(error.checks).toHaveLength(1);
    expect(error.checks[0]).toMatchObject({ expression: 'AAPL.value > 1000000', symbol: 'AAPL', field: 'value', op: '>', expected: '1000000', reason: 'not_met' });
    expect(new Big(error.checks[0]!.actual as string).eq(aapl)).toBe(true);
  });
});

describe('--strict and --check', () => {
  const incomplete = () => file('incomplete.csv', `${PORTFOLIO}NOSUCH,1,USD\n`);

  it('both fail: exit 3, the failed check reported with it', async () => {
    const result = await run([incomplete(), '--base', 'USD', '--format', 'tsv', '--strict', '--check', 'AAPL.value < 1']);
    expect(result.code).toBe(3);
    const lines = result.stderr.split('\n');
    expect(lines[0]).toMatch(/^check failed: AAPL\.value is [\d.]+, not < 1$/);
    expect(lines[1]).toMatch(/^error: no quote for 1 of 2 symbols: NOSUCH/);
  });

  it('both fail under --json: code INCOMPLETE, exit_code 3, the checks in it', async () => {
    const result = await run([incomplete(), '--base', 'USD', '--json', '--strict', '--check', 'AAPL.value < 1']);
    expect(result.code).toBe(3);
    const { error } = JSON.parse(result.stderr) as { error: { code: string; exit_code: number; checks: Array<{ expression: string }> } };
    expect(error).toMatchObject({ code: 'INCOMPLETE', exit_code: 3 });
    expect(error.checks.map((check) => check.expression)).toEqual(['AAPL.value < 1']);
  });

  it('--strict satisfied, a check failed: exit 8', async () => {
    const result = await run([file('portfolio.csv', PORTFOLIO), '--base', 'USD', '--format', 'tsv', '--strict', '--check', 'AAPL.value < 1']);
    expect(result.code).toBe(8);
  });
});

describe('refused before any request, exit 2', () => {
  it.each([
    [['--check', 'total_base'], 'error: --check "total_base": it has no operator'],
    [['--check', 'AAPL.valu > 1'], 'error: --check "AAPL.valu > 1": unknown field "valu"; the fields of each row: quantity, price, value, rate, value_base, cost, pnl, pnl_base; of the whole result: total_base, total_pnl_base, total_usd'],
    [['--check', 'total_eur > 1'], 'error: --check "total_eur > 1": unknown field "total_eur"'],
    [['--check', 'MSFT.value > 1'], 'error: --check "MSFT.value > 1": MSFT is not among the symbols asked for'],
    [['--check', 'total_base > 2m'], 'error: --check "total_base > 2m": total_base is a decimal, not a duration'],
    [['--check', 'value > 1.2.3'], 'error: --check "value > 1.2.3": "1.2.3" is not a decimal'],
    [['--until', 'total_base > 1'], 'error: --until only applies with --watch: it ends a watch when the condition holds'],
    [['--exec', 'true'], 'error: --exec runs a program when --until holds: it needs --watch and --until'],
    [['--watch', '--check', 'total_base > 1'], 'error: --check cannot be used with --watch: a watch has no single result to judge'],
    [['--watch', '--until', 'MSFT.value > 1'], 'error: --until "MSFT.value > 1": MSFT is not among the symbols asked for'],
    [['--count', '2'], 'error: --interval and --count only apply with --watch'],
  ])('%j', async (flags, first) => {
    const result = await run([file('portfolio.csv', PORTFOLIO), '--base', 'USD', ...flags]);
    expect(result.stderr.split('\n')[0]).toContain(first);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    // Not even a token request: nothing reached the sandbox.
    expect(log).toEqual([]);
  });

  it.each([
    ['AAPL > 1', 'a check on one symbol names a field after the symbol: AAPL.value_base > 1'],
    ['AAPL.bid > 1', 'for example AAPL.value_base > 1'],
  ])('an unknown field in %j: the hint names a position field (%s)', async (expression, hint) => {
    const result = await run([file('portfolio.csv', PORTFOLIO), '--base', 'USD', '--check', expression]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`^error: --check "${expression.replaceAll('.', '\\.')}": unknown field .*\nhint: ${hint.replaceAll('.', '\\.')}\n$`));
    expect(log).toEqual([]);
  });
});
