// `mkt quotes --check`, end to end through main against a purpose-built server that sends the long
// literals the sandbox never would: decided exactly (a double decides each of these the other
// way), the data written first in the chosen format, the failures after it, exit 8; --strict's 3
// when both fail; refused before any request, exit 2.
import { describe, expect, it } from 'vitest';
import type { Quote } from '../../../src/api/index.js';
import { runCli, type TestDepsOptions } from '../../helpers/cli.js';
import { sendTheseQuotes, useServers, type FaultServer } from '../../helpers/fault-server.js';

const servers = useServers();

const AT = '2026-01-05T14:30:15.250Z';
/** Two seconds after the quotes' timestamp. */
const NOW = Date.parse(AT) + 2000;
const BID = '1.084150000000000001';
const ASK = '1.084170000000000003';
const MID = '1.084160000000000002';
const QUOTES: Quote[] = [
  { symbol: 'EURUSD', bid: BID, ask: ASK, mid: MID, timestamp: AT },
  { symbol: 'AAPL', bid: '227.10', ask: '227.14', mid: '227.12', timestamp: AT },
];

async function quotesServer(): Promise<FaultServer> {
  return servers.start((req, res) => sendTheseQuotes(req, res, QUOTES));
}

async function quotes(server: FaultServer, args: string[], options: TestDepsOptions = {}) {
  return runCli(['quotes', ...args], {
    now: () => NOW, ...options, env: { MKT_BASE_URL: server.url, MKT_TOKEN: 'scripted-token', MKT_ORG: 'org_demo', ...options.env },
  });
}

const TSV = `symbol\tbid\task\tmid\ttimestamp\nEURUSD\t${BID}\t${ASK}\t${MID}\t${AT}\nAAPL\t227.10\t227.14\t227.12\t${AT}\n`;
const HINT = 'the data written is as the service sent it; each check is decided on its exact digits';

describe('the issue\'s literals, decided exactly', () => {
  it('a double decides both the other way', () => {
    expect(Number(BID) > Number('1.0841500000000000009')).toBe(false);
    expect(Number(ASK) - Number(BID) <= Number('0.000020000000000002')).toBe(false);
  });

  it('EURUSD.bid > 1.0841500000000000009 and spread <= 0.000020000000000002 hold: exit 0, the data, nothing on stderr', async () => {
    const server = await quotesServer();
    const result = await quotes(server, ['EURUSD', 'AAPL', '--format', 'tsv', '--check', 'EURUSD.bid > 1.0841500000000000009', '--check', 'EURUSD.spread <= 0.000020000000000002']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(TSV);
    expect(server.requests).toHaveLength(1);
  });

  it('their opposites fail, naming the exact values: the spread is 0.000020000000000002 exactly', async () => {
    const server = await quotesServer();
    // ask - bid by hand: 1.084170000000000003 - 1.084150000000000001.
    const spread = '0.000020000000000002';
    const result = await quotes(server, ['EURUSD', '--format', 'tsv', '--check', 'EURUSD.bid <= 1.0841500000000000009', '--check', `spread < ${spread}`, '--check', `spread == ${spread}`]);
    expect(result.code).toBe(8);
    expect(result.stdout).toBe(`symbol\tbid\task\tmid\ttimestamp\nEURUSD\t${BID}\t${ASK}\t${MID}\t${AT}\n`);
    expect(result.stderr).toBe([
      `check failed: EURUSD.bid is ${BID}, not <= 1.0841500000000000009`,
      `check failed: EURUSD.spread is ${spread}, not < ${spread}`,
      'error: 2 of 3 checks failed',
      `hint: ${HINT}`,
      '',
    ].join('\n'));
  });
  it('spread_bps: the quotient rounded once, half to even, to 20 significant digits', async () => {
    const server = await quotesServer();
    // Worked by hand: 0.04 × 10,000 / 227.12 = 1.76118351532229658330398…, and
    // 0.000020000000000002 × 10,000 / 1.084160000000000002 = 0.18447461629281655810124…
    const result = await quotes(server, ['EURUSD', 'AAPL', '--format', 'tsv', '--check', 'AAPL.spread_bps == 1.7611835153222965833', '--check', 'EURUSD.spread_bps > 0.1844746162928165581']);
    expect(result.code).toBe(8);
    expect(result.stderr.split('\n')[0]).toBe('check failed: EURUSD.spread_bps is 0.1844746162928165581, not > 0.1844746162928165581');
    expect(result.stderr).toContain('error: 1 of 2 checks failed\n');
  });
});

describe('verdicts', () => {
  it('the data first in the chosen format, then each failure with its value, exit 8; a symbol with no quote fails and says so', async () => {
    const server = await quotesServer();
    const result = await quotes(server, ['EURUSD', 'AAPL', 'GBPUSD', '--format', 'tsv', '--check', 'EURUSD.bid < 1', '--check', 'spread_bps < 5', '--check', 'age <= 2s']);
    expect(result.code).toBe(8);
    expect(result.stdout).toBe(TSV);
    expect(result.stderr).toBe([
      'warning: no quote for 1 of 3 symbols: GBPUSD',
      `check failed: EURUSD.bid is ${BID}, not < 1`,
      'check failed: GBPUSD has no quote, so GBPUSD.spread_bps < 5 fails',
      'check failed: GBPUSD has no quote, so GBPUSD.age <= 2s fails',
      'error: 3 of 3 checks failed',
      `hint: ${HINT}`,
      '',
    ].join('\n'));
  });

  it('the table on a terminal is written first too', async () => {
    const server = await quotesServer();
    const result = await quotes(server, ['EURUSD', '--check', 'EURUSD.ask > 2'], { stdoutIsTTY: true });
    expect(result.code).toBe(8);
    expect(result.stdout).toContain(ASK);
    expect(result.stderr).toMatch(new RegExp(`^check failed: EURUSD\\.ask is ${ASK.replaceAll('.', '\\.')}, not > 2\\n`));
  });

  it.each<[string, string[], Record<string, string>]>([
    ['--json', ['--json'], {}],
    ['--format ndjson', ['--format', 'ndjson'], {}],
    ['MKT_FORMAT=json', [], { MKT_FORMAT: 'json' }],
  ])('under %s, the report is the JSON error object on stderr with the failed checks in it', async (_name, flags, env) => {
    const server = await quotesServer();
    const result = await quotes(server, ['EURUSD', 'GBPUSD', ...flags, '--check', 'EURUSD.bid < 1', '--check', 'age < 1500ms'], { env });
    expect(result.code).toBe(8);
    expect(result.stdout).toContain(`"bid":${flags.includes('ndjson') ? '' : ' '}${BID}`);
    const lines = result.stderr.trim().split('\n');
    // The warning for the missing symbol is a JSON line; the error is one JSON object, last.
    expect(JSON.parse(lines[0]!)).toEqual({ warning: { code: 'no_quote', message: 'no quote for 1 of 2 symbols: GBPUSD', hint: null } });
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[1]!)).toEqual({
      error: {
        code: 'CHECK_FAILED', message: '2 of 2 checks failed (3 failures)', status: null, exit_code: 8, hint: HINT, request_id: null,
        checks: [
          { expression: 'EURUSD.bid < 1', symbol: 'EURUSD', field: 'bid', kind: 'decimal', op: '<', expected: '1', actual: BID, reason: 'not_met', message: `EURUSD.bid is ${BID}, not < 1` },
          { expression: 'age < 1500ms', symbol: 'EURUSD', field: 'age', kind: 'duration', op: '<', expected: '1500', actual: '2000', reason: 'not_met', message: 'EURUSD.age is 2s, not < 1500ms' },
          { expression: 'age < 1500ms', symbol: 'GBPUSD', field: 'age', kind: 'duration', op: '<', expected: '1500', actual: null, reason: 'no_row', message: 'GBPUSD has no quote, so GBPUSD.age < 1500ms fails' },
        ],
      },
    });
  });
});

describe('--strict and --check', () => {
  it('both fail: exit 3, the failed checks reported with it', async () => {
    const server = await quotesServer();
    const result = await quotes(server, ['EURUSD', 'GBPUSD', '--format', 'tsv', '--strict', '--check', 'EURUSD.bid < 1']);
    expect(result.code).toBe(3);
    expect(result.stderr).toBe([
      `check failed: EURUSD.bid is ${BID}, not < 1`,
      'error: no quote for 1 of 2 symbols: GBPUSD',
      'hint: the data above is as the service sent it; without --strict, missing and stale quotes are warnings and exit 0',
      '',
    ].join('\n'));
  });

  it('both fail under --json: one JSON object, code INCOMPLETE, exit_code 3, the checks in it', async () => {
    const server = await quotesServer();
    const result = await quotes(server, ['EURUSD', 'GBPUSD', '--json', '--strict', '--check', 'EURUSD.bid < 1']);
    expect(result.code).toBe(3);
    const error = JSON.parse(result.stderr).error;
    expect(error).toMatchObject({ code: 'INCOMPLETE', exit_code: 3 });
    expect(error.checks.map((check: { message: string }) => check.message)).toEqual([`EURUSD.bid is ${BID}, not < 1`]);
  });

  it('--strict satisfied and a check failed: exit 8', async () => {
    const server = await quotesServer();
    const result = await quotes(server, ['EURUSD', '--format', 'tsv', '--strict', '--max-age', '30s', '--check', 'EURUSD.mid > 2']);
    expect(result.code).toBe(8);
    expect(result.stderr).toMatch(new RegExp(`^check failed: EURUSD\\.mid is ${MID.replaceAll('.', '\\.')}, not > 2\\nerror: 1 of 1 check failed\\n`));
  });

  it('--strict failed and every check held: exit 3, no check lines', async () => {
    const server = await quotesServer();
    const result = await quotes(server, ['EURUSD', '--format', 'tsv', '--strict', '--max-age', '1s', '--check', 'EURUSD.mid > 1']);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/^error: 1 stale quote \(older than 1s\): EURUSD\n/);
  });
});

describe('refused before any request, exit 2', () => {
  it.each([
    [['--check', 'EURUSD.bid'], 'error: --check "EURUSD.bid": it has no operator'],
    [['--check', 'EURUSD.bid => 1'], 'error: --check "EURUSD.bid => 1": unknown operator "=>"; did you mean >=?'],
    [['--check', 'EURUSD.bidd > 1'], 'error: --check "EURUSD.bidd > 1": unknown field "bidd"; the fields: bid, ask, mid, spread, spread_bps, age'],
    [['--check', 'GBPUSD.bid > 1'], 'error: --check "GBPUSD.bid > 1": GBPUSD is not among the symbols asked for'],
    [['--check', 'age < 30'], 'error: --check "age < 30": age is a duration: give its unit, as in 30s, 500ms, 2m or 1h, not 30'],
    [['--check', 'spread_bps > 2m'], 'error: --check "spread_bps > 2m": spread_bps is a decimal, not a duration'],
    [['--check', 'bid > 1.2.3'], 'error: --check "bid > 1.2.3": "1.2.3" is not a decimal'],
    [['--until', 'EURUSD.bid > 1'], 'error: --until only applies with --watch: it ends a watch when the condition holds'],
    [['--exec', 'true'], 'error: --exec runs a program when --until holds: it needs --watch and --until'],
    [['--watch', '--exec', 'true'], 'error: --exec runs a program when --until holds: it needs --watch and --until'],
    [['--watch', '--check', 'bid > 1'], 'error: --check cannot be used with --watch: a watch has no single result to judge'],
    [['--watch', '--until', 'EURUSD.ask'], 'error: --until "EURUSD.ask": it has no operator'],
    [['--watch', '--until', 'AAPL.ask > 1'], 'error: --until "AAPL.ask > 1": AAPL is not among the symbols asked for'],
    [['--watch', '--until', 'bid > 1', '--exec', '/nonexistent/notify'], 'error: --exec "/nonexistent/notify": no such file'],
    [['--watch', '--until', 'bid > 1', '--exec', 'no-such-program-mkt-test'], 'error: --exec "no-such-program-mkt-test": no such program on PATH'],
  ])('%j', async (flags, first) => {
    const server = await quotesServer();
    const result = await quotes(server, ['EURUSD', ...flags]);
    expect(result.stderr.split('\n')[0]).toBe(first);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(server.requests).toHaveLength(0);
  });
});
