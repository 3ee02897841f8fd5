// What a program passes to createClient and its calls, checked where it is passed: a mistake is an
// OptionsError naming the option (`error.option`), before any connection, rather than a TypeError
// from deep inside or a request that can only fail. Secrets are checked but never quoted. Each
// operation checks its own input with these (auth.ts; a data operation's by its descriptor,
// data-operation.ts, a list input with checkList).
import { OptionsError, type OptionsErrorInit } from './errors.js';
import type { ClientOptions } from './options.js';
import { MAX_RETRIES, MAX_TIMER_MS } from '../shared/limits.js';
import { isLoopback } from '../shared/loopback.js';
import type { ValueRule } from '../shared/operations.js';
import { BEARER_TOKEN_PATTERN, ORGANIZATION_FORM, ORGANIZATION_PATTERN } from '../shared/patterns.js';
import { stripControl } from '../shared/text.js';

export const invalid = (message: string, init: OptionsErrorInit) => new OptionsError('INVALID_OPTIONS', message, init);

/** `text` for a message: controls removed, at most 60 characters, quoted. */
export const shown = (value: unknown) => JSON.stringify(stripControl(String(value)).slice(0, 60));

/** Each option, as unknown: what a program passes may be anything. */
type Unchecked<T> = { [K in keyof T]?: unknown };

export function checkClientOptions(options: Unchecked<ClientOptions>): void {
  if (options === null || typeof options !== 'object') throw invalid('createClient needs an options object with a baseUrl', { option: 'baseUrl' });
  if (options.allowInsecureHttp !== undefined && typeof options.allowInsecureHttp !== 'boolean') {
    throw invalid('allowInsecureHttp must be true or false', { option: 'allowInsecureHttp', expected: 'true or false' });
  }
  checkBaseUrl(options.baseUrl, options.allowInsecureHttp === true);
  checkNumber('timeoutMs', options.timeoutMs, 1, MAX_TIMER_MS, true);
  checkNumber('retries', options.retries, 0, MAX_RETRIES, true);
  checkNumber('maxWaitMs', options.maxWaitMs, 0, Number.MAX_SAFE_INTEGER, false);
  checkNumber('maxResponseBytes', options.maxResponseBytes, 1, Number.MAX_SAFE_INTEGER, true);
  if (options.userAgent !== undefined && (typeof options.userAgent !== 'string' || !/^[\x20-\x7e]*$/.test(options.userAgent))) {
    throw invalid('userAgent must be a string of printable ASCII characters', { option: 'userAgent', expected: 'a string of printable ASCII characters' });
  }
  for (const name of ['onWait', 'onDebug'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'function') throw invalid(`${name} must be a function`, { option: name, expected: 'a function' });
  }
  const dispatcher = options.dispatcher as { request?: unknown } | undefined;
  if (dispatcher !== undefined && typeof dispatcher?.request !== 'function') {
    throw invalid('dispatcher must be an undici Dispatcher', {
      option: 'dispatcher', expected: 'an undici Dispatcher', hint: 'pass an Agent, ProxyAgent or MockAgent from undici, or leave it out',
    });
  }
  if (options.signal !== undefined && !isAbortSignal(options.signal)) {
    throw invalid(`signal must be an AbortSignal, not ${describe(options.signal)}`, { option: 'signal', expected: 'an AbortSignal', hint: 'pass the signal of an AbortController, or AbortSignal.timeout(ms)' });
  }
  checkHooks(options.hooks);
  checkCredentials(typeof options.accessToken === 'function' ? undefined : options.accessToken, options.organizationId);
}

/** An AbortSignal, by its shape: one from another realm (a vm context, a worker's copy of Node) is one too. */
function isAbortSignal(value: unknown): value is AbortSignal {
  const signal = value as Partial<AbortSignal> | null;
  return signal !== null && typeof signal === 'object' && typeof signal.aborted === 'boolean'
    && typeof signal.addEventListener === 'function' && typeof signal.removeEventListener === 'function';
}

function checkHooks(hooks: unknown): void {
  if (hooks === undefined) return;
  const expected = '{ beforeRequest?: [functions], afterResponse?: [functions] }';
  if (hooks === null || typeof hooks !== 'object' || Array.isArray(hooks)) throw invalid(`hooks must be an object ${expected}`, { option: 'hooks', expected });
  for (const [name, list] of Object.entries(hooks)) {
    if (name !== 'beforeRequest' && name !== 'afterResponse') throw invalid(`hooks has no ${shown(name)}: it takes beforeRequest and afterResponse`, { option: 'hooks', expected });
    if (list !== undefined && (!Array.isArray(list) || list.some((hook, index) => !(index in list) || typeof hook !== 'function'))) {
      throw invalid(`hooks.${name} must be an array of functions`, { option: 'hooks', expected });
    }
  }
}

/**
 * An http(s) URL without a user name or password; plain http only to this machine (127.0.0.0/8,
 * ::1, localhost) unless allowed: the API key, client secret and tokens would cross the network
 * readable by anyone on the way.
 */
function checkBaseUrl(baseUrl: unknown, allowInsecureHttp: boolean): void {
  const option = 'baseUrl';
  if (typeof baseUrl !== 'string' || baseUrl.trim() === '') {
    throw invalid('baseUrl is required: the address of the Market Data Service', { option, hint: 'for example https://api.example.com' });
  }
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw invalid(`baseUrl is not an absolute URL: ${shown(baseUrl)}`, { option, hint: 'give the address with its scheme, e.g. https://api.example.com' });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalid(`baseUrl must be an https:// or http:// address, not ${url.protocol}//`, { option });
  if (url.username !== '' || url.password !== '') {
    throw invalid('baseUrl must not hold a user name or password', { option, hint: 'the client authenticates with tokens: remove the user:password@ part' });
  }
  // Each request's path and query are the client's to build; these would be dropped without a word.
  if (url.search !== '' || url.hash !== '') throw invalid(`baseUrl must not have a query or fragment: ${url.origin}${url.pathname}`, { option });
  if (url.protocol === 'http:' && !allowInsecureHttp && !isLoopback(url.hostname)) {
    throw new OptionsError('INSECURE_HTTP', `baseUrl ${url.origin} is plain http to another machine: the API key, client secret and tokens would cross the network unencrypted`, {
      option, hint: 'use https://, or pass allowInsecureHttp: true for a network you trust',
    });
  }
}

/** A number option or input within [min, max] (an integer where `integer`); `operation` names the call it is an input of. */
export function checkNumber(name: string, value: unknown, min: number, max: number, integer: boolean, operation?: string): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !(value >= min && value <= max) || (integer && !Number.isInteger(value))) {
    const kind = integer ? 'an integer' : 'a number';
    const range = max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max}`;
    const expected = `${kind} ${range}`;
    throw invalid(`${name} must be ${expected}, not ${typeof value === 'number' ? value : shown(value)}`, {
      option: name, operation, expected, min, ...(max === Number.MAX_SAFE_INTEGER ? {} : { max }),
    });
  }
}

/** The token (never quoted) and the organization, where given; `operation` names the call they were given to. */
export function checkCredentials(accessToken: unknown, organizationId: unknown, operation?: string): void {
  if (accessToken !== undefined && (typeof accessToken !== 'string' || !BEARER_TOKEN_PATTERN.test(accessToken))) {
    throw invalid('accessToken must be a bearer token: one or more visible ASCII characters, no spaces or line breaks', {
      option: 'accessToken', operation, expected: 'a bearer token, or a function that returns one',
    });
  }
  if (organizationId !== undefined && (typeof organizationId !== 'string' || !ORGANIZATION_PATTERN.test(organizationId))) {
    throw invalid(`organizationId must have the form ${ORGANIZATION_FORM}, not ${shown(organizationId)}`, { option: 'organizationId', operation, expected: `the form ${ORGANIZATION_FORM}` });
  }
}

/**
 * A call's list input `option` (its symbols, its venues): an array of at least one item, each a
 * string by its rule (src/shared/operations.ts); `operation` names the call. Every slot counts: a
 * sparse array's holes are items that are not there. Check an optional list only when it is given.
 */
export function checkList(operation: string, option: string, values: unknown, items: Omit<ValueRule, 'problem'>): void {
  const { noun } = items;
  if (!Array.isArray(values) || values.length === 0) {
    throw invalid(`${operation} needs ${option}: an array of at least one ${noun}, e.g. [${JSON.stringify(items.example)}]`, {
      option, operation, expected: `an array of at least one ${noun}`,
    });
  }
  // A for loop, not filter(): filter skips holes, and `new Array(3)` would pass as no items at all.
  const bad: string[] = [];
  for (let index = 0; index < values.length; index++) {
    const value: unknown = values[index];
    if (!(index in values)) bad.push(`an empty slot (at ${index})`);
    else if (typeof value !== 'string' || !items.pattern.test(value)) bad.push(shown(value));
  }
  if (bad.length > 0) {
    throw invalid(`invalid ${noun}${bad.length > 1 ? 's' : ''} in ${option}: ${bad.slice(0, 5).join(', ')}${bad.length > 5 ? ` and ${bad.length - 5} more` : ''}`, {
      option, operation, expected: `${noun}s of ${items.rule}`, hint: items.hint ?? `a ${noun} is ${items.rule}`,
    });
  }
}

/**
 * An optional option or input of one JavaScript type, where a wrong type would only fail later, as
 * a TypeError from deep inside: `name must be <expected>, not <what it is>`; `operation` names the call.
 */
export function checkType(name: string, value: unknown, type: 'string' | 'boolean' | 'function', expected: string, operation?: string): void {
  if (value !== undefined && typeof value !== type) throw invalid(`${name} must be ${expected}, not ${describe(value)}`, { option: name, operation, expected });
}

/** What `value` is, for a message that cannot quote it: `a string`, `an object`, `null`. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  const type = typeof value;
  return type === 'object' ? 'an object' : type === 'undefined' ? 'undefined' : `a ${type}`;
}
