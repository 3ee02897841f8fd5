// The watch on a dumb terminal, in-process (dumb.test.ts runs it on a real pseudo-terminal): a
// table per poll with --changes-only, and what the board shows in status lines as warnings on stderr.
import { describe, expect, it } from 'vitest';
import { useServers, type FaultServer } from '../../helpers/fault-server.js';
import { fakeTerminal, setupBoard, watchBoard } from '../../helpers/board-harness.js';

const servers = useServers();
let server: FaultServer | undefined;

describe('the watch on a dumb terminal', () => {
  it('draws only the quotes that moved with --changes-only, and warns on stderr about missing symbols, once', async () => {
    const polls = [
      [['A', '1.10'], ['B', '2.00']],
      [['A', '1.11'], ['B', '2.00']],
      [['A', '1.11'], ['B', '2.000']], // the same values, written differently
    ];
    server = await servers.script((_request, res) => {
      const quotes = polls[server!.requests.length - 1]!;
      res.writeHead(200, { 'content-type': 'application/json', 'ratelimit-limit': '60', 'ratelimit-remaining': '50', 'ratelimit-reset': '30' });
      res.end(`{"data":[${quotes.map(([symbol, mid]) => `{"symbol":"${symbol}","bid":${mid},"ask":${mid},"mid":${mid},"timestamp":"2025-01-06T14:30:00Z"}`).join(',')}]}`);
    });
    const { terminal } = fakeTerminal(100, 30);
    const session = setupBoard(server.url, () => {}, { env: { TERM: 'dumb', FORCE_COLOR: '' } });
    expect(await watchBoard(session.deps, terminal, { count: '3', changesOnly: true }, ['A', 'B', 'C'])).toBe(0);
    const polled = session.writes.join('').split('\n\n');
    expect(polled).toHaveLength(3);
    expect(polled[0]).toMatch(/^poll 1 \| updated 14:30:00 \| every 1s \| 50\/60 left\n\+-[^]*\n\| A +\| +1\.10 \|[^]*\n\| B +\| +2\.00 \|/);
    expect(polled[1]).toMatch(/^poll 2 \| updated 14:30:01 \| every 1s \| 50\/60 left\n[^]*\n\| A +\| +1\.11 \|/);
    expect(polled[1]).not.toMatch(/\| B /);
    expect(polled[2]).toBe('poll 3 | updated 14:30:02 | every 1s | 50/60 left\nno price changed at the latest poll\n');
    expect(session.writes.join('')).not.toContain('\u001b');
    expect(session.stderr()).toBe('warning: no quote for C\n');
    expect(session.stdin.rawCalls).toEqual([]); // no keys read: Ctrl-C ends it
  });
});
