// Sandbox options as callers give them, and their checked, defaulted form. Every number is checked
// here, once, so the request path can trust them.
import { SandboxConfigError } from './config-error.js';
import { BUILT_IN_CLIENTS, validateClients, type SandboxClient } from './principals.js';

export interface SandboxLimits {
  /** Market data requests (every /v1/market route) per (client, organization) and minute (default 60; approved clients get twice this). */
  perMinute?: number;
  /** Market data requests per (client, organization) and hour (default 5000). */
  perHour?: number;
  /** Market data requests per (client, organization) and day (default 10000). */
  perDay?: number;
  /** Tokens issued per client and minute, by both auth endpoints together (default 600). */
  tokensPerMinute?: number;
}

/** One answered request, for a request log (`mkt sandbox --log`). It holds no secret. */
export interface RequestLogEntry {
  /** When the request arrived, in milliseconds since the epoch, on the sandbox's clock. */
  time: number;
  /** Undefined for a request too malformed to have one (answered at the socket). */
  method: string | undefined;
  /** The path without the query string (which is never logged); undefined as for `method`. */
  path: string | undefined;
  /** 0 when the client went away before an answer. */
  status: number;
  /** The authenticated client; undefined before (or without) authentication. */
  clientId: string | undefined;
  durationMs: number;
  requestId: string;
}

export interface SandboxOptions {
  /** Milliseconds since the epoch; injected clock for tests (default Date.now). */
  now?: () => number;
  /** Seed of the price random walk (default 1). */
  seed?: number;
  /** Lifetime of issued tokens (default 3600). */
  tokenTtlSeconds?: number;
  /** Most distinct symbols in one quotes request (default 100). */
  maxSymbols?: number;
  /** Rate limits: market data requests per (client, organization), 60 / 5000 / 10000; tokens per client, 600 a minute. */
  limits?: SandboxLimits;
  /** Added to the built-in `demo` and `noscope` clients. */
  clients?: SandboxClient[];
  /** Adds N synthetic instruments SYN00001..SYNnnnnn to the catalogue (at most 99,999). */
  synthetic?: number;
  /** Called with anything unexpected a request threw (the client gets a bare 500 INTERNAL). */
  onError?: (error: unknown) => void;
  /** Called once per answered request (a request log). */
  onRequest?: (entry: RequestLogEntry) => void;
}

export interface ResolvedOptions {
  now: () => number;
  seed: number;
  tokenTtlSeconds: number;
  maxSymbols: number;
  limits: { perMinute: number; perHour: number; perDay: number; tokensPerMinute: number };
  clients: SandboxClient[];
  synthetic: number;
  onError: (error: unknown) => void;
  onRequest: ((entry: RequestLogEntry) => void) | undefined;
}

export const DEFAULT_LIMITS = { perMinute: 60, perHour: 5000, perDay: 10000, tokensPerMinute: 600 } as const;
export const MAX_SYNTHETIC = 99_999;

function integer(name: string, value: unknown, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `at least ${min}` : `${min} to ${max}`;
    throw new SandboxConfigError(`${name} must be an integer ${range}, got ${String(value)}`);
  }
  return value;
}

export function resolveOptions(options: SandboxOptions = {}): ResolvedOptions {
  const limits = options.limits ?? {};
  if (options.now !== undefined && typeof options.now !== 'function') throw new SandboxConfigError('now must be a function');
  if (options.clients !== undefined && !Array.isArray(options.clients)) throw new SandboxConfigError('clients must be an array');
  if (options.onRequest !== undefined && typeof options.onRequest !== 'function') throw new SandboxConfigError('onRequest must be a function');
  return {
    now: options.now ?? Date.now,
    seed: integer('seed', options.seed, 1, Number.MIN_SAFE_INTEGER),
    tokenTtlSeconds: integer('token TTL (seconds)', options.tokenTtlSeconds, 3600, 1, 10 * 365 * 86_400),
    maxSymbols: integer('max symbols', options.maxSymbols, 100, 1, 100_000),
    limits: {
      perMinute: integer('per-minute limit', limits.perMinute, DEFAULT_LIMITS.perMinute, 1),
      perHour: integer('per-hour limit', limits.perHour, DEFAULT_LIMITS.perHour, 1),
      perDay: integer('per-day limit', limits.perDay, DEFAULT_LIMITS.perDay, 1),
      tokensPerMinute: integer('tokens-per-minute limit', limits.tokensPerMinute, DEFAULT_LIMITS.tokensPerMinute, 1),
    },
    clients: [...BUILT_IN_CLIENTS, ...validateClients(options.clients ?? [], 'clients')],
    synthetic: integer('synthetic', options.synthetic, 0, 0, MAX_SYNTHETIC),
    onError: options.onError ?? (() => {}),
    onRequest: options.onRequest,
  };
}
