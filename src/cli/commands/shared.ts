// Options several commands share.
import type { Command } from 'commander';
import { UsageError } from '../errors.js';

export function addTargetOptions(command: Command): Command {
  return command
    .option('--profile <name>', 'the profile to use (env MKT_PROFILE; default "default")')
    .option('--base-url <url>', 'the service address (env MKT_BASE_URL)')
    .option('--org <org_id>', 'the organization, org_<id> (env MKT_ORG)');
}

/** Secrets never come from flags: they leak into shell history and `ps`. */
export function rejectSecretFlag(value: string | undefined, flag: string, hint: string): void {
  if (value !== undefined) throw new UsageError(`${flag} is not accepted: secrets on the command line leak into shell history and ps`, hint);
}
