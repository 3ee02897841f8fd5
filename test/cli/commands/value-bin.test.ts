// mkt value as a real process (the built bin) against the sandbox: what only a process shows, its
// exit codes and its standard input, a file from a shell's process substitution (a pipe with a
// writer), and the demo's command line.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MKT_SH, runBin } from '../../helpers/bin.js';
import { tempDir } from '../../helpers/cli.js';
import { getToken, startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';

let sb: TestSandbox;
let env: Record<string, string>;
let dir: string;
beforeAll(async () => {
  sb = await startTestSandbox({ limits: { perMinute: 1000 } });
  env = { MKT_BASE_URL: sb.url, MKT_TOKEN: await getToken(sb.url), MKT_ORG: 'org_demo', MKT_CONFIG_DIR: path.join(tempDir(), 'config') };
  dir = tempDir('mkt-value-bin-');
});
afterAll(async () => {
  await sb.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const PORTFOLIO = 'symbol,quantity,currency,cost\nSAP.DE,20,EUR,200\n7203.T,100,JPY\nEUR,2500.75,EUR\n';

describe('mkt value, the process', () => {
  it('reads standard input (-) and writes CSV, the total in the last line; exit 0', async () => {
    const result = await runBin(['value', '-', '--base', 'EUR', '--format', 'csv'], { env, input: PORTFOLIO });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\r\n');
    expect(lines[0]).toBe('row,symbol,quantity,currency,price,value,value_base,cost,cost_total,pnl,pnl_base,status,timestamp,reason');
    expect(lines.at(-1)).toMatch(/^total_base,,,EUR,,,\d+\.\d+,,,,-?\d+\.\d+,ok,,$/);
  });

  it('a bad file: exit 2 naming the file and the line; --strict with a symbol missing: exit 3 after the data', async () => {
    const bad = path.join(dir, 'bad.csv');
    fs.writeFileSync(bad, 'symbol,quantity,currency\nAAPL,1,USD\nMSFT,1.2.3,USD\n');
    const refused = await runBin(['value', bad, '--base', 'USD'], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(`error: ${bad}, line 3: quantity "1.2.3" is not a decimal number\nhint: write it as 1500, -20, 0.25, 1,500.25 (thousands in threes) or (20)\n`);
    const strict = await runBin(['value', '-', '--base', 'USD', '--strict', '--format', 'tsv'], { env, input: 'symbol,quantity,currency\nAAPL,1,USD\nNOSUCH,1,USD\n' });
    expect(strict.code).toBe(3);
    expect(strict.stdout).toContain('\nposition\tNOSUCH\t1\tUSD\t\t\t\t\t\t\t\tmissing\t\t\n');
    expect(strict.stderr).toMatch(/^error: no quote for 1 of 2 symbols: NOSUCH; the totals in USD are incomplete/);
  });

  it('a file from process substitution: a pipe whose writer is there', async () => {
    // Not a synchronous child: the sandbox answers from this process.
    const { stdout: out } = await promisify(execFile)('bash', ['-c', `${MKT_SH} value <(printf '${PORTFOLIO.replaceAll('\n', '\\n')}') --base EUR --format csv --fields row,currency,value`], {
      env: { ...process.env, ...env }, encoding: 'utf8',
    });
    expect(out.split('\r\n').filter((line) => line.startsWith('total')).map((line) => line.split(',').slice(0, 2).join(' '))).toEqual(['total EUR', 'total JPY', 'total_base EUR']);
  });
});
