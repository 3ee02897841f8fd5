// The words of an error, for main to print (and for `mkt status --check`'s report). The command that
// runs knows what it asked for and with which credentials, so it words its own errors: it registers
// an Explainer (RunState.explain, see hints/ and commands/) when it runs, and main asks it first.
// What it leaves unsaid is worded here, for any command alike: the library's own message and hint,
// its option names (`maxWaitMs`, `batchSize`) turned into mkt's flags. Nothing here knows a command.
import type { Command } from 'commander';
import { ApiError } from '../api/index.js';

export interface Explained {
  message: string;
  hint: string | undefined;
  /** The service's request id (X-Request-Id or the body's request_id), for support. */
  requestId: string | undefined;
}

/** A command's own words for an error; either may be left to the generic wording. */
export interface Words {
  message?: string;
  hint?: string;
}

/** A command's wording of its errors: undefined for an error it has nothing to add to. */
export type Explainer = (error: Error) => Words | undefined;

/**
 * What the library calls its options, and what mkt calls them. `retries` and `concurrency` are also
 * plain words ("after 2 retries"): only their identifier forms are replaced (`retries`, retries: 2).
 */
const OPTION_WORDS: ReadonlyArray<readonly [RegExp, string]> = [
  [/`?\ballowInsecureHttp\b(?:: ?true)?`?/g, 'MKT_ALLOW_INSECURE_HTTP=1'],
  [/`?\bmaxWaitMs\b`?/g, '--max-wait'],
  [/`?\bbatchSize\b`?/g, '--batch-size'],
  [/`?\btimeoutMs\b`?/g, '--timeout'],
  [/`?\bbaseUrl\b`?/g, 'the base URL (--base-url)'],
  [/`concurrency`|\bconcurrency(?= ?[(=:])/g, '--concurrency'],
  [/`retries`|\bretries(?= ?[(=:])/g, '--retries'],
];

/** The library's option names in `text` replaced by mkt's flags; `maxWaitMs (30s)` reads `--max-wait 30s`. */
export function inCliWords(text: string): string {
  let out = text;
  for (const [pattern, words] of OPTION_WORDS) out = out.replace(pattern, words);
  return out.replace(/(--[a-z-]+) \(([^()\s]+)\)/g, '$1 $2');
}

/** `error` in the running command's words (`own`), or else in the library's, with mkt's flags. */
export function explainError(error: Error & { hint?: string }, own?: Explainer): Explained {
  const requestId = error instanceof ApiError && error.requestId ? error.requestId.slice(0, 128) : undefined;
  let words: Words | undefined;
  try {
    words = own?.(error);
  } catch {
    // A command's wording that fails must not hide the error it was wording.
    words = undefined;
  }
  const message = words?.message ?? inCliWords(error.message);
  const hint = words?.hint ?? (error.hint === undefined ? undefined : inCliWords(error.hint));
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
