// mkt logout: forget stored tokens, the profile's and those kept for clients. The service defines no
// revocation, so say so.
import type { Command } from 'commander';
import type { ProfileRecord, TokenRecord } from '../../config/store.js';
import { clientTokens } from '../credentials/client-tokens.js';
import type { Deps } from '../deps.js';
import { commandOptions } from '../options/command-options.js';
import { printable } from '../../shared/text.js';
import { formatAge } from '../../shared/time.js';
import { UsageError } from '../errors/errors.js';
import type { RunState } from '../run-state.js';
import { resolveProfile } from '../options/settings.js';

interface LogoutOptions {
  profile?: string;
  all?: boolean;
}

export function registerLogout(program: Command, deps: Deps, state: RunState): void {
  program.command('logout')
    .description('remove stored tokens, those kept for clients too (settings such as base-url and org stay)')
    .option('--profile <name>', 'the profile to log out of (env MKT_PROFILE; default "default")')
    .option('--all', 'remove the tokens of every profile')
    .addHelpText('after', `
The Market Data Service defines no token revocation: a removed token stays valid at the service
until it expires.

Examples:
  $ mkt logout
  $ mkt logout --profile ci
  $ mkt logout --all`)
    .action(async (_options: LogoutOptions, self: Command) => {
      state.exitCode = await runLogout(deps, commandOptions<LogoutOptions>(self));
    });
}

async function runLogout(deps: Deps, options: LogoutOptions): Promise<number> {
  deps.config.willChange();
  if (options.all && options.profile !== undefined) throw new UsageError('--all and --profile cannot be used together');
  const names = options.all ? deps.config.profileNames() : [resolveProfile(deps, options.profile).value];
  // The profile's token and those kept for clients with MKT_CLIENT_ID and MKT_CLIENT_SECRET (credentials/client-tokens.ts).
  const holdsTokens = (profile: ProfileRecord | undefined) => profile?.token !== undefined || profile?.client_tokens !== undefined;
  const removed: Array<{ name: string; token: TokenRecord | undefined; clients: TokenRecord[] }> = [];
  if (names.some((name) => holdsTokens(deps.config.profile(name)))) {
    // One write for all the profiles: one per profile, each reading and writing the whole file, took
    // 3.7 s for 1,000 profiles and never let Ctrl-C in.
    await deps.config.updateProfiles((profiles) => {
      removed.length = 0;
      for (const name of names) {
        const profile = Object.hasOwn(profiles, name) ? profiles[name] : undefined;
        if (!holdsTokens(profile)) continue;
        const { token, client_tokens: _kept, ...rest } = profile!;
        removed.push({ name, token, clients: clientTokens(profile) });
        profiles[name] = rest;
      }
    });
  }
  const now = deps.now();
  let text = '';
  for (const { name, token, clients } of removed) {
    if (token !== undefined) {
      text += `Removed the stored token of profile ${name}. The service defines no revocation: the token stays valid ${validity(token, now, 'it')}.\n`;
    }
    if (clients.length > 0) {
      const ids = clients.map((kept) => printable(String(kept.client_id), { max: 64 })).join(', ');
      const latest = clients.reduce((last, kept) => expiry(kept) > expiry(last) ? kept : last);
      text += clients.length === 1
        ? `Removed the token profile ${name} kept for client ${ids} (minted with MKT_CLIENT_ID and MKT_CLIENT_SECRET). The service defines no revocation: it stays valid ${validity(latest, now, 'it')}.\n`
        : `Removed the ${clients.length} tokens profile ${name} kept for clients ${ids} (minted with MKT_CLIENT_ID and MKT_CLIENT_SECRET). The service defines no revocation: they stay valid ${validity(latest, now, 'they')}.\n`;
    }
  }
  if (text === '') text += options.all ? 'No stored tokens.\n' : `No stored token for profile ${names[0]}.\n`;
  if (deps.env.MKT_TOKEN) text += 'note: MKT_TOKEN is still set in the environment.\n';
  deps.io.stderr.write(text);
  return 0;
}

/** How much longer `token` (of several, the last to expire) stays valid at the service. */
function validity(token: TokenRecord, now: number, pronoun: 'it' | 'they'): string {
  const left = expiry(token) - now;
  if (Number.isNaN(left) || token.expires_at === undefined) return `until ${pronoun === 'it' ? 'it expires' : 'they expire'}`;
  if (left <= 0) return `no longer (${pronoun} had expired)`;
  return pronoun === 'it' ? `for ${formatAge(left)} more, until it expires` : `until they expire, the last in ${formatAge(left)}`;
}

function expiry(token: TokenRecord): number {
  return typeof token.expires_at === 'string' ? Date.parse(token.expires_at) : Number.NaN;
}
