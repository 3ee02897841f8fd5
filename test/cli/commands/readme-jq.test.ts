// The README's words on jq and the digits, held against the jq on this machine: mkt's NDJSON piped
// through `jq -c .` loses trailing zeros and digits past a double on jq 1.6, and keeps them on 1.7
// and later, as the README says. Skipped where there is no jq.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/bin.js';
import { runCli } from '../../helpers/cli.js';
import { useServers } from '../../helpers/fault-server.js';

const jqVersion = (() => {
  try {
    return execFileSync('jq', ['--version'], { encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
})();
if (jqVersion === undefined) console.warn('test/cli/commands/readme-jq.test.ts: no jq here, only the README is checked');

const servers = useServers();
const SENT = [
  '{"symbol":"GBPUSD","bid":1.30326,"ask":1.30330,"mid":1.30328,"timestamp":"2025-01-06T14:30:00Z"}',
  '{"symbol":"USDJPY","bid":149.990,"ask":149.993,"mid":149.9915,"timestamp":"2025-01-06T14:30:00Z"}',
  '{"symbol":"EURUSD","bid":1.084150000000000001,"ask":1.08416,"mid":1.0841550000000000005,"timestamp":"2025-01-06T14:30:00Z"}',
];

async function mktNdjson(): Promise<string> {
  const server = await servers.answering(200, `{"data":[${SENT.join(',')}]}`);
  const result = await runCli(['quotes', 'GBPUSD', 'USDJPY', 'EURUSD', '--format', 'ndjson'], {
    env: { MKT_BASE_URL: server.url, MKT_TOKEN: 'tok_readme_jq', MKT_ORG: 'org_demo' },
  });
  expect(result.code, result.stderr).toBe(0);
  return result.stdout;
}

describe('jq and the digits', () => {
  it('mkt writes the digits as sent', async () => {
    expect(await mktNdjson()).toBe(`${SENT.join('\n')}\n`);
  });

  it.runIf(jqVersion !== undefined)(`jq here (${jqVersion}) does what the README says of its version`, async () => {
    const piped = execFileSync('jq', ['-c', '.'], { input: await mktNdjson(), encoding: 'utf8' });
    const [major, minor] = /^jq-(\d+)\.(\d+)/.exec(jqVersion!)!.slice(1).map(Number) as [number, number];
    if (major === 1 && minor < 7) {
      expect(piped).toContain('"ask":1.3033,');
      expect(piped).toContain('"bid":149.99,');
      expect(piped).toContain('"bid":1.08415,');
    } else {
      expect(piped).toBe(`${SENT.join('\n')}\n`);
      expect(execFileSync('jq', ['-c', '.ask * 1'], { input: SENT[0], encoding: 'utf8' })).toBe('1.3033\n');
    }
  });

  it('the README says which versions keep them, and what to use for exact work', () => {
    const readme = fs.readFileSync(`${ROOT}/README.md`, 'utf8').replace(/\s+/g, ' ');
    expect(readme).toContain('printed `"ask":1.3033` and `"bid":149.99` where mkt wrote `1.30330` and `149.990`');
    expect(readme).toContain('`1.084150000000000001` comes out `1.08415`');
    expect(readme).toContain('jq 1.7 keeps the literal text of a number it passes through unchanged');
    expect(readme).toContain('or use jq 1.7 or later without arithmetic');
  });
});
