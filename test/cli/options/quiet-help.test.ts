// What --quiet's help says is what it does, in the README's words ("Waiting for the quota" and the
// Networks section): it silences the progress line, every wait announcement (the waits over 2 s
// that are otherwise announced in a pipe too) and the confirmations of login and token; warnings and
// errors still print. The behaviour itself is tested in test/cli/output/waits.test.ts and
// test/cli/messages.test.ts.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/bin.js';
import { runCli } from '../../helpers/cli.js';

/** The description of -q, --quiet in `mkt ...args --help`, its wrapped lines joined. */
async function quietHelp(args: string[]): Promise<string> {
  const { stdout } = await runCli([...args, '--help']);
  const lines = stdout.split('\n');
  const start = lines.findIndex((line) => /^ +-q, --quiet +/.test(line));
  expect(start, stdout).toBeGreaterThan(-1);
  const indent = lines[start]!.replace(/^( +-q, --quiet +).*$/, '$1').length;
  const text = [lines[start]!.slice(indent)];
  for (const line of lines.slice(start + 1)) {
    if (!/^ +\S/.test(line) || line.search(/\S/) !== indent) break;
    text.push(line.trim());
  }
  return text.join(' ');
}

describe('--quiet says exactly what it silences', () => {
  it.each([[[]], [['quotes']], [['status']], [['login']]])('mkt %j --help', async (args) => {
    expect(await quietHelp(args)).toBe(
      'silence the progress line, every wait announcement (also the waits over 2s otherwise announced in a pipe) and the confirmations of login and token; warnings and errors still print',
    );
  });

  it('as the README does', () => {
    const readme = fs.readFileSync(`${ROOT}/README.md`, 'utf8').replace(/\s+/g, ' ');
    expect(readme).toContain('`--quiet` (`-q`) silences both, and the confirmations of `login` and `token`; warnings and errors still print');
    expect(readme).toContain('Each wait longer than about 2 s is announced on stderr, in a pipe too');
    expect(readme).toContain('`--quiet` silences them');
  });
});
