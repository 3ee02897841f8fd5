// What a server or the output can do to a long-running watch: a service that sends new unasked
// symbols at every poll must not grow the board's memory (it grew from 160 to 433 MB in 45 s), and
// an output that cannot be written (`> /dev/full`) ends the watch with exit 1 and one message
// instead of polling on in silence.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HISTORY_POINTS } from '../../../src/cli/watch/board-output.js';
import { History } from '../../../src/render/sparkline.js';
import { baseEnv, collect, mkt } from '../../helpers/bin.js';
import { runCli } from '../../helpers/cli.js';
import { useServers, type FaultServer } from '../../helpers/fault-server.js';
import { quote, quotesJson } from '../../helpers/quotes.js';
import { fakeTerminal, plainFrames, setupBoard, watchBoard } from '../../helpers/board-harness.js';

const servers = useServers();
let server: FaultServer | undefined;

/** A quote whose bid, ask and mid are all `price`. */
const flat = (symbol: string, price: string) => quote(symbol, price, price, price);

/** EURUSD as asked, and `extra` symbols nobody asked for, new at every poll. */
function startFlooding(extra: number) {
  return servers.script((_request, res) => {
    const poll = server!.requests.length;
    const unasked = Array.from({ length: extra }, (_, i) => flat(`P${poll}X${i}`, '2'));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(quotesJson([flat('EURUSD', `1.0${poll}`), ...unasked]));
  });
}

describe('quotes for symbols not asked for', () => {
  it('are not kept by the board: its history holds the asked symbols only, however many polls', async () => {
    server = await startFlooding(1000);
    const history = new History(HISTORY_POINTS);
    const { terminal } = fakeTerminal(120, 40);
    const session = setupBoard(server.url, () => {});
    expect(await watchBoard(session.deps, terminal, { count: '40' }, ['EURUSD'], history)).toBe(0);
    expect(server.requests).toHaveLength(40);
    // Before: 40,001 series, one per symbol ever seen.
    expect(history.size).toBe(1);
    expect(history.get('EURUSD')).toHaveLength(HISTORY_POINTS);
    const last = plainFrames(session.writes).at(-1)!;
    expect(last).toContain('ignoring 1000 quotes for symbols not asked for');
    expect(last).not.toContain('P39X');
    expect(session.stderr()).toBe('');
  });

  it('are left out of the stream, with one warning for the whole watch', async () => {
    server = await startFlooding(3);
    const clock = { time: Date.UTC(2025, 0, 6, 14, 30, 0) };
    const result = await runCli(['quotes', 'eurusd', '--watch', '--count', '5'], {
      now: () => clock.time,
      sleep: async (ms) => void (clock.time += ms),
      env: { MKT_BASE_URL: server.url, MKT_TOKEN: 'scripted-token', MKT_ORG: 'org_demo' },
    });
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split('\n').map((line) => JSON.parse(line).symbol)).toEqual(Array(5).fill('EURUSD'));
    expect(result.stderr).toBe('warning: the service sent quotes for symbols not asked for (P1X0, P1X1, P1X2); the watch leaves them out\n');
  });
});

describe('output that cannot be written', () => {
  it('ends the watch with exit 1 and one message, after giving the screen back', async () => {
    server = await startFlooding(0);
    const { terminal } = fakeTerminal(100, 30);
    const board = setupBoard(server.url, (count) => {
      if (count === 2) terminal.close(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }));
    });
    await expect(watchBoard(board.deps, terminal)).rejects.toThrow('cannot write to standard output: ENOSPC: no space left on device, write');
    expect(board.writes.at(-1)).toBe('\u001b[?25h\u001b[?1049l');
    expect(server.requests).toHaveLength(2);
  });

  it('ends with exit 0 when the reader goes away (EPIPE), as `| head` does', async () => {
    server = await startFlooding(0);
    const { terminal } = fakeTerminal(100, 30);
    const board = setupBoard(server.url, (count) => {
      if (count === 2) terminal.close(undefined);
    });
    expect(await watchBoard(board.deps, terminal)).toBe(0);
  });

  it.skipIf(!fs.existsSync('/dev/full'))('> /dev/full, as a process: exit 1, one error, no more polling', async () => {
    server = await startFlooding(0);
    const full = fs.openSync('/dev/full', 'w');
    try {
      const started = performance.now();
      const child = spawn(...mkt(['quotes', 'EURUSD', '--watch', '--interval', '1s']), {
        env: baseEnv({ MKT_BASE_URL: server.url, MKT_TOKEN: 'scripted-token', MKT_ORG: 'org_demo' }), stdio: ['pipe', full, 'pipe'],
      });
      const result = await collect(child, started, undefined, 15_000);
      expect(result.code).toBe(1);
      expect(result.stderr).toBe('error: cannot write to standard output: ENOSPC: no space left on device, write\n'
        + 'hint: check where standard output goes: a full disk, a closed file or a device that takes no output\n');
      expect(server.requests).toHaveLength(1);
    } finally {
      fs.closeSync(full);
    }
  });
});
