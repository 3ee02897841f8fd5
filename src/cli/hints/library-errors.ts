// The words for any library error, from its facts (errors/explain.ts asks these after the running
// command's own explainer): where the library's message or hint would name one of its options
// (baseUrl, timeoutMs, maxWaitMs, a dispatcher), mkt says it in its own terms, from the error's
// fields and the run's SettingNames; what the library says of nothing mkt calls otherwise is left
// to the library's own message and hint. No sentence of the library's is read or rewritten here.
import {
  ApiError, NetworkError, OptionsError, RateLimitError, ResponseError, TimeoutError,
} from '../../api/index.js';
import { describeStatus, displayUrl } from '../../api/internal.js';
import { formatDuration, formatWait, perWindow } from '../../shared/duration.js';
import { optionName, type SettingNames, type Words } from './words.js';

/** mkt's words for `error`, where its facts call for them; empty where the library's own will do. */
export function wordFacts(error: Error, names: SettingNames): Words {
  if (error instanceof OptionsError) return optionsWords(error, names);
  if (error instanceof RateLimitError && error.status === 0 && error.maxWaitMs !== undefined) return foreseenWords(error);
  if (error instanceof ApiError) return apiWords(error, names);
  if (error instanceof TimeoutError) return { hint: `the service or the network is slow or unreachable; raise ${names.timeout}, or try again` };
  if (error instanceof NetworkError) return { hint: networkHint(error, names) };
  if (error instanceof ResponseError) return { hint: responseHint(error, names) };
  return {};
}

/** `the base URL (MKT_BASE_URL)`: the setting, named as it was given. */
export function baseUrlWords(names: SettingNames): string {
  return `the base URL (${names.baseUrl})`;
}

/** `, and the proxy in HTTPS_PROXY`, when requests go through one. */
function proxyWords(names: SettingNames): string {
  return names.proxy === undefined ? '' : `, and the proxy in ${names.proxy.variable} (or NO_PROXY, for hosts that must bypass it)`;
}

function optionsWords(error: OptionsError, names: SettingNames): Words {
  if (error.code === 'INSECURE_HTTP') return { hint: 'use https://, or set MKT_ALLOW_INSECURE_HTTP=1 for a network you trust' };
  const name = optionName(error.option, names);
  return name !== undefined && error.expected !== undefined ? { message: `${name} must be ${error.expected}` } : {};
}

/** A wait the library foresaw past maxWaitMs, before sending what the rate limit would refuse. */
function foreseenWords(error: RateLimitError): Words {
  const { plan } = error;
  const maxWait = `--max-wait ${formatDuration(error.maxWaitMs!)}`;
  const toReset = formatWait(error.retryAfterMs ?? 0);
  if (plan === undefined) {
    return { message: `the rate limit allows no more requests for ${toReset}, longer than ${maxWait} allows; no request was sent for the rest` };
  }
  const rate = `${plan.limit} request${plan.limit === 1 ? '' : 's'} ${perWindow(plan.windowMs)}`;
  return {
    message: `${plan.requests} requests at ${rate} need about ${formatWait(plan.waitMs)} of waiting for the rate limit `
      + `(${plan.remaining} left in this window, which resets in ${toReset}), longer than ${maxWait}; no request was sent for the rest`,
    hint: `allow a --max-wait of at least ${formatWait(plan.waitMs + plan.spentMs)}`,
  };
}

function apiWords(error: ApiError, names: SettingNames): Words {
  if (error.status === 404) return { hint: `check ${baseUrlWords(names)}` };
  if (error.status === 429 && error.retryAfterMs === undefined) return { hint: 'wait a minute, or send fewer requests' };
  if (error.maxWaitMs === undefined || error.retryAfterMs === undefined) return {};
  // The service asked for a wait longer than --max-wait: the library's message, in mkt's terms.
  const code = error.serviceCode ? ` ${error.serviceCode}` : '';
  const says = error.serviceMessage ? `: ${error.serviceMessage}` : '';
  const head = error.status === 429
    ? `rate limited (429${code}) after ${error.attempts} attempt${error.attempts === 1 ? '' : 's'}`
    : `${error.method} ${displayUrl(error.url)} failed with ${describeStatus(error.status)}${error.attempts > 1 ? ` after ${error.attempts} attempts` : ''}${says}`;
  return { message: `${head}; the service asks to wait ${formatWait(error.retryAfterMs)}, longer than --max-wait ${formatDuration(error.maxWaitMs)}` };
}

/** TLS errors of a certificate that no CA mkt trusts vouches for: trusting its CA (--ca-file) is the fix. */
export const UNTRUSTED_CERTIFICATE: ReadonlySet<string> = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'UNABLE_TO_GET_ISSUER_CERT', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
]);

function networkHint(error: NetworkError, names: SettingNames): string | undefined {
  const base = baseUrlWords(names);
  const proxy = proxyWords(names);
  if (error.proxyStatus !== undefined) {
    const variable = names.proxy?.variable ?? 'HTTPS_PROXY';
    return error.proxyStatus === 407
      ? `the proxy wants credentials: put them in ${variable}, e.g. http://user:password@proxy:3128`
      : `check the proxy in ${variable}, and NO_PROXY for the hosts it must not handle`;
  }
  const host = hostOf(error.url);
  if (error.code !== undefined && UNTRUSTED_CERTIFICATE.has(error.code)) {
    return names.caFile === undefined
      ? `trust the CA (PEM) that issued ${host}'s certificate: give its file with --ca-file or MKT_CA_FILE`
      : `${names.caFile.path} (from ${names.caFile.source}) does not hold the CA (PEM) that issued ${host}'s certificate: add it there`;
  }
  switch (error.code) {
    case 'ECONNREFUSED': return `check ${base} and that the service is running${proxy}`;
    case 'ENOTFOUND': return `check ${base} and the DNS${proxy}`;
    case 'UND_ERR_CONNECT_TIMEOUT': return `check ${base} and firewalls${proxy}`;
    case 'ERR_TLS_CERT_ALTNAME_INVALID': return `check the host name in ${base}`;
    case 'EAI_AGAIN': case 'ECONNRESET': case 'UND_ERR_SOCKET': case 'EPIPE': case 'ECONNABORTED':
    case 'CERT_HAS_EXPIRED': case 'EPROTO': case 'ERR_SSL_WRONG_VERSION_NUMBER':
      return undefined;
    default: return `check ${base} and the network, then try again`;
  }
}

function responseHint(error: ResponseError, names: SettingNames): string | undefined {
  const base = baseUrlWords(names);
  switch (error.problem) {
    case 'too-large': return `check that ${base} points at the Market Data Service`;
    case 'redirect': return `set ${base} to the address the service really serves`;
    case 'html': return `a proxy or the wrong server answered: check ${base}${names.proxy === undefined ? '' : `, and the proxy in ${names.proxy.variable}`}`;
    case 'empty': case 'not-json': return `the response may have been cut off or altered on the way; try again, and check ${base}`;
    case 'unexpected': return `check that ${base} points at the Market Data Service, or report it to the service`;
    default: return undefined;
  }
}

export function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return 'the server';
  }
}
