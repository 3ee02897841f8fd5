// The board's terminal handling, in-process: alternate screen and hidden cursor on start, one write
// per frame, a redraw on resize, raw mode for q and Ctrl-C, and everything put back on every way
// out (q, Ctrl-C, --count, a 401); the last quotes left on the normal screen when the watch ends by
// itself. tty.test.ts checks the same on a real pseudo-terminal.
import { describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.js';
import { useServers, type FaultServer } from '../../helpers/fault-server.js';
import { ENTER, fakeTerminal, FRAME, LEAVE, plainFrames, setupBoard, SGR, untilAborted, watchBoard, type OnSleep } from '../../helpers/board-harness.js';

const servers = useServers();
let server: FaultServer | undefined;

async function startQuotes(status = 200) {
  let tick = 0;
  server = await servers.script((_request, res) => {
    tick++;
    res.writeHead(status, { 'content-type': 'application/json', 'ratelimit-limit': '60', 'ratelimit-remaining': String(60 - tick), 'ratelimit-reset': '30' });
    res.end(status === 200
      ? `{"data":[{"symbol":"EURUSD","bid":1.0850${tick},"ask":1.0851${tick},"mid":1.08505${tick},"timestamp":"2025-01-06T14:30:00Z"}]}`
      : '{"error":{"code":"UNAUTHORIZED","message":"invalid or expired access token"}}');
  });
  return server;
}

const setup = (onSleep: OnSleep) => setupBoard(server!.url, onSleep);

describe('the live board', () => {
  it('draws in place on the alternate screen, redraws on resize, and restores everything on q', async () => {
    await startQuotes();
    const { terminal, listeners } = fakeTerminal(100, 30);
    const session = setup(async (count, signal) => {
      if (count === 2) terminal.resize(50, 30);
      if (count === 3) {
        session.stdin.write('q');
        await untilAborted(signal);
      }
    });
    const code = await watchBoard(session.deps, terminal);
    expect(code).toBe(0);

    const { writes } = session;
    expect(writes[0]).toBe(ENTER);
    expect(writes.at(-1)).toBe(LEAVE);
    const frames = writes.slice(1, -1);
    // Every other write is a whole frame: home, the lines each cleared to their end, the rest cleared.
    for (const frame of frames) expect(frame).toMatch(/^\u001b\[H[^]*\u001b\[J$/);
    // waiting, poll 1, poll 2, the resize, poll 3
    expect(frames).toHaveLength(5);
    const text = frames.map((frame) => frame.replace(SGR, ''));
    expect(text[0]).toContain('waiting for the first quotes…');
    expect(text[1]).toMatch(/EURUSD +1\.08501 +1\.08511 +1\.085051/);
    expect(text[1]).toContain('poll 1 · every 1s · 59/60 left · q to quit');
    expect(text[2]).toContain('poll 2');
    expect(frames[2]).toMatch(/\u001b\[32m1\.0850\u001b\[39m\u001b\[32m\u001b\[1m\u001b\[4m2/); // the changed digit, emphasised
    expect(text[2]).toContain('▲');
    expect(text[2]).toContain('Trend');
    expect(text[3]).toContain('poll 2'); // the same data redrawn for the new size
    expect(text[3]).not.toContain('Trend');
    for (const line of text[3]!.split('\r\n')) expect(line.replace(/\u001b\[[JKH]/g, '').length).toBeLessThan(50);
    expect(text[4]).toContain('poll 3');

    expect(session.stdin.rawCalls).toEqual([true, false]);
    expect(session.stdin.isPaused()).toBe(true);
    expect(listeners.size).toBe(0);
  });

  it.each([
    ['Ctrl-C in raw mode', '\u0003'],
    ['Q', 'Q'],
  ])('quits with exit 0 on %s', async (_name, key) => {
    await startQuotes();
    const { terminal } = fakeTerminal(100, 30);
    const session = setup(async (_count, signal) => {
      session.stdin.write(key);
      await untilAborted(signal);
    });
    expect(await watchBoard(session.deps, terminal)).toBe(0);
    expect(session.writes.at(-1)).toBe(LEAVE);
    expect(session.stdin.rawCalls).toEqual([true, false]);
  });

  it('ignores other keys, arrow keys included', async () => {
    await startQuotes();
    const { terminal } = fakeTerminal(100, 30);
    const session = setup((count) => {
      if (count === 1) session.stdin.write('x');
      if (count === 2) session.stdin.write('\u001b[A'); // up arrow
    });
    expect(await watchBoard(session.deps, terminal, { count: '3' })).toBe(0);
    expect(session.writes.filter((write) => write.startsWith(FRAME))).toHaveLength(4);
    expect(session.writes.at(-1)!.startsWith(LEAVE)).toBe(true);
  });

  it('leaves its last quotes on the normal screen when --count ends it, every row and no "q to quit"', async () => {
    await startQuotes();
    const { terminal } = fakeTerminal(100, 3); // too few rows for the quote on the alternate screen
    const session = setup(() => {});
    expect(await watchBoard(session.deps, terminal, { count: '2' })).toBe(0);
    expect(plainFrames(session.writes).at(-1)).not.toMatch(/EURUSD +1\.08502/);
    const last = session.writes.at(-1)!;
    expect(last.startsWith(LEAVE)).toBe(true);
    const text = last.slice(LEAVE.length).replace(SGR, '');
    expect(text).not.toContain('\u001b');
    expect(text).toMatch(/^Symbol +Bid +Ask[^\n]*\r\nEURUSD +1\.08502 +1\.08512 +1\.085052 [^\n]*\r\n/);
    expect(text).toMatch(/\r\nupdated \d\d:\d\d:\d\d · poll 2 · every 1s · 58\/60 left\r\n$/);
    expect(session.stdin.rawCalls).toEqual([true, false]);
  });

  it('restores the terminal before a 401 ends the watch with exit 4', async () => {
    await startQuotes(401);
    const session = setup(() => {});
    const code = await main(['quotes', 'EURUSD', '--watch'], session.deps);
    expect(code).toBe(4);
    expect(session.writes[0]).toBe(ENTER);
    expect(session.writes.at(-1)).toBe(LEAVE);
    expect(session.stdin.rawCalls).toEqual([true, false]);
    expect(session.stderr()).toMatch(/^error: not authenticated \(401/);
  });

  it('shows a failing poll in the status line and keeps the last quotes up', async () => {
    server = await startSecondPollFails();
    const { terminal } = fakeTerminal(160, 30);
    const session = setup(() => {});
    expect(await watchBoard(session.deps, terminal, { count: '3' })).toBe(0); // the failed poll counts
    const frames = session.writes.filter((write) => write.startsWith(FRAME)).map((frame) => frame.replace(SGR, ''));
    expect(frames).toHaveLength(4); // waiting, poll 1, the failure, poll 2
    expect(frames[2]).toMatch(/EURUSD +1\.08501/);
    expect(frames[2]).toMatch(/retrying at \d\d:\d\d:\d\d: GET http:\/\/127\.0\.0\.1:\d+\/v1\/market\/quotes failed with 503 Service Unavailable: down for a moment/);
    expect(frames[3]).not.toContain('retrying');
    expect(session.stderr()).toBe('');
  });

  it('when the last poll of --count fails, restores the terminal and ends with that error (exit 7)', async () => {
    server = await startSecondPollFails();
    const session = setup(() => {});
    const code = await main(['quotes', 'EURUSD', '--watch', '--interval', '1s', '--count', '2'], session.deps);
    expect(code).toBe(7);
    expect(server.requests).toHaveLength(2);
    expect(session.writes[0]).toBe(ENTER);
    // The failure is not drawn as "retrying at": the last quotes stay on the normal screen, and main
    // says what failed below them.
    const last = session.writes.at(-1)!;
    expect(last.startsWith(LEAVE)).toBe(true);
    expect(last.replace(SGR, '')).toMatch(/EURUSD +1\.08501 [^]*poll 1 · every 1s/);
    expect([...session.writes.filter((write) => write.startsWith(FRAME)), last].some((frame) => frame.includes('retrying'))).toBe(false);
    expect(session.stdin.rawCalls).toEqual([true, false]);
    expect(session.stderr()).toMatch(/^error: GET http:\/\/127\.0\.0\.1:\d+\/v1\/market\/quotes failed with 503 Service Unavailable: down for a moment\n/);
  });
});

describe('secrets on the board', () => {
  it('leave the prices whole: MKT_TOKEN=0000 and "bid":1.100005', async () => {
    server = await servers.script((_request, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"data":[{"symbol":"EURUSD","bid":1.100005,"ask":1.100007,"mid":1.100006,"timestamp":"2025-01-06T14:30:00Z"}]}');
    });
    const session = setupBoard(server.url, () => {}, { env: { MKT_TOKEN: '0000' } });
    expect(await main(['quotes', 'EURUSD', '--watch', '--interval', '1s', '--count', '1'], session.deps)).toBe(0);
    const frames = plainFrames(session.writes);
    expect(frames.at(-1)).toMatch(/EURUSD +1\.100005 +1\.100007 +1\.100006 /);
    expect(session.writes.join('')).not.toContain('[redacted]');
  });

  it('are scrubbed from the retry line, a diagnostic drawn with the data', async () => {
    const secret = 'cs_SECRET_board_9d2e';
    let calls = 0;
    server = await servers.script((_request, res) => {
      calls++;
      res.writeHead(calls === 2 ? 503 : 200, { 'content-type': 'application/json' });
      res.end(calls === 2 ? `{"error":{"code":"UNAVAILABLE","message":"down for ${secret}"}}`
        : '{"data":[{"symbol":"EURUSD","bid":1.08501,"ask":1.08511,"mid":1.08506,"timestamp":"2025-01-06T14:30:00Z"}]}');
    });
    const session = setupBoard(server.url, () => {}, { env: { MKT_CLIENT_SECRET: secret } });
    session.deps.io.columns = 200; // the whole retry line
    expect(await main(['quotes', 'EURUSD', '--watch', '--interval', '1s', '--count', '3'], session.deps)).toBe(0);
    expect(plainFrames(session.writes).some((frame) => /retrying at \d\d:\d\d:\d\d: [^\n]*down for \[redacted\]/.test(frame))).toBe(true);
    expect(session.writes.join('')).not.toContain(secret);
  });
});

describe('--changes-only on the board', () => {
  it('shows the first poll whole, then only the quotes whose prices moved, and says how many it hides', async () => {
    const polls = [
      [['A', '1.10'], ['B', '2.00']],
      [['A', '1.11'], ['B', '2.00']],
      [['A', '1.11'], ['B', '2.000']], // the same values, written differently
    ];
    server = await servers.script((_request, res) => {
      const quotes = polls[server!.requests.length - 1]!;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`{"data":[${quotes.map(([symbol, mid]) => `{"symbol":"${symbol}","bid":${mid},"ask":${mid},"mid":${mid},"timestamp":"2025-01-06T14:30:00Z"}`).join(',')}]}`);
    });
    const { terminal } = fakeTerminal(100, 30);
    const session = setup(() => {});
    expect(await watchBoard(session.deps, terminal, { count: '3', changesOnly: true }, ['A', 'B'])).toBe(0);
    const frames = plainFrames(session.writes).slice(1); // after "waiting for the first quotes"
    expect(frames[0]).toMatch(/\r\nA +1\.10 .*\r\nB +2\.00 /);
    expect(frames[0]).not.toContain('hidden');
    expect(frames[1]).toMatch(/\r\nA +1\.11 /);
    expect(frames[1]).not.toMatch(/\r\nB /);
    expect(frames[1]).toContain('1 quote without a price change hidden (--changes-only)');
    expect(frames[2]).toMatch(/^\u001b\[Hno price changed at the latest poll/);
    expect(frames[2]).toContain('2 quotes without a price change hidden (--changes-only)');
  });
});

/** A service whose second answer is a 503 and every other one a quote for EURUSD. */
function startSecondPollFails() {
  let calls = 0;
  return servers.script((_request, res) => {
    calls++;
    res.writeHead(calls === 2 ? 503 : 200, { 'content-type': 'application/json' });
    res.end(calls === 2 ? '{"error":{"code":"UNAVAILABLE","message":"down for a moment"}}'
      : '{"data":[{"symbol":"EURUSD","bid":1.08501,"ask":1.08511,"mid":1.08506,"timestamp":"2025-01-06T14:30:00Z"}]}');
  });
}
