// The process's streams as commands see them. Commands write through this interface only, so tests
// capture output without touching process.stdout, and colour and TTY decisions are made once here.
import type { Readable } from 'node:stream';
import { AbortError } from '../api/errors.js';
import { UsageError } from './errors.js';

export interface Output {
  write(text: string): void;
}

export interface PromptOptions {
  /** Echo `*` instead of the typed characters (secrets). */
  mask: boolean;
}

export interface IO {
  stdout: Output;
  stderr: Output;
  stdin: Readable;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** Terminal width when stdout is a TTY. */
  columns: number | undefined;
  /** Ask on the terminal; only called when stdin and stdout are TTYs. */
  prompt(question: string, options: PromptOptions): Promise<string>;
}

export type Env = Readonly<Record<string, string | undefined>>;

/**
 * Colour on a stream: only on a TTY, never with NO_COLOR (non-empty, see no-color.org), TERM=dumb
 * or --no-color; FORCE_COLOR (other than 0/false) forces it. chalk alone does not honour NO_COLOR.
 */
export function isColorEnabled(isTTY: boolean, env: Env, noColorFlag = false): boolean {
  if (noColorFlag) return false;
  if (env.NO_COLOR) return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '' && force !== '0' && force !== 'false') return true;
  if (env.TERM === 'dumb') return false;
  return isTTY;
}

/**
 * Reads a stream to its end as UTF-8 text. More than `maxBytes` is a UsageError naming `what`; an
 * abort of `signal` (Ctrl-C) stops the read at once with an AbortError.
 */
export async function readAll(stream: Readable, what: string, maxBytes: number, signal?: AbortSignal): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  const onAbort = () => stream.destroy(new AbortError());
  if (signal?.aborted) throw new AbortError();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for await (const chunk of stream) {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      size += buffer.length;
      if (size > maxBytes) throw new UsageError(`${what} is larger than ${maxBytes / 1024} KiB`);
      chunks.push(buffer);
    }
  } catch (error) {
    if (error instanceof UsageError || signal?.aborted) throw signal?.aborted ? new AbortError() : error;
    throw new UsageError(`cannot read ${what}: ${(error as Error).message}`);
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** MKT_DEBUG=1 (anything but empty or 0): verbose requests and stack traces. */
export function isDebug(env: Env): boolean {
  return env.MKT_DEBUG !== undefined && env.MKT_DEBUG !== '' && env.MKT_DEBUG !== '0';
}
