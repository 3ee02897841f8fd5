// What the helpers that run a program as a child process promise the tests that use them.
import { describe, expect, it } from 'vitest';
import { HAS_SCRIPT, onTerminal } from './bin.js';

describe.skipIf(!HAS_SCRIPT)('a program on a pseudo-terminal (onTerminal, as runOnTerminal runs mkt)', () => {
  it('reads nothing on the terminal, raw as a board reads its keys: script does not pass the end of its own input on as Ctrl-D', async () => {
    // Reads its terminal raw for 300 ms, then says what came: a board's quit key would have come.
    const program = "process.stdin.setRawMode(true); const got = []; process.stdin.on('data', (d) => got.push(...d)); setTimeout(() => { process.stdout.write(`read [${got.join(',')}]\\n`); process.exit(0); }, 300);";
    const result = await onTerminal([process.execPath, ['-e', program]], { columns: 80, rows: 24 });
    expect(result.code, result.stdout).toBe(0);
    expect(result.stdout).toContain('read []');
  });
});
