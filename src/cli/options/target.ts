// --profile, --base-url and --org: which profile, service and organization a command works with.
import type { Command } from 'commander';

export function addTargetOptions(command: Command): Command {
  return command
    .option('--profile <name>', 'the profile to use (env MKT_PROFILE; default "default")')
    .option('--base-url <url>', 'the service address (env MKT_BASE_URL)')
    .option('--org <org_id>', 'the organization, org_<id> (env MKT_ORG)');
}
