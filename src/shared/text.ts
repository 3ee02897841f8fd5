// Text from outside mkt goes through here before it reaches a terminal: control characters (ESC
// above all) could otherwise move the cursor, retitle the window or hide output.

// C0 controls, DEL, C1 controls, and the Unicode bidi overrides that can reorder what is shown.
const CONTROL_CHARACTERS = '\\u0000-\\u001f\\u007f-\\u009f\\u202a-\\u202e\\u2066-\\u2069';
const CONTROL = new RegExp(`[${CONTROL_CHARACTERS}]`, 'g');

export function stripControl(text: string): string {
  return text.replace(CONTROL, '');
}

// The same, and the line and paragraph separators some readers take for a line break.
const UNPRINTABLE = new RegExp(`[${CONTROL_CHARACTERS}\\u2028\\u2029]`, 'g');

export interface PrintableOptions {
  /** At most this many characters (code points), the rest replaced by `…`. */
  max?: number;
  /** In double quotes, as JSON writes a string: `"EUR\"USD"`. */
  quote?: boolean;
}

/**
 * Text from outside mkt (a file, the environment, an argument, the service) made safe to show on a
 * terminal or in a message: no control character (ESC above all), bidi override or line separator
 * left to move the cursor, retitle the window, reorder what is shown or break a line. Every other
 * character is kept, digits included: it never rewrites a value, it only drops what cannot be shown.
 */
export function printable(text: unknown, options?: PrintableOptions): string {
  // Called for every cell of a table, TSV or CSV: the plain case does one replace and nothing more.
  let clean = (typeof text === 'string' ? text : String(text)).replace(UNPRINTABLE, '');
  if (options === undefined) return clean;
  const { max } = options;
  if (max !== undefined && clean.length > max) {
    const points = [...clean];
    if (points.length > max) clean = `${points.slice(0, Math.max(0, max)).join('')}…`;
  }
  return options.quote ? JSON.stringify(clean) : clean;
}

// In JSON text, the characters JSON.stringify leaves as they are that a terminal would still act on
// (DEL, C1 controls such as CSI, the line and paragraph separators, bidi overrides).
const RAW_IN_JSON = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** JSON.stringify, with those characters written as \uXXXX escapes: the same value, safe to show. */
export function safeJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(RAW_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** What a secret becomes wherever mkt would print it. */
export const REDACTED = '[redacted]';

/** Where mkt cuts a value it quotes (printable's `max`, and each `…` after a slice). */
const CUT = '…';

/** Secrets shorter than this are left alone, and so is a shorter beginning of one at a cut: replacing them would garble text and hide nothing. */
const SHORTEST_SECRET = 4;

/**
 * `text` with every occurrence of each secret replaced by REDACTED: the last guard for what a
 * server or a file may echo back (a token quoted in an error message, say). A value quoted cut short
 * (`…`) may hold a secret's beginning without its end: that beginning is replaced too.
 */
export function redactSecrets(text: string, secrets: Iterable<string | undefined>): string {
  let out = text;
  for (const secret of secrets) {
    if (secret === undefined || secret.length < SHORTEST_SECRET) continue;
    if (out.includes(secret)) out = out.replaceAll(secret, REDACTED);
    if (out.includes(CUT)) out = redactCutSecret(out, secret);
  }
  return out;
}

/** `text` with the longest beginning of `secret` that ends at a cut, at each cut, replaced by REDACTED. */
function redactCutSecret(text: string, secret: string): string {
  let out = text;
  for (let at = out.indexOf(CUT); at !== -1; at = out.indexOf(CUT, at + 1)) {
    for (let length = Math.min(secret.length - 1, at); length >= SHORTEST_SECRET; length--) {
      if (out.startsWith(secret.slice(0, length), at - length)) {
        out = `${out.slice(0, at - length)}${REDACTED}${out.slice(at)}`;
        at += REDACTED.length - length;
        break;
      }
    }
  }
  return out;
}

/** Where JSON.parse failed in `text`, as `at line 3, column 7`, without quoting it: it may hold a secret. */
export function whereJsonFails(text: string, error: unknown): string {
  const position = Number(/position (\d+)/.exec(String((error as Error).message))?.[1]);
  if (!Number.isInteger(position)) return 'it cannot be parsed';
  const before = text.slice(0, position);
  return `at line ${before.split('\n').length}, column ${position - before.lastIndexOf('\n')}`;
}
