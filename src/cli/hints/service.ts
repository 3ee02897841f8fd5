// What every command that calls the service may say of an error: the base URL it was given, and how
// to name the profile in the command to run next.
import { ApiError } from '../../api/index.js';
import type { Words } from './words.js';

/**
 * A 404 from a base URL that ends in /v1: mkt adds /v1 to each path itself (GET /v1/market/quotes,
 * POST /v1/auth/token) and POST /auth/cli-login has none, so every one of them missed.
 */
export function baseUrlHint(error: Error, baseUrl: string | undefined): Words | undefined {
  if (!(error instanceof ApiError) || error.status !== 404 || baseUrl === undefined) return undefined;
  const base = /^(.*)\/v1\/*$/.exec(baseUrl)?.[1];
  if (base === undefined) return undefined;
  return { hint: `the base URL ends in /v1, and mkt adds /v1 to each path itself: use ${base} (--base-url, MKT_BASE_URL or \`mkt config set base-url\`)` };
}

/** ` --profile NAME` when the profile was chosen with the flag: the next command must name it too. */
export function profileFlag(flags: { profile?: string }): string {
  return flags.profile === undefined ? '' : ` --profile ${flags.profile}`;
}
