// The run's terminal, described once (as gh's IOStreams is): where the data and the diagnostics go
// (stderr's one writer, diagnostics.ts), whether each is a TTY and may be coloured, whether stdout
// can redraw in place, its width, plain ASCII or UTF-8, and the clock. program.ts makes it when the command's flags are parsed (--no-color
// may come before the command or after it); commands, the writer (writer.ts) and the watch read it,
// and none of them decides colour, width or characters on its own. Colour is handed down as a
// boolean: chalk's global level is never changed.
import { useAscii } from './charset.js';
import type { Deps } from '../deps.js';
import { diagnosticsOf, type Diagnostics } from './diagnostics.js';
import type { Env, Output } from '../io.js';

export interface Terminal {
  /** The data: written exactly as given, never scrubbed, the progress line cleared first (diagnostics.ts). */
  readonly stdout: Output;
  /** Everything said on stderr: warnings, progress, debug lines, in text or JSON lines, scrubbed of secrets. */
  readonly diagnostics: Diagnostics;
  readonly stdoutIsTTY: boolean;
  readonly stderrIsTTY: boolean;
  /** Colour on stdout. */
  readonly color: boolean;
  /** Colour on stderr. */
  readonly stderrColor: boolean;
  /** stdout is a terminal that can move its cursor and redraw in place (a TTY, and TERM is not dumb). */
  readonly cursor: boolean;
  /** Plain ASCII instead of box drawing, arrows, blocks and `…` (charset.ts). */
  readonly ascii: boolean;
  /**
   * stdout's width when it is a terminal: as it reports it, or COLUMNS when it reports none. Undefined
   * in a pipe or when neither says: a table is then drawn whole.
   */
  readonly columns: number | undefined;
  /** The width of a terminal that reported `reported` columns just now (after a resize), by the same rule. */
  widthOf(reported: number | undefined): number | undefined;
  /** Milliseconds since the epoch. */
  now(): number;
}

export interface TerminalFlags {
  /** --no-color, before or after the command. */
  noColor?: boolean;
}

export function createTerminal(deps: Deps, flags: TerminalFlags = {}): Terminal {
  const { io, env } = deps;
  const noColor = flags.noColor === true;
  return {
    stdout: io.stdout,
    diagnostics: diagnosticsOf(deps),
    stdoutIsTTY: io.stdoutIsTTY,
    stderrIsTTY: io.stderrIsTTY,
    color: isColorEnabled(io.stdoutIsTTY, env, noColor),
    stderrColor: isColorEnabled(io.stderrIsTTY, env, noColor),
    cursor: io.stdoutIsTTY && env.TERM !== 'dumb',
    ascii: useAscii(env),
    columns: io.stdoutIsTTY ? terminalColumns(io.columns, env) : undefined,
    widthOf: (reported) => terminalColumns(reported, env),
    now: deps.now,
  };
}

/**
 * The run's terminal: the one program.ts made when the command's flags were parsed. A command run
 * on its own (a test calling its run function) gets one made from its deps, without flags.
 */
export function runTerminal(deps: Deps, state: { terminal?: Terminal }): Terminal {
  state.terminal ??= createTerminal(deps);
  return state.terminal;
}

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
