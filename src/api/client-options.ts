// What a program passes to createClient and its calls, checked where it is passed: a mistake is an
// OptionsError naming the option, before any connection, rather than a TypeError from deep inside
// or a request that can only fail. Secrets are checked but never quoted.
import { OptionsError } from './errors.js';
import { MAX_BATCH_SIZE, MAX_CONCURRENCY, MAX_RETRIES, MAX_TIMER_MS } from '../shared/limits.js';
import { isLoopback } from '../shared/loopback.js';
import { API_KEY_PATTERN, BEARER_TOKEN_PATTERN, ORGANIZATION_FORM, ORGANIZATION_PATTERN, SYMBOL_PATTERN, VENUE_PATTERN } from '../shared/patterns.js';
import { stripControl } from '../shared/text.js';

const invalid = (message: string, hint?: string) => new OptionsError('INVALID_OPTIONS', message, { hint });

/** `text` for a message: controls removed, at most 60 characters, quoted. */
const shown = (value: unknown) => JSON.stringify(stripControl(String(value)).slice(0, 60));

export interface CheckedClientOptions {
  baseUrl?: unknown;
  allowInsecureHttp?: unknown;
  timeoutMs?: unknown;
  retries?: unknown;
  maxWaitMs?: unknown;
  maxResponseBytes?: unknown;
  userAgent?: unknown;
  onWait?: unknown;
  onDebug?: unknown;
  dispatcher?: unknown;
  accessToken?: unknown;
  organizationId?: unknown;
}

export function checkClientOptions(options: CheckedClientOptions): void {
  if (options === null || typeof options !== 'object') throw invalid('createClient needs an options object with a baseUrl');
  if (options.allowInsecureHttp !== undefined && typeof options.allowInsecureHttp !== 'boolean') throw invalid('allowInsecureHttp must be true or false');
  checkBaseUrl(options.baseUrl, options.allowInsecureHttp === true);
  checkNumber('timeoutMs', options.timeoutMs, 1, MAX_TIMER_MS, true);
  checkNumber('retries', options.retries, 0, MAX_RETRIES, true);
  checkNumber('maxWaitMs', options.maxWaitMs, 0, Number.MAX_SAFE_INTEGER, false);
  checkNumber('maxResponseBytes', options.maxResponseBytes, 1, Number.MAX_SAFE_INTEGER, true);
  if (options.userAgent !== undefined && (typeof options.userAgent !== 'string' || !/^[\x20-\x7e]*$/.test(options.userAgent))) {
    throw invalid('userAgent must be a string of printable ASCII characters');
  }
  for (const name of ['onWait', 'onDebug'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'function') throw invalid(`${name} must be a function`);
  }
  const dispatcher = options.dispatcher as { request?: unknown } | undefined;
  if (dispatcher !== undefined && typeof dispatcher?.request !== 'function') {
    throw invalid('dispatcher must be an undici Dispatcher', 'pass an Agent, ProxyAgent or MockAgent from undici, or leave it out');
  }
  checkCredentials(options.accessToken, options.organizationId);
}

/**
 * An http(s) URL without a user name or password; plain http only to this machine (127.0.0.0/8,
 * ::1, localhost) unless allowed: the API key, client secret and tokens would cross the network
 * readable by anyone on the way.
 */
export function checkBaseUrl(baseUrl: unknown, allowInsecureHttp: boolean): void {
  if (typeof baseUrl !== 'string' || baseUrl.trim() === '') {
    throw invalid('baseUrl is required: the address of the Market Data Service', 'for example https://api.example.com');
  }
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw invalid(`baseUrl is not an absolute URL: ${shown(baseUrl)}`, 'give the address with its scheme, e.g. https://api.example.com');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalid(`baseUrl must be an https:// or http:// address, not ${url.protocol}//`);
  if (url.username !== '' || url.password !== '') {
    throw invalid('baseUrl must not hold a user name or password', 'the client authenticates with tokens: remove the user:password@ part');
  }
  // Each request's path and query are the client's to build; these would be dropped without a word.
  if (url.search !== '' || url.hash !== '') throw invalid(`baseUrl must not have a query or fragment: ${url.origin}${url.pathname}`);
  if (url.protocol === 'http:' && !allowInsecureHttp && !isLoopback(url.hostname)) {
    throw new OptionsError('INSECURE_HTTP', `baseUrl ${url.origin} is plain http to another machine: the API key, client secret and tokens would cross the network unencrypted`, {
      hint: 'use https://, or pass allowInsecureHttp: true for a network you trust',
    });
  }
}

function checkNumber(name: string, value: unknown, min: number, max: number, integer: boolean): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !(value >= min && value <= max) || (integer && !Number.isInteger(value))) {
    const kind = integer ? 'an integer' : 'a number';
    const range = max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max}`;
    throw invalid(`${name} must be ${kind} ${range}, not ${typeof value === 'number' ? value : shown(value)}`);
  }
}

/** The token (never quoted) and the organization, where given. */
export function checkCredentials(accessToken: unknown, organizationId: unknown): void {
  if (accessToken !== undefined && (typeof accessToken !== 'string' || !BEARER_TOKEN_PATTERN.test(accessToken))) {
    throw invalid('accessToken must be a bearer token: one or more visible ASCII characters, no spaces or line breaks');
  }
  if (organizationId !== undefined && (typeof organizationId !== 'string' || !ORGANIZATION_PATTERN.test(organizationId))) {
    throw invalid(`organizationId must have the form ${ORGANIZATION_FORM}, not ${shown(organizationId)}`);
  }
}

/** A call's symbols: an array of at least one, each 1 to 32 visible ASCII characters; `operation` names the call. */
export function checkSymbols(operation: string, symbols: unknown): void {
  if (!Array.isArray(symbols) || symbols.length === 0) throw invalid(`${operation} needs symbols: an array of at least one symbol, e.g. ["EURUSD"]`);
  const bad = symbols.filter((symbol) => typeof symbol !== 'string' || !SYMBOL_PATTERN.test(symbol));
  if (bad.length > 0) {
    throw invalid(`invalid symbol${bad.length > 1 ? 's' : ''} in symbols: ${bad.slice(0, 5).map(shown).join(', ')}${bad.length > 5 ? ` and ${bad.length - 5} more` : ''}`,
      'a symbol is 1 to 32 visible ASCII characters: letters, digits and punctuation, no spaces');
  }
}

export interface CheckedQuotesInput {
  symbols?: unknown;
  venue?: unknown;
  batchSize?: unknown;
  concurrency?: unknown;
  onProgress?: unknown;
}

export function checkQuotesInput(input: CheckedQuotesInput): void {
  checkSymbols('getQuotes', input.symbols);
  if (input.venue !== undefined && (typeof input.venue !== 'string' || !VENUE_PATTERN.test(input.venue))) {
    throw invalid(`venue must be 1 to 64 visible ASCII characters, not ${shown(input.venue)}`);
  }
  checkNumber('batchSize', input.batchSize, 1, MAX_BATCH_SIZE, true);
  checkNumber('concurrency', input.concurrency, 1, MAX_CONCURRENCY, true);
  if (input.onProgress !== undefined && typeof input.onProgress !== 'function') throw invalid('onProgress must be a function');
}

export function checkLoginInput(input: { apiKey?: unknown; organizationId?: unknown }): void {
  if (typeof input?.apiKey !== 'string' || !API_KEY_PATTERN.test(input.apiKey)) {
    throw invalid('apiKey must have the form <client_id>.<client_secret>', 'copy the whole key, both parts joined by a dot');
  }
  if (input.organizationId === undefined) throw invalid('cliLogin needs an organizationId');
  checkCredentials(undefined, input.organizationId);
}

export function checkClientCredentials(input: { clientId?: unknown; clientSecret?: unknown; scope?: unknown }): void {
  if (typeof input?.clientId !== 'string' || input.clientId === '' || typeof input.clientSecret !== 'string' || input.clientSecret === '') {
    throw invalid('clientCredentials needs a clientId and a clientSecret, both non-empty strings');
  }
  if (input.scope !== undefined && typeof input.scope !== 'string') {
    throw invalid('clientCredentials scope must be a string of space-separated scopes, e.g. "market.read"');
  }
}
