// Reading input whole, with a byte cap, as a stream: a device or a pipe has no size to check first
// (/dev/zero, <(yes)), and a synchronous read of one cannot be interrupted. More than the cap is a
// UsageError naming the input and the limit; Ctrl-C (`signal`) stops the read at once.
import fs from 'node:fs';
import net from 'node:net';
import { Readable } from 'node:stream';
import { AbortError, UsageError } from './errors.js';

/**
 * What a message names: a file or a stream as one thing ("--symbols-file watchlist.txt", "the API
 * key on standard input"), or, as `{ plural }`, what it holds when that is many ("the symbols on
 * standard input"), so that the verb agrees: "the symbols on standard input are larger than 16 MiB".
 */
export type Subject = string | { plural: string };

/** `stream` to its end as UTF-8 text; `what` names it in messages. */
export async function readLimited(stream: Readable, what: Subject, maxBytes: number, signal?: AbortSignal): Promise<string> {
  return (await readBytesLimited(stream, what, maxBytes, signal)).toString('utf8');
}

/** readLimited's bytes, undecoded: for a reader that decodes them itself (a positions file in another encoding). */
export async function readBytesLimited(stream: Readable, what: Subject, maxBytes: number, signal?: AbortSignal): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  const onAbort = () => stream.destroy(new AbortError());
  if (signal?.aborted) throw new AbortError();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for await (const chunk of stream) {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      size += buffer.length;
      if (size > maxBytes) throw tooLarge(what, maxBytes);
      chunks.push(buffer);
    }
  } catch (error) {
    if (signal?.aborted) throw new AbortError();
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot read ${nameOf(what)}: ${describeReadError(error)}`);
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  return Buffer.concat(chunks);
}

/**
 * The file at `path`, read the same way; `what` names it ("--symbols-file watchlist.txt"). A
 * regular file has a size to check and cannot block, so it is read at once, with no stream. A pipe
 * (`<(cmd)`, a FIFO) is read through a non-blocking socket: a file read of an idle pipe blocks a
 * thread of Node's pool, and the process could not exit on Ctrl-C until the writer wrote.
 */
export async function readFileLimited(path: string, what: Subject, maxBytes: number, signal?: AbortSignal): Promise<string> {
  return (await readFileBytesLimited(path, what, maxBytes, signal)).toString('utf8');
}

/** readFileLimited's bytes, undecoded. */
export async function readFileBytesLimited(path: string, what: Subject, maxBytes: number, signal?: AbortSignal): Promise<Buffer> {
  let pipe: Readable | undefined;
  try {
    if (signal?.aborted) throw new AbortError();
    const stat = fs.statSync(path);
    if (stat.isFile()) {
      if (stat.size > maxBytes) throw tooLarge(what, maxBytes);
      const text = fs.readFileSync(path);
      // It grew after the stat.
      if (text.length > maxBytes) throw tooLarge(what, maxBytes);
      return text;
    }
    if (stat.isFIFO() || stat.isSocket()) {
      // Non-blocking, so opening a FIFO nobody writes to does not wait either; the socket owns the fd.
      const fd = fs.openSync(path, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
      const now = stat.isFIFO() ? readAvailable(fd, what, maxBytes) : undefined;
      // A FIFO that held data and has no writer left has ended: what it held is all there is (Linux
      // would never tell this reader of the end, as it opened with no writer). An empty one with no
      // writer waits for one, as `cat` does, Ctrl-C or SIGTERM ending the wait (`signal`).
      if (now?.ended) return Buffer.concat(now.chunks);
      pipe = new net.Socket({ fd, readable: true, writable: false });
      if (now !== undefined && now.chunks.length > 0) pipe = Readable.from(withFirst(now.chunks, pipe));
    }
  } catch (error) {
    if (error instanceof UsageError || error instanceof AbortError) throw error;
    throw new UsageError(`cannot read ${nameOf(what)}: ${describeReadError(error)}`);
  }
  return readBytesLimited(pipe ?? fs.createReadStream(path, { highWaterMark: 64 * 1024 }), what, maxBytes, signal);
}

/**
 * What a FIFO opened without blocking holds now, read without waiting: `ended` (and the fd closed)
 * when it held data and a read then says no process has it open for writing (POSIX: it reads as
 * ended), else what was there before a read would have to wait for a writer, or for its first.
 */
function readAvailable(fd: number, what: Subject, maxBytes: number): { chunks: Buffer[]; ended: boolean } {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for (;;) {
      const buffer = Buffer.alloc(64 * 1024);
      const read = fs.readSync(fd, buffer);
      if (read === 0) {
        if (chunks.length === 0) return { chunks, ended: false };
        fs.closeSync(fd);
        return { chunks, ended: true };
      }
      size += read;
      if (size > maxBytes) throw tooLarge(what, maxBytes);
      chunks.push(buffer.subarray(0, read));
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EAGAIN') return { chunks, ended: false };
    fs.closeSync(fd);
    throw error;
  }
}

/** `first`, then the rest of `rest`; the rest is destroyed with the stream. */
async function* withFirst(first: readonly Buffer[], rest: Readable): AsyncGenerator<Buffer> {
  try {
    yield* first;
    for await (const chunk of rest) yield chunk as Buffer;
  } finally {
    rest.destroy();
  }
}

function tooLarge(what: Subject, maxBytes: number): UsageError {
  const many = typeof what !== 'string';
  return new UsageError(`${nameOf(what)} ${many ? 'are' : 'is'} larger than ${formatBytes(maxBytes)}`, `mkt reads at most ${formatBytes(maxBytes)} of ${many ? 'them' : 'it'}`);
}

function nameOf(what: Subject): string {
  return typeof what === 'string' ? what : what.plural;
}

function describeReadError(error: unknown): string {
  switch ((error as NodeJS.ErrnoException).code) {
    case 'ENOENT': return 'no such file';
    case 'EISDIR': return 'it is a directory';
    case 'EACCES':
    case 'EPERM': return 'permission denied';
    default: return (error as Error).message;
  }
}

export function formatBytes(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / 1024 / 1024} MiB`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}
