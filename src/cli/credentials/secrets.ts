// Every secret mkt holds during a run (MKT_TOKEN, MKT_API_KEY, MKT_CLIENT_SECRET, the stored token, a
// key or secret read from standard input or a prompt) is scrubbed by value from its diagnostics:
// the last guard for what a server, a file or an error message may echo back. Only
// diagnostics: the data on stdout is written as the service sent it, whatever it happens to contain
// (scrubbing data turned every timestamp into `[redacted]-11-24` for a client secret `2026`). main wraps the run's
// stderr once, in the run's one writer of it (output/diagnostics.ts); code that comes to hold a secret
// registers it with holdSecret.
import { redactSecrets } from '../../shared/text.js';
import type { Deps } from '../deps.js';
import { attachDiagnostics, createDiagnostics } from '../output/diagnostics.js';

/** The secrets of each run, by the Deps main hands to the commands. */
const held = new WeakMap<Deps, Set<string>>();

/** Environment variables whose values are secrets. */
const SECRET_VARIABLES = ['MKT_TOKEN', 'MKT_API_KEY', 'MKT_CLIENT_SECRET'] as const;

/**
 * `deps` with the run's diagnostics (output/diagnostics.ts, diagnosticsOf): what it writes on stderr is
 * scrubbed of every secret held during the run. stdout is handed on unscrubbed: no renderer can
 * scrub the data, by mistake or on purpose; the diagnostics only clear their progress line first.
 */
export function withScrubbedDiagnostics(deps: Deps): Deps {
  const secrets = new Set<string>();
  const diagnostics = createDiagnostics({
    stdout: deps.io.stdout, stderr: deps.io.stderr, tty: deps.io.stderrIsTTY, now: deps.now,
    scrub: (text) => (secrets.size === 0 ? text : redactSecrets(text, secrets)),
  });
  // Not a spread: the process's io reads stdin and its TTY flag lazily through getters (start-up cost).
  const io = Object.create(deps.io, { stdout: { value: diagnostics.stdout }, stderr: { value: diagnostics.stderr } }) as Deps['io'];
  const scrubbed: Deps = { ...deps, io };
  held.set(scrubbed, secrets);
  attachDiagnostics(scrubbed, diagnostics);
  for (const name of SECRET_VARIABLES) holdSecret(scrubbed, deps.env[name]);
  return scrubbed;
}

/**
 * Scrubs `secret` from every diagnostic written from now on. An API key `<client_id>.<client_secret>`
 * is held whole and by its secret part, which a server may echo alone.
 */
export function holdSecret(deps: Deps, secret: string | undefined): void {
  const secrets = held.get(deps);
  if (secrets !== undefined && secret !== undefined) for (const value of formsOf(secret)) secrets.add(value);
}

/** The secret as given and trimmed, and what follows its first dot (an API key's secret part). */
function formsOf(secret: string): string[] {
  const forms: string[] = [];
  for (const value of new Set([secret, secret.trim()])) {
    if (value === '') continue;
    forms.push(value);
    const dot = value.indexOf('.');
    if (dot > 0) forms.push(value.slice(dot + 1));
  }
  return forms;
}

/**
 * `text` without any secret held during the run: for diagnostic text that reaches stdout inside a
 * report (`mkt status --check`'s error, the board's retry line), never for the data.
 */
export function scrubSecrets(deps: Deps | undefined, text: string): string {
  const secrets = deps === undefined ? undefined : held.get(deps);
  return secrets === undefined || secrets.size === 0 ? text : redactSecrets(text, secrets);
}
