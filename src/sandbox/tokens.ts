// Issued access tokens: opaque random strings mapped to what they grant. Nothing about the grant is
// encoded in the token itself, so a client cannot forge or alter one. Each client keeps its own
// tokens, up to a cap of its own: a client that asks for token after token forgets only its own
// oldest, never another client's (docs/sandbox.md, "Token churn").
import { randomBytes } from 'node:crypto';
import type { Principal } from './principal-registry.js';

export interface TokenGrant {
  principal: Principal;
  /** Granted scopes, in the order reported in the token response. */
  scopes: readonly string[];
  /** Set for tokens from /auth/cli-login: the only organization the token may act for. */
  organizationId: string | undefined;
  /** Milliseconds since the epoch; the token is refused from this instant on. */
  expiresAt: number;
}

/** Live tokens kept for all clients together at most: memory stays bounded however many clients there are. */
const MAX_LIVE_TOKENS = 100_000;
/** Live tokens kept for one client at most (fewer when more than 100 clients share MAX_LIVE_TOKENS). */
const MAX_TOKENS_PER_CLIENT = 1_000;

export class TokenStore {
  private readonly grants = new Map<string, TokenGrant>();
  /** Per client id, its live tokens in issue order, oldest first. */
  private readonly byClient = new Map<string, Set<string>>();
  readonly perClient: number;

  constructor(
    private readonly ttlSeconds: number,
    private readonly now: () => number,
    clientCount: number,
  ) {
    this.perClient = Math.max(1, Math.min(MAX_TOKENS_PER_CLIENT, Math.floor(MAX_LIVE_TOKENS / Math.max(1, clientCount))));
  }

  get ttl(): number {
    return this.ttlSeconds;
  }

  issue(principal: Principal, scopes: readonly string[], organizationId?: string): string {
    const now = this.now();
    let own = this.byClient.get(principal.clientId);
    if (own === undefined) {
      own = new Set();
      this.byClient.set(principal.clientId, own);
    }
    this.forgetExpired(own, now);
    // 256 random bits, base64url: opaque and URL-, header- and JSON-safe without escaping.
    const token = randomBytes(32).toString('base64url');
    this.grants.set(token, { principal, scopes, organizationId, expiresAt: now + this.ttlSeconds * 1000 });
    own.add(token);
    if (own.size > this.perClient) this.forget(own, own.values().next().value as string);
    return token;
  }

  /** The grant of a live token, or undefined for an unknown or expired one. */
  lookup(token: string): TokenGrant | undefined {
    const grant = this.grants.get(token);
    if (grant === undefined) return undefined;
    if (this.now() >= grant.expiresAt) {
      this.forget(this.byClient.get(grant.principal.clientId), token);
      return undefined;
    }
    return grant;
  }

  private forget(own: Set<string> | undefined, token: string): void {
    this.grants.delete(token);
    own?.delete(token);
  }

  /** A client's tokens are in issue order, so its expired ones are at the front (for a clock that runs forward). */
  private forgetExpired(own: Set<string>, now: number): void {
    for (const token of own) {
      if ((this.grants.get(token) as TokenGrant).expiresAt > now) break;
      this.forget(own, token);
    }
  }
}
