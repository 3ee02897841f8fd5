// Ctrl-Z and fg on the board, in-process: suspending gives the terminal back (normal screen, cursor,
// cooked mode) before the process stops, and continuing takes it again and redraws the board; the
// signals are listened for only while the board is up. suspend.test.ts does the same with a real
// shell's job control in tmux.
import { describe, expect, it } from 'vitest';
import { useServers, type FaultServer } from '../../helpers/fault-server.js';
import { ENTER, fakeTerminal, FRAME, LEAVE, plainFrames, setupBoard, untilAborted, watchBoard } from '../../helpers/board-harness.js';

const servers = useServers();
let server: FaultServer;

async function startQuotes() {
  server = await servers.script((_request, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(`{"data":[{"symbol":"EURUSD","bid":1.0850${server.requests.length},"ask":1.0851,"mid":1.08505,"timestamp":"2025-01-06T14:30:00Z"}]}`);
  });
}

/**
 * Runs the board; at its first wait `suspend` is called (a key or a signal), and q at the third.
 * Returns what the terminal looked like while the process was stopped.
 */
async function suspendOnce(suspend: (session: ReturnType<typeof setupBoard>, terminal: ReturnType<typeof fakeTerminal>['terminal']) => void) {
  await startQuotes();
  const fake = fakeTerminal(100, 30);
  const { terminal, signals } = fake;
  const stopped: Array<{ lastWrite: string | undefined; raw: boolean; writes: number }> = [];
  const session = setupBoard(server.url, async (count, signal) => {
    if (count === 1) suspend(session, terminal);
    if (count === 3) {
      session.stdin.write('q');
      await untilAborted(signal);
    }
  });
  terminal.whileStopped = () => {
    stopped.push({ lastWrite: session.writes.at(-1), raw: session.stdin.isRaw, writes: session.writes.length });
    // While stopped, the signals are still listened for (they are the way back).
    expect(signals.SIGCONT.size).toBe(1);
  };
  const code = await watchBoard(session.deps, terminal);
  return { code, session, terminal, signals, stopped };
}

describe('Ctrl-Z on the board', () => {
  it.each([
    ['the Ctrl-Z key (\\x1a, read in raw mode)', (session: ReturnType<typeof setupBoard>) => void session.stdin.write('\u001a')],
    ['SIGTSTP (kill -TSTP)', (_session: unknown, terminal: { signal(name: 'SIGTSTP'): void }) => terminal.signal('SIGTSTP')],
  ])('%s: normal screen, cursor and cooked mode back before the process stops; the board and raw mode after', async (_name, suspend) => {
    const { code, session, terminal, signals, stopped } = await suspendOnce(suspend);
    expect(code).toBe(0);
    expect(terminal.stops).toBe(1);
    // At the moment the process stops: the last thing written left the alternate screen and showed
    // the cursor, and the terminal is out of raw mode.
    expect(stopped).toHaveLength(1);
    expect(stopped[0]!.lastWrite).toBe(LEAVE);
    expect(stopped[0]!.raw).toBe(false);
    // Then, continued: the alternate screen and the hidden cursor again, and the board drawn whole.
    const after = session.writes.slice(stopped[0]!.writes);
    expect(after[0]).toBe(ENTER);
    expect(after[1]!.startsWith(FRAME)).toBe(true);
    expect(plainFrames([after[1]!])[0]).toMatch(/EURUSD +1\.08501 /);
    // raw for the board, cooked while stopped, raw again, cooked when q ends it.
    expect(session.stdin.rawCalls).toEqual([true, false, true, false]);
    expect(session.writes.at(-1)).toBe(LEAVE);
    // Listened for only while the board is up.
    expect(signals.SIGTSTP.size).toBe(0);
    expect(signals.SIGCONT.size).toBe(0);
  });

  it('takes the terminal again on a SIGCONT it did not ask for (after kill -STOP, fg)', async () => {
    await startQuotes();
    const { terminal } = fakeTerminal(100, 30);
    let mark = 0;
    const session = setupBoard(server.url, async (count, signal) => {
      if (count === 1) {
        mark = session.writes.length;
        terminal.signal('SIGCONT');
      }
      if (count === 2) {
        session.stdin.write('q');
        await untilAborted(signal);
      }
    });
    expect(await watchBoard(session.deps, terminal)).toBe(0);
    expect(terminal.stops).toBe(0);
    const after = session.writes.slice(mark);
    expect(after[0]).toBe(ENTER);
    expect(plainFrames([after[1]!])[0]).toMatch(/EURUSD +1\.08501 /);
    // Raw mode is left and entered again: Node skips setting the mode it believes is set, and the
    // shell put the terminal back to cooked mode when the job stopped.
    expect(session.stdin.rawCalls).toEqual([true, false, true, false]);
  });

  it('is not listened for by the NDJSON stream, which keeps SIGTSTP\'s default action', async () => {
    await startQuotes();
    const { terminal, signals } = fakeTerminal(100, 30);
    const sizes: number[] = [];
    const session = setupBoard(server.url, () => void sizes.push(signals.SIGTSTP.size, signals.SIGCONT.size));
    session.deps.io.stdoutIsTTY = false;
    expect(await watchBoard(session.deps, terminal, { count: '2' })).toBe(0);
    expect(sizes).toEqual([0, 0]);
    // The board, by contrast, listens while it waits.
    const board = fakeTerminal(100, 30);
    const seen: number[] = [];
    const boardSession = setupBoard(server.url, () => void seen.push(board.signals.SIGTSTP.size, board.signals.SIGCONT.size));
    expect(await watchBoard(boardSession.deps, board.terminal, { count: '2' })).toBe(0);
    expect(seen).toEqual([1, 1]);
  });
});
