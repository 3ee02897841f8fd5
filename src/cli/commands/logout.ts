// mkt logout: forget stored tokens. The service defines no revocation, so say so.
import type { Command } from 'commander';
import type { TokenRecord } from '../../config/store.js';
import type { Deps } from '../deps.js';
import { commandOptions } from '../options/command-options.js';
import { formatAge } from '../../shared/time.js';
import { UsageError } from '../errors.js';
import type { RunState } from '../run-state.js';
import { resolveProfile } from '../settings.js';

interface LogoutOptions {
  profile?: string;
  all?: boolean;
}

export function registerLogout(program: Command, deps: Deps, state: RunState): void {
  program.command('logout')
    .description('remove stored tokens (settings such as base-url and org stay)')
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
  const removed: Array<{ name: string; token: TokenRecord }> = [];
  if (names.some((name) => deps.config.profile(name)?.token)) {
    // One write for all the profiles: one per profile, each reading and writing the whole file, took
    // 3.7 s for 1,000 profiles and never let Ctrl-C in.
    await deps.config.updateProfiles((profiles) => {
      removed.length = 0;
      for (const name of names) {
        const profile = profiles[name];
        if (profile?.token === undefined) continue;
        const { token, ...rest } = profile;
        removed.push({ name, token });
        profiles[name] = rest;
      }
    });
  }
  const now = deps.now();
  let text = '';
  for (const { name, token } of removed) {
    const left = token.expires_at ? Date.parse(token.expires_at) - now : undefined;
    const validity = left === undefined || Number.isNaN(left) ? 'until it expires' : left > 0 ? `for ${formatAge(left)} more, until it expires` : 'no longer (it had expired)';
    text += `Removed the stored token of profile ${name}. The service defines no revocation: the token stays valid ${validity}.\n`;
  }
  if (removed.length === 0) text += options.all ? 'No stored tokens.\n' : `No stored token for profile ${names[0]}.\n`;
  if (deps.env.MKT_TOKEN) text += 'note: MKT_TOKEN is still set in the environment.\n';
  deps.io.stderr.write(text);
  return 0;
}
