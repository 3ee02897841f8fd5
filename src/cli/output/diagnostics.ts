// The one writer of what mkt says on stderr, as gh's IOStreams owns its progress indicator: every
// line of mkt's own (a warning, a -v or MKT_DEBUG line, a wait, a confirmation, the error) goes
// through the run's Diagnostics, and so do the progress line and its countdown, which it clears
// before anything else is written on stderr and before anything reaches stdout. A command never
// stops or clears progress itself: a table written after a wait began on the countdown's line
// (`waiting 1s to retry┌───┬…`) in a command that forgot to.
//
// Under a JSON format (options/format.ts: diagnosticsAsJson) every line is a JSON object of its
// kind, so that stderr is JSON lines a script can read: {"warning": {"code", "message", "hint"}}
// (the codes: src/shared/warnings.ts), {"debug": {"message"}}, {"wait": {"kind", "reason",
// "wait_ms", "done", "total", "message"}}, {"info": {"message"}}, and the error object last
// (main.ts); the progress line and the countdown are not drawn. Secrets held during the run are
// scrubbed from every string before it is serialised (credentials/secrets.ts), so JSON stays JSON.
import type { WaitEvent } from '../../api/index.js';
import { safeJson } from '../../shared/text.js';
import type { Warning } from '../../shared/warnings.js';
import type { Deps } from '../deps.js';
import type { Output } from '../io.js';

export interface Diagnostics {
  /** Whether lines are JSON objects; undefined until decided. */
  readonly json: boolean | undefined;
  /**
   * Decides once whether lines are JSON: when the command's flags are parsed (program.ts), or, for
   * an error before then, by main. Lines said before are held until then, since the format may be
   * the profile's, and reading the profile may warn.
   */
  decide(json: boolean): void;
  warn(warning: Warning): void;
  /** A -v or MKT_DEBUG line: a request, a response, a stack trace. */
  debug(text: string): void;
  /** A line for people: a confirmation (`Logged in to …`). */
  info(text: string): void;
  /** A wait about to start, in words (progress.ts words it). */
  wait(event: WaitEvent, text: string): void;
  /**
   * The progress line, redrawn in place on a terminal (`fetched 3/10 batches`), or cleared when
   * undefined; either way its countdown stops. Not drawn in a pipe or under JSON.
   */
  progress(text: string | undefined): void;
  /** The progress line counting down to `end` (on the run's clock), redrawn every second: `line(msLeft)`. */
  countdown(end: number, line: (leftMs: number) => string): void;
  /** The run's error, the last thing said: its JSON object under a JSON format, else its text, lines and all. */
  error(object: Record<string, unknown>, text: string): void;
  /** The run is over: the progress line is cleared, its countdown stopped, anything held written as text. */
  finish(): void;
  /** The data: each write first clears the progress line, and ends its countdown. */
  readonly stdout: Output;
  /**
   * Text that is not a line of mkt's own (an --exec program's stderr, a log), written as it comes,
   * scrubbed, once the progress line is cleared.
   */
  readonly stderr: Output;
}

export interface DiagnosticsOptions {
  stdout: Output;
  stderr: Output;
  /** stderr is a terminal: the progress line may be drawn. */
  tty: boolean;
  /** The run's clock, for the countdown. */
  now: () => number;
  /** The run's secrets taken out of a text (credentials/secrets.ts). */
  scrub?: (text: string) => string;
}

/** Back to the start of the line, and the line cleared. */
const CLEAR = '\r\u001b[2K';

export function createDiagnostics(options: DiagnosticsOptions): Diagnostics {
  const { tty, now } = options;
  const scrub = options.scrub ?? ((text: string) => text);
  let json: boolean | undefined;
  const held: Array<() => void> = [];
  /** The progress line shows. */
  let shown = false;
  let ticking: ReturnType<typeof setInterval> | undefined;

  const stopCountdown = () => {
    if (ticking !== undefined) clearInterval(ticking);
    ticking = undefined;
  };
  const clear = () => {
    if (!shown) return;
    options.stderr.write(CLEAR);
    shown = false;
  };
  const draw = (text: string) => {
    options.stderr.write(`${CLEAR}${scrub(text)}`);
    shown = true;
  };
  /** A line of its own, on a line of its own: the progress line is cleared for it (the next progress draws it again). */
  const line = (text: string) => {
    clear();
    options.stderr.write(`${text}\n`);
  };
  /** `object` as a JSON line under a JSON format, else `text` as lines; held until that is decided. */
  const say = (object: () => Record<string, unknown>, text: () => string) => {
    const write = () => line(json ? safeJson(scrubStrings(object(), scrub)) : scrub(text()));
    if (json === undefined) held.push(write);
    else write();
  };
  const drawable = () => tty && json === false;
  const decide = (value: boolean) => {
    if (json !== undefined) return;
    json = value;
    for (const write of held.splice(0)) write();
  };

  return {
    get json() {
      return json;
    },
    decide,
    warn({ code, message, hint }) {
      say(() => ({ warning: { code, message, hint: hint ?? null } }), () => `warning: ${message}${hint === undefined ? '' : `; ${hint}`}`);
    },
    debug(text) {
      say(() => ({ debug: { message: text } }), () => text);
    },
    info(text) {
      say(() => ({ info: { message: text } }), () => text);
    },
    wait(event, text) {
      say(() => ({ wait: { kind: event.kind, reason: event.reason, wait_ms: event.waitMs, done: event.done, total: event.total, message: text } }), () => text);
    },
    progress(text) {
      stopCountdown();
      if (text === undefined || !drawable()) clear();
      else draw(text);
    },
    countdown(end, describe) {
      stopCountdown();
      if (!drawable()) return;
      const tick = () => {
        const left = end - now();
        if (left > 0) return draw(describe(left));
        stopCountdown();
        clear();
      };
      tick();
      if (!shown) return;
      ticking = setInterval(tick, 1000);
      ticking.unref();
    },
    error(object, text) {
      say(() => object, () => text);
    },
    finish() {
      stopCountdown();
      clear();
      decide(false);
    },
    stdout: {
      write(text) {
        stopCountdown();
        clear();
        options.stdout.write(text);
      },
    },
    stderr: {
      write(text) {
        clear();
        options.stderr.write(scrub(text));
      },
    },
  };
}

/** Every string in a JSON value scrubbed; numbers, keys and the shape as they are. */
function scrubStrings(value: unknown, scrub: (text: string) => string): unknown {
  if (typeof value === 'string') return scrub(value);
  if (Array.isArray(value)) return value.map((item) => scrubStrings(item, scrub));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, scrubStrings(item, scrub)]));
  }
  return value;
}

const attached = new WeakMap<Deps, Diagnostics>();

/** `diagnostics` is the run's for `deps` (credentials/secrets.ts, where main's deps are made). */
export function attachDiagnostics(deps: Deps, diagnostics: Diagnostics): void {
  attached.set(deps, diagnostics);
}

/**
 * The run's diagnostics. Deps that main did not make (a test calling a command's parts) get their
 * own, in text, writing to their stderr as it is.
 */
export function diagnosticsOf(deps: Deps): Diagnostics {
  let diagnostics = attached.get(deps);
  if (diagnostics === undefined) {
    diagnostics = createDiagnostics({ stdout: deps.io.stdout, stderr: deps.io.stderr, tty: deps.io.stderrIsTTY, now: deps.now });
    diagnostics.decide(false);
    attached.set(deps, diagnostics);
  }
  return diagnostics;
}
