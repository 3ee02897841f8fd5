// The process's streams as commands see them. Commands write through this interface only, so tests
// capture output without touching process.stdout. What the streams are (colour, width, characters)
// is decided once, from these and the environment, by output/terminal.ts.
import type { Readable } from 'node:stream';

export interface Output {
  write(text: string): void;
}

export interface PromptOptions {
  /** Echo `*` instead of the typed characters (secrets). */
  mask: boolean;
  /**
   * What is wrong with an answer (trimmed), or undefined when it will do: the prompt says so and
   * asks again, rather than ending the command on a typo.
   */
  validate?: (answer: string) => string | undefined;
}

export interface IO {
  /**
   * The data: quotes in every format, the board, a token asked for with --print, a setting, a
   * report. Written exactly as given, never scrubbed: a value is printed as the service sent it.
   */
  stdout: Output;
  /**
   * Diagnostics: errors, warnings, -v lines, hints, progress and status lines. main scrubs every
   * secret held during the run from what is written here (credentials/secrets.ts).
   */
  stderr: Output;
  stdin: Readable;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** Terminal width when stdout is a TTY, as it reports it (output/terminal.ts reads it). */
  columns: number | undefined;
  /** Ask on the terminal; only called when stdin and stdout are TTYs. */
  prompt(question: string, options: PromptOptions): Promise<string>;
}

export type Env = Readonly<Record<string, string | undefined>>;

/** MKT_DEBUG=1 (anything but empty or 0): verbose requests and stack traces. */
export function isDebug(env: Env): boolean {
  return env.MKT_DEBUG !== undefined && env.MKT_DEBUG !== '' && env.MKT_DEBUG !== '0';
}
