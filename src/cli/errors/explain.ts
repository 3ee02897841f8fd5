// The words of an error, for main to print (and for `mkt status --check`'s report). The command that
// runs knows what it asked for and with which credentials, so it words its own errors: it registers
// an Explainer (RunState.explain, see hints/ and commands/) when it runs, and main asks it first.
// What it leaves unsaid is worded from the error's facts for any command alike
// (hints/library-errors.ts), and what those leave is the library's own message and hint. Nothing
// here knows a command, and no sentence is rewritten: words come from fields.
import type { Command } from 'commander';
import { ApiError } from '../../api/index.js';
import { printable } from '../../shared/text.js';
import type { Deps } from '../deps.js';
import { ProgramInterruptedError } from './errors.js';
import { errorCodeFor, ExitCode, exitCodeFor } from './exit-codes.js';
import { wordFacts } from '../hints/library-errors.js';
import { FLAG_NAMES, type Explainer, type SettingNames, type Words } from '../hints/words.js';
import { scrubSecrets } from '../credentials/secrets.js';

export type { Explainer, SettingNames };

export interface Explained {
  message: string;
  hint: string | undefined;
  /** The service's request id (X-Request-Id or the body's request_id), for support. */
  requestId: string | undefined;
}

/**
 * `error` in the running command's words (`own`), else in mkt's words for its facts, else in the
 * library's. `names`: how the run's settings were given (RunState.names); the flags when unknown.
 */
export function explainError(error: Error & { hint?: string }, own?: Explainer, names: SettingNames = FLAG_NAMES): Explained {
  const requestId = error instanceof ApiError && error.requestId ? error.requestId.slice(0, 128) : undefined;
  let words: Words | undefined;
  try {
    words = own?.(error, names);
  } catch {
    // A command's wording that fails must not hide the error it was wording.
    words = undefined;
  }
  const facts = wordFacts(error, names);
  const message = words?.message ?? facts.message ?? error.message;
  const hint = words?.hint ?? facts.hint ?? error.hint;
  return { message, hint, requestId };
}

/**
 * commander's parse errors: its suggestion ("(Did you mean --org?)", on a line of its own) becomes
 * the hint, with where to read the usage.
 */
export function explainUsage(error: Error, command: Command | undefined): Explained {
  const [first = '', ...rest] = error.message.replace(/^error: /, '').split('\n');
  const suggestion = /^\(Did you mean (.+)\?\)$/.exec(rest.join(' ').trim());
  const names: string[] = [];
  for (let current = command; current?.parent; current = current.parent) names.unshift(current.name());
  const name = names.length === 0 ? undefined : names.join(' ');
  const help = name !== undefined && /unknown option|argument|missing|too many/.test(first) ? `mkt ${name} --help` : 'mkt --help';
  const usage = `\`${help}\` shows the usage`;
  return {
    message: [first, ...(suggestion ? [] : rest)].join(' ').trim(),
    hint: suggestion ? `did you mean ${suggestion[1]}? ${usage}` : usage,
    requestId: undefined,
  };
}

/** How a run words the errors it did not expect, and an interruption. */
export interface ErrorWording {
  /** The hint of an internal error: where to see more. */
  internalHint: string;
  interrupted: string;
}

/**
 * `error` as a run reports it: `usage`'s words where given (a parse error), the explainer's for a
 * known error, an internal error's otherwise. Made safe for a terminal and a log: messages can quote
 * the service, and nothing it sends may drive a terminal, or give a secret away.
 */
export function reportWords(
  error: unknown, deps: Deps | undefined, own: Explainer | undefined, names: SettingNames | undefined, wording: ErrorWording, usage?: Explained,
): Explained {
  let words: Explained;
  if (usage !== undefined) words = usage;
  else if (error instanceof Error && errorCodeFor(error) !== 'INTERNAL') words = explainError(error, own, names);
  else words = { message: `internal error: ${error instanceof Error ? error.message : String(error)}`, hint: wording.internalHint, requestId: undefined };
  // An interruption is said in one word, whatever it cut short (a request, a wait, a prompt), but
  // when it cut short a program of the user's: then what became of the program.
  const message = exitCodeFor(error) === ExitCode.INTERRUPTED && !(error instanceof ProgramInterruptedError) ? wording.interrupted : words.message;
  const clean = (text: string | undefined) => (text === undefined ? undefined : scrubSecrets(deps, printable(text)));
  return { message: clean(message)!, hint: clean(words.hint), requestId: clean(words.requestId) };
}

/** MKT_DEBUG's account of `error`: its stack and its causes' (five at most), with no secret in it. */
export function debugStack(deps: Deps | undefined, error: Error): string {
  let text = error.stack ?? String(error);
  let cause = error.cause;
  for (let depth = 0; cause instanceof Error && depth < 5; depth++, cause = cause.cause) {
    text += `\ncaused by: ${cause.stack ?? String(cause)}`;
  }
  return scrubSecrets(deps, text);
}
