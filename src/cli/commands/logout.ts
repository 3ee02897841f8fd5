// mkt logout: forget stored tokens. The service defines no revocation, so say so.
import type { Command } from 'commander';
import type { Deps } from '../deps.js';
import { commandOptions } from '../options/command-options.js';
import { formatAge } from '../../shared/time.js';
import { UsageError } from '../errors.js';
import type { RunState } from '../main.js';
import { resolveProfile } from '../settings.js';

export interface LogoutOptions {
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

export async function runLogout(deps: Deps, options: LogoutOptions): Promise<number> {
  if (options.all && options.profile !== undefined) throw new UsageError('--all and --profile cannot be used together');
  const names = options.all ? deps.config.profileNames() : [resolveProfile(deps, options.profile).value];
  let removed = 0;
  for (const name of names) {
    const token = deps.config.profile(name)?.token;
    if (!token) continue;
    await deps.config.updateProfile(name, ({ token: _dropped, ...rest }) => rest);
    removed++;
    const left = token.expires_at ? Date.parse(token.expires_at) - deps.now() : undefined;
    const validity = left === undefined ? 'until it expires' : left > 0 ? `for ${formatAge(left)} more, until it expires` : 'no longer (it had expired)';
    deps.io.stderr.write(`Removed the stored token of profile ${name}. The service defines no revocation: the token stays valid ${validity}.\n`);
  }
  if (removed === 0) deps.io.stderr.write(options.all ? 'No stored tokens.\n' : `No stored token for profile ${names[0]}.\n`);
  if (deps.env.MKT_TOKEN) deps.io.stderr.write('note: MKT_TOKEN is still set in the environment.\n');
  return 0;
}
