// The words of an error, for main to print: the library speaks of its own options (`maxWaitMs`,
// `batchSize`) and never of mkt's commands, so the command line turns them into its flags here, and
// writes its own hints where only it knows the next step: which command was run, with which profile,
// and whether MKT_TOKEN or a stored token was sent.
import type { Command } from 'commander';
import { ApiError, AuthError, ForbiddenError, InvalidRequestError, RateLimitError } from '../api/index.js';
import { statedBatchLimit } from '../api/internal.js';
import { DEFAULT_BATCH_SIZE } from '../shared/limits.js';
import type { Deps } from './deps.js';
import { commandOptions } from './options/command-options.js';
import { formatDuration, formatWait, perWindow } from '../shared/duration.js';
import { resolveSettings, type Settings, type TargetFlags } from './settings.js';

export interface Explained {
  message: string;
  hint: string | undefined;
  /** The service's request id (X-Request-Id or the body's request_id), for support. */
  requestId: string | undefined;
}

export interface ErrorContext {
  deps: Deps | undefined;
  /** The command that ran, once its options were parsed. */
  command: Command | undefined;
  /** The symbols `mkt quotes` asked for, to word a rate-limit plan. */
  symbolCount: number | undefined;
}

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

export function explainError(error: Error & { hint?: string }, context: ErrorContext): Explained {
  const requestId = error instanceof ApiError && error.requestId ? error.requestId.slice(0, 128) : undefined;
  const own = cliHint(error, context);
  const message = own?.message ?? inCliWords(error.message);
  const hint = own?.hint ?? (error.hint === undefined ? undefined : inCliWords(error.hint));
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

interface Words {
  message?: string;
  hint?: string;
}

function cliHint(error: Error, context: ErrorContext): Words | undefined {
  if (error instanceof RateLimitError) return explainPlan(error, context);
  if (!(error instanceof ApiError)) return undefined;
  const command = context.command?.name();
  const path = pathOf(error.url);
  const onAuth = /\/auth\/(cli-login|token)$/.test(path);
  if (error.status === 404 && /\/v1\/(v1\/|auth\/cli-login$)/.test(path)) {
    const base = error.url.slice(0, error.url.indexOf('/v1/'));
    return { hint: `the base URL ends in /v1, and mkt adds /v1 to each path itself: use ${base} (--base-url, MKT_BASE_URL or \`mkt config set base-url\`)` };
  }
  if (error.status === 414) return { hint: `the request was too long for the service: use a smaller --batch-size (the default is ${DEFAULT_BATCH_SIZE})` };
  if (onAuth) return authEndpointHint(error, command, context);
  if (error instanceof AuthError) return { hint: quotesAuthHint(context) };
  if (error instanceof ForbiddenError) return { hint: forbiddenHint(context) };
  if (error instanceof InvalidRequestError) {
    const most = statedBatchLimit(error);
    if (most !== undefined) return { hint: `the service takes at most ${most} symbols in one request: use --batch-size ${most} (or less)` };
    return { hint: 'check the symbols, the venue and the organization (--org)' };
  }
  return undefined;
}


/** 400, 401 and 403 from the token endpoints: the credentials just given, or the client credentials in the environment. */
function authEndpointHint(error: ApiError, command: string | undefined, context: ErrorContext): Words {
  const profile = profileFlag(context);
  if (command === 'login') {
    if (error instanceof ForbiddenError && /scope/i.test(error.message)) {
      return { hint: 'the API key lacks the market.read scope that quotes need: use a key that has it' };
    }
    if (error instanceof ForbiddenError) {
      return { hint: `the API key may not act for that organization: check --org, or use a key of that organization, then run \`mkt login${profile}\` again` };
    }
    const from = context.deps?.env.MKT_API_KEY ? 'MKT_API_KEY is set: check its value' : 'check the key';
    return { hint: `the service refused the API key or the organization: ${from} (the whole <client_id>.<client_secret>) and --org, then run \`mkt login${profile}\` again` };
  }
  if (command === 'token') {
    return { hint: `the service refused the client credentials: check the client id (--client-id or MKT_CLIENT_ID) and the secret (--with-client-secret, MKT_CLIENT_SECRET or the prompt), then run \`mkt token${profile}\` again` };
  }
  return { hint: 'mkt asked for a token with MKT_CLIENT_ID and MKT_CLIENT_SECRET and the service refused them: check both, or unset them and run `mkt login`' };
}

function quotesAuthHint(context: ErrorContext): string {
  const settings = settingsOf(context);
  const profile = profileFlag(context);
  if (settings?.token.kind === 'env') {
    return 'MKT_TOKEN is set, and overrides any stored token: the service refused it (invalid or expired); set a fresh one (`mkt token --print`) or unset MKT_TOKEN';
  }
  // With client credentials, a 401 has already been answered with a new token, refused as well.
  if (context.deps?.env.MKT_CLIENT_ID && context.deps.env.MKT_CLIENT_SECRET) {
    return 'the service refused a token mkt had just got with MKT_CLIENT_ID and MKT_CLIENT_SECRET: check that the base URL is the service that issued it, or report it to the service';
  }
  if (settings?.token.value?.source === 'client-credentials') {
    return `the token is invalid or expired: run \`mkt token${profile}\` for a new one (with MKT_CLIENT_ID and MKT_CLIENT_SECRET set, mkt renews it by itself)`;
  }
  return `the token is invalid or expired: run \`mkt login${profile}\` for a new one`;
}

function forbiddenHint(context: ErrorContext): string {
  const settings = settingsOf(context);
  const org = settings?.org;
  const token = settings?.token;
  const tokenOrg = token?.value?.organization_id;
  const how = token?.kind === 'env' ? 'MKT_TOKEN' : 'the stored token';
  if (org?.value && tokenOrg && org.value !== tokenOrg) {
    return `${how} was issued for ${tokenOrg}, but the request was for ${org.value} (from ${org.source}): use --org ${tokenOrg}, or log in for ${org.value} (\`mkt login --org ${org.value}\`)`;
  }
  const scope = token?.value?.scope;
  if (scope !== undefined && !scope.split(/\s+/).includes('market.read')) {
    return `${how} has no market.read scope (scope "${scope.slice(0, 80)}"): log in with a key or client that has it`;
  }
  return `the token lacks the market.read scope or access to ${org?.value ?? 'the organization'}${org?.value ? ` (from ${org.source})` : ''}: check --org, or log in with a key that has both`;
}

/** RateLimitError.plan: set by the library when it foresaw, before spending the quota, that the work would not fit. */
function explainPlan(error: RateLimitError, context: ErrorContext): Words | undefined {
  const plan = error.plan;
  if (plan === undefined || !(plan.limit > 0) || !(plan.windowMs > 0) || !(plan.requests > 0)) return undefined;
  // The time to send them all at the service's rate, as a person would reckon it.
  // Never less than the plan's own wait: a huge limit with none left in this window still waits for
  // its reset (RateLimit-Limit: 4294967296, Remaining: 0, Reset: 59 once read "about 0s").
  const needMs = Math.max(plan.waitMs, Math.round((plan.requests / plan.limit) * plan.windowMs));
  const count = (n: number, what: string) => `${n.toLocaleString('en-US')} ${what}${n === 1 ? '' : 's'}`;
  const requests = count(plan.requests, 'request');
  const work = context.symbolCount === undefined ? requests : `${count(context.symbolCount, 'symbol')} need ${requests}`;
  const suggestion = formatDuration(roundUp(Math.max(needMs, plan.waitMs, plan.maxWaitMs + 1)));
  return {
    message: `${work}; at ${plan.limit.toLocaleString('en-US')} ${perWindow(plan.windowMs)} that is about ${formatWait(needMs)}, longer than --max-wait ${formatDuration(plan.maxWaitMs)}`,
    hint: `use --max-wait ${suggestion} (or MKT_MAX_WAIT=${suggestion}), or ask for fewer symbols at a time`,
  };
}

/** A duration rounded up to what a person would type: 10 s steps under a minute, then minutes, then hours. */
export function roundUp(ms: number): number {
  if (ms <= 60_000) return Math.max(10_000, Math.ceil(ms / 10_000) * 10_000);
  if (ms <= 3_600_000) return Math.ceil(ms / 60_000) * 60_000;
  return Math.ceil(ms / 3_600_000) * 3_600_000;
}

function settingsOf(context: ErrorContext): Settings | undefined {
  if (context.deps === undefined) return undefined;
  try {
    return resolveSettings(context.deps, context.command === undefined ? {} : commandOptions<TargetFlags>(context.command));
  } catch {
    return undefined;
  }
}

/** ` --profile NAME` when the profile was chosen with the flag: the next command must name it too. */
function profileFlag(context: ErrorContext): string {
  const profile = context.command === undefined ? undefined : commandOptions<TargetFlags>(context.command).profile;
  return profile === undefined ? '' : ` --profile ${profile}`;
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname.replace(/\/+$/, '');
  } catch {
    return '';
  }
}
