// The words for what the service answers any data request (`mkt quotes`, `mkt status --check`, the
// next resource's command) sent with the credentials mkt chose: it names the token that was sent
// (MKT_TOKEN, a stored one, one it had just got with MKT_CLIENT_ID and MKT_CLIENT_SECRET), the
// organization as it was given (--org, MKT_ORG, the profile) and the command that gets a new token.
import { ApiError, AuthError, ForbiddenError, InvalidRequestError } from '../../api/index.js';
import { printable } from '../../shared/text.js';
import type { Deps } from '../deps.js';
import { resolveSettings, type Settings, type TargetFlags } from '../options/settings.js';
import { baseUrlHint, profileFlag } from './service.js';
import type { Explainer } from './words.js';

/**
 * For the service's refusals of a data request made with `flags`' credentials. `inputs`: what else a
 * 400 may be about, in the command's words (`the symbols and the venue`).
 */
export function credentialsExplainer(deps: Deps, flags: TargetFlags, inputs = 'the command\'s arguments'): Explainer {
  const settings = () => settingsOf(deps, flags);
  return (error) => {
    if (!(error instanceof ApiError)) return undefined;
    if (error.status === 404) return baseUrlHint(error, settings()?.baseUrl.value);
    // A data command asks for a token only to renew its own (credentials/credentials.ts, token-renewal.ts): the
    // service's answer is about MKT_CLIENT_ID and MKT_CLIENT_SECRET, not the token a data request sent.
    if (error.operation === 'clientCredentials') {
      if (![400, 401, 403].includes(error.status)) return undefined;
      return { hint: 'mkt asked for a token with MKT_CLIENT_ID and MKT_CLIENT_SECRET and the service refused them: check both, or unset them and run `mkt login`' };
    }
    if (error instanceof AuthError) return { hint: unauthenticatedHint(deps, settings(), profileFlag(flags)) };
    if (error instanceof ForbiddenError) return { hint: forbiddenHint(deps, settings()) };
    if (error instanceof InvalidRequestError) return { hint: `check ${inputs}, and ${organizationWords(settings())}` };
    return undefined;
  };
}

/** `the organization org_demo (from MKT_ORG)`, or where to give one when none was. */
function organizationWords(settings: Settings | undefined): string {
  const org = settings?.org;
  return org?.value ? `the organization ${org.value} (from ${org.source})` : 'the organization (--org)';
}

function unauthenticatedHint(deps: Deps, settings: Settings | undefined, profile: string): string {
  if (settings?.token.kind === 'env') {
    return 'MKT_TOKEN is set, and overrides any stored token: the service refused it (invalid or expired); set a fresh one (`mkt token --print`) or unset MKT_TOKEN';
  }
  // With client credentials, a 401 has already been answered with a new token, refused as well.
  if (deps.env.MKT_CLIENT_ID && deps.env.MKT_CLIENT_SECRET) {
    return 'the service refused a token mkt had just got with MKT_CLIENT_ID and MKT_CLIENT_SECRET: check that the base URL is the service that issued it, or report it to the service';
  }
  if (settings?.token.value?.source === 'client-credentials') {
    return `the token is invalid or expired: run \`mkt token${profile}\` for a new one (with MKT_CLIENT_ID and MKT_CLIENT_SECRET set, mkt renews it by itself)`;
  }
  return `the token is invalid or expired: run \`mkt login${profile}\` for a new one`;
}

function forbiddenHint(deps: Deps, settings: Settings | undefined): string {
  const org = settings?.org;
  const token = settings?.token;
  // The token sent was the client's own (credentials/client-tokens.ts), not the profile's that settings hold.
  const clientId = deps.env.MKT_CLIENT_ID;
  if (clientId && deps.env.MKT_CLIENT_SECRET && token?.kind !== 'env') {
    const check = org?.kind === 'flag' || org?.kind === 'env' ? org.source : '--org';
    return `the token of client ${printable(clientId, { max: 64 })} (MKT_CLIENT_ID) lacks the market.read scope or access to ${org?.value ? `${org.value} (from ${org.source})` : 'the organization'}: check ${check}, or use a client that has both`;
  }
  const tokenOrg = token?.value?.organization_id;
  const how = token?.kind === 'env' ? 'MKT_TOKEN' : 'the stored token';
  if (org?.value && tokenOrg && org.value !== tokenOrg) {
    return `${how} was issued for ${tokenOrg}, but the request was for ${org.value} (from ${org.source}): use --org ${tokenOrg}, or log in for ${org.value} (\`mkt login --org ${org.value}\`)`;
  }
  const scope = token?.value?.scope;
  if (scope !== undefined && !scope.split(/\s+/).includes('market.read')) {
    return `${how} has no market.read scope (scope "${scope.slice(0, 80)}"): log in with a key or client that has it`;
  }
  // "check --org" only where --org or MKT_ORG gave it; a stored one is the profile's to change.
  const check = org?.kind === 'flag' || org?.kind === 'env' ? org.source : '--org';
  return `the token lacks the market.read scope or access to ${org?.value ? `${org.value} (from ${org.source})` : 'the organization'}: check ${check}, or log in with a key that has both`;
}

/** The settings the request was made with, read again (after a renewal, the token stored now). */
function settingsOf(deps: Deps, flags: TargetFlags): Settings | undefined {
  try {
    return resolveSettings(deps, flags);
  } catch {
    return undefined;
  }
}
