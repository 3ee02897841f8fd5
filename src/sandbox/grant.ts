// The grant preamble every data route runs first, in this order: a usable bearer token (401), the
// organization header (400; it names the organization to authorize), the organization and then the
// scope allowed for the token (403), and the rate limit of the (client, organization) pair (429).
// A data route is one call to requireGrant plus its own logic; the RateLimit-* headers it returns
// belong on the route's answer, its own 400s included. See docs/sandbox.md, "The order of the checks".
import type { OutgoingHttpHeaders } from 'node:http';
import { ORGANIZATION_FORM, ORGANIZATION_PATTERN } from '../shared/patterns.js';
import type { SandboxContext } from './context.js';
import { Reject } from './errors.js';
import type { Exchange } from './exchange.js';
import type { RateLimiter } from './rate-limiter.js';
import type { TokenGrant } from './tokens.js';

export const BEARER_CHALLENGE = 'Bearer realm="mkt-sandbox"';
const MISSING_CREDENTIALS = { 'WWW-Authenticate': BEARER_CHALLENGE };
const INVALID_TOKEN = { 'WWW-Authenticate': `${BEARER_CHALLENGE}, error="invalid_token", error_description="The access token is invalid or expired"` };

export interface Grant {
  token: TokenGrant;
  /** The organization the request acts for (X-Organization-Id), checked against the token. */
  org: string;
  /** The sandbox's clock when the request was admitted. */
  now: number;
  /** RateLimit-* for the response. */
  headers: OutgoingHttpHeaders;
}

/** Runs the preamble for a route that needs `scope`; throws a Reject for the first check that fails. */
export function requireGrant(ctx: SandboxContext, ex: Exchange, scope: string): Grant {
  const authorization = ex.req.headers.authorization;
  if (authorization === undefined || authorization.length < 7 || authorization.slice(0, 7).toLowerCase() !== 'bearer ') {
    throw new Reject('UNAUTHORIZED', 'missing credentials: send Authorization: Bearer <access token>', { headers: MISSING_CREDENTIALS });
  }
  const token = ctx.tokens.lookup(authorization.slice(7).trim());
  if (token === undefined) throw new Reject('UNAUTHORIZED', 'invalid or expired access token', { headers: INVALID_TOKEN });
  const { principal } = token;
  ex.clientId = principal.clientId;
  const org = ex.req.headers['x-organization-id'];
  if (typeof org !== 'string' || !ORGANIZATION_PATTERN.test(org)) {
    const problem = org === undefined ? 'X-Organization-Id header is required' : 'X-Organization-Id is malformed';
    throw new Reject('INVALID_REQUEST', `${problem}: send X-Organization-Id: ${ORGANIZATION_FORM}`);
  }
  const orgAllowed = token.organizationId === undefined ? principal.orgs.has(org) : token.organizationId === org;
  if (!orgAllowed) throw new Reject('FORBIDDEN', `this token may not act for organization ${org}`);
  if (!token.scopes.includes(scope)) {
    throw new Reject('FORBIDDEN', `this token lacks the ${scope} scope`, {
      headers: { 'WWW-Authenticate': `${BEARER_CHALLENGE}, error="insufficient_scope", scope="${scope}"` },
    });
  }
  const now = ctx.now();
  const headers = admitRate(ctx.limiter, `${principal.clientId}\n${org}`, principal.limits, principal.policy, now, 'too many market data requests');
  return { token, org, now, headers };
}

/**
 * Counts a request against the windows of `key`: the RateLimit-* headers when it is admitted, else a
 * 429 Reject that carries them and Retry-After. `what` starts the 429's message.
 */
export function admitRate(
  limiter: RateLimiter,
  key: string,
  limits: readonly [number, number, number],
  policy: string,
  now: number,
  what: string,
): OutgoingHttpHeaders {
  const decision = limiter.admit(key, limits, now);
  const headers: OutgoingHttpHeaders = {
    'RateLimit-Limit': String(decision.limit),
    'RateLimit-Remaining': String(decision.remaining),
    'RateLimit-Reset': String(decision.resetSeconds),
    'RateLimit-Policy': policy,
  };
  if (decision.allowed) return headers;
  headers['Retry-After'] = String(decision.resetSeconds);
  throw new Reject('RATE_LIMITED', `${what}; retry after ${decision.resetSeconds} s`, { headers });
}

/**
 * Runs what a route does once its request has been counted: a Reject it throws (a 400 about the rest
 * of the request, say) carries the RateLimit-* headers too, as every counted request's answer does.
 */
export function counted<T>(headers: OutgoingHttpHeaders, answer: () => T): T {
  try {
    return answer();
  } catch (error) {
    if (!(error instanceof Reject)) throw error;
    throw new Reject(error.code, error.message, { ...error.options, headers: { ...headers, ...error.options.headers } });
  }
}
