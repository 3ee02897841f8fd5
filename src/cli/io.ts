// The process's streams as commands see them. Commands write through this interface only, so tests
// capture output without touching process.stdout, and colour and TTY decisions are made once here.
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
   * secret held during the run from what is written here (secrets.ts).
   */
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
 * A terminal's width as it reports it, or COLUMNS when it reports nothing (0, as `script` and some
 * CI runners and container consoles do, or no number at all), as other tools do; undefined when
 * neither says: the table is then drawn whole, as in a pipe, and the board assumes 80.
 */
export function terminalColumns(reported: number | undefined, env: Env): number | undefined {
  if (reported !== undefined && reported > 0) return reported;
  const fromEnv = env.COLUMNS?.trim() ?? '';
  return /^[1-9]\d{0,4}$/.test(fromEnv) ? Number(fromEnv) : undefined;
}

/** MKT_DEBUG=1 (anything but empty or 0): verbose requests and stack traces. */
export function isDebug(env: Env): boolean {
  return env.MKT_DEBUG !== undefined && env.MKT_DEBUG !== '' && env.MKT_DEBUG !== '0';
}
