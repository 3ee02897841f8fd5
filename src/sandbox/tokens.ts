// Issued access tokens: opaque random strings mapped to what they grant. Nothing about the grant is
// encoded in the token itself, so a client cannot forge or alter one.
import { randomBytes } from 'node:crypto';
import type { Principal } from './principal-registry.js';

export interface TokenGrant {
  principal: Principal;
  /** Granted scopes, in the order reported in the token response. */
  scopes: readonly string[];
  canReadMarket: boolean;
  /** Set for tokens from /auth/cli-login: the only organization the token may act for. */
  organizationId: string | undefined;
  /** Milliseconds since the epoch; the token is refused from this instant on. */
  expiresAt: number;
}

/** Live tokens kept at most; beyond this the oldest is forgotten (the sandbox must not grow forever). */
export const MAX_LIVE_TOKENS = 100_000;

export class TokenStore {
  private readonly grants = new Map<string, TokenGrant>();

  constructor(
    private readonly ttlSeconds: number,
    private readonly now: () => number,
  ) {}

  get ttl(): number {
    return this.ttlSeconds;
  }

  issue(principal: Principal, scopes: readonly string[], organizationId?: string): string {
    const now = this.now();
    this.forgetExpired(now);
    // 256 random bits, base64url: opaque and URL-, header- and JSON-safe without escaping.
    const token = randomBytes(32).toString('base64url');
    this.grants.set(token, {
      principal,
      scopes,
      canReadMarket: scopes.includes('market.read'),
      organizationId,
      expiresAt: now + this.ttlSeconds * 1000,
    });
    if (this.grants.size > MAX_LIVE_TOKENS) {
      const oldest = this.grants.keys().next().value as string;
      this.grants.delete(oldest);
    }
    return token;
  }

  /** The grant of a live token, or undefined for an unknown or expired one. */
  lookup(token: string): TokenGrant | undefined {
    const grant = this.grants.get(token);
    if (grant === undefined) return undefined;
    if (this.now() >= grant.expiresAt) {
      this.grants.delete(token);
      return undefined;
    }
    return grant;
  }

  /** Tokens are kept in issue order, so the expired ones are at the front (for a clock that runs forward). */
  private forgetExpired(now: number): void {
    for (const [token, grant] of this.grants) {
      if (grant.expiresAt > now) break;
      this.grants.delete(token);
    }
  }
}
