// An unsolicited `100 Continue` before an answer, dropped before undici reads it.
//
// A server may send interim (1xx) answers before the final one, and a client must parse and ignore
// those it did not expect (RFC 9110 §15.2). undici 7 skips 102 and 103, but takes a 100 for a "bad
// response" and closes the connection (lib/dispatcher/client-h1.js, onHeadersComplete), so a server
// or proxy that sent `100 Continue` unasked failed every attempt: exit 7. mkt never sends
// `Expect: 100-continue` (undici refuses the header), so every 100 it receives is unsolicited.
//
// mkt patches no dependency's text beyond one line (scripts/build.js), so the 100 is dropped on the
// socket instead, where guardConnector (dispatcher.ts) hands each connection to undici. This relies on
// how undici 7's HTTP/1.1 client uses a socket (checked against 7.30.2, lib/dispatcher/client-h1.js):
// - it reads only with `socket.read()`, without a size (readMore and resume, on 'readable'), never
//   with 'data' events; what it puts back with `unshift` is what it has already been handed;
// - it writes one request at a time on a connection (pipelining 1), and each request's first write
//   is its head, beginning with the request line (writeH1).
// So after a write that begins a request, the next bytes read begin its answer. (Not after any
// write: a streamed body may still be written after its answer has begun.) While they begin
// with `HTTP/1.x 100`, that interim answer is dropped through its empty line (read on across chunks,
// up to `maxHeadBytes`: a longer one is handed over unchanged, for undici to refuse); the rest is
// handed to undici untouched, and nothing more is looked at until the next request.
//
// It can go when undici skips a 100 itself (onHeadersComplete treating it as it treats 102 and 103):
// test/cli/network/interim-responses.test.ts then passes without it.
import type { Socket } from 'node:net';

const EMPTY = Buffer.alloc(0);
/** The status line of a 100: `HTTP/1.1 100 Continue`, or `HTTP/1.1 100` with no reason phrase. */
const CONTINUE_LINE = 'HTTP/1.x 100 ';
/** A request's head as undici writes it: `METHOD target HTTP/1.1` (a method is an RFC 9110 token). */
const REQUEST_LINE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ [^ \r\n]+ HTTP\/1\.1\r\n/;

/** Makes `socket` drop any `100 Continue` that comes before an answer (see above). */
export function skipUnsolicitedContinue(socket: Socket, maxHeadBytes: number): void {
  const read = socket.read;
  const write = socket.write;
  // The next bytes read begin an answer; `held` is its start while it may still be a 100.
  let atAnswer = false;
  let held: Buffer = EMPTY;

  socket.write = function (this: Socket, chunk: unknown, ...rest: unknown[]): boolean {
    if (beginsRequest(chunk)) atAnswer = true;
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as Socket['write'];

  socket.read = function (this: Socket, size?: number): unknown {
    if (!atAnswer || size !== undefined) return read.call(this, size);
    for (;;) {
      // Read until the buffer is empty, so that the stream emits 'readable' when more comes.
      const chunk = read.call(this) as Buffer | null;
      if (chunk === null) return null;
      held = held.length === 0 ? chunk : Buffer.concat([held, chunk]);
      const answer = dropInterim();
      if (answer) return answer;
    }
  };

  /** The bytes for undici once no 100 is left at the start, or undefined while more are needed. */
  function dropInterim(): Buffer | undefined {
    for (;;) {
      const interim = beginsContinue(held);
      if (interim === false) return handOver();
      if (interim === undefined) return undefined;
      const end = endOfHead(held, maxHeadBytes);
      if (end !== -1) held = held.subarray(end);
      else return held.length > maxHeadBytes ? handOver() : undefined;
    }
  }

  function handOver(): Buffer {
    atAnswer = false;
    const answer = held;
    held = EMPTY;
    return answer;
  }
}

function beginsRequest(chunk: unknown): boolean {
  if (typeof chunk === 'string') return REQUEST_LINE.test(chunk);
  return Buffer.isBuffer(chunk) && REQUEST_LINE.test(chunk.toString('latin1', 0, 8192));
}

/** Whether `bytes` begin with a 100's status line; undefined while too few have come to tell. */
function beginsContinue(bytes: Buffer): boolean | undefined {
  const text = bytes.toString('latin1', 0, CONTINUE_LINE.length);
  for (let i = 0; i < text.length; i++) {
    const expected = CONTINUE_LINE[i]!;
    const ok = expected === 'x' ? text[i] === '0' || text[i] === '1'
      : i === CONTINUE_LINE.length - 1 ? text[i] === ' ' || text[i] === '\r'
        : text[i] === expected;
    if (!ok) return false;
  }
  return text.length === CONTINUE_LINE.length ? true : undefined;
}

/** Where the head in `bytes` ends (after its empty line, CRLF or bare LF), or -1. */
function endOfHead(bytes: Buffer, maxHeadBytes: number): number {
  const match = /\n\r?\n/.exec(bytes.toString('latin1', 0, maxHeadBytes));
  return match ? match.index + match[0].length : -1;
}
