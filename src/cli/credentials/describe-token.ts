// What login and token say of the token they just stored: its expiry and scope, and a warning when
// it cannot read quotes. Shared by both commands, so it lives in neither.
import type { Deps } from '../deps.js';
import { diagnosticsOf } from '../output/diagnostics.js';
import { formatAge } from '../../shared/time.js';
import { stripControl } from '../../shared/text.js';

/** `; token expires in 1h, scope market.read`, to end the command's one line of success. */
export function describeToken(deps: Deps, expiresAt: string | undefined, scope: string | undefined): string {
  const parts: string[] = [];
  if (expiresAt) parts.push(`expires in ${formatAge(Date.parse(expiresAt) - deps.now())}`);
  parts.push(scope ? `scope ${scope}` : 'no scope');
  return stripControl(`; token ${parts.join(', ')}`);
}

/** `mkt quotes` needs market.read; a token the service says lacks it gets 403 there. */
export function warnAboutScope(deps: Deps, scope: string | undefined): void {
  if (scope === undefined || scope.split(/\s+/).includes('market.read')) return;
  const shown = scope.trim() === '' ? 'no scope' : `scope "${stripControl(scope).slice(0, 80)}"`;
  diagnosticsOf(deps).warn({
    code: 'token_without_market_read', message: `the token has ${shown}, without market.read: \`mkt quotes\` will be refused (403) with it`,
    hint: 'use a key or client that has market.read',
  });
}
