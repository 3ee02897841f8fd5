// mkt config get|set|unset|list|path: per-profile settings (base-url, org, format).
import { Argument, type Command } from 'commander';
import type { ProfileRecord } from '../../config/store.js';
import type { Deps } from '../deps.js';
import { commandOptions } from '../options/command-options.js';
import { UsageError } from '../errors.js';
import { checkBaseUrl, checkOrganization, resolveProfile } from '../settings.js';
import { FORMATS, isFormat } from '../options/format.js';

type SettingKey = 'base_url' | 'org' | 'format';

interface KeySpec {
  field: SettingKey;
  describe: string;
  normalize(deps: Deps, value: string): string;
}

export const CONFIG_KEYS: Record<string, KeySpec> = {
  'base-url': {
    field: 'base_url',
    describe: 'the service address, e.g. https://api.example.com',
    normalize: (deps, value) => checkBaseUrl(deps, value, 'mkt config set'),
  },
  org: {
    field: 'org',
    describe: 'the organization, org_<id>',
    normalize: (_deps, value) => checkOrganization(value, 'mkt config set'),
  },
  format: {
    field: 'format',
    describe: `the default output format of mkt quotes: ${FORMATS.join(', ')}`,
    normalize: (_deps, value) => {
      if (!isFormat(value)) throw new UsageError(`format must be one of ${FORMATS.join(', ')}, not "${value.slice(0, 40)}"`);
      return value;
    },
  },
};

interface ConfigOptions {
  profile?: string;
}

export function registerConfig(program: Command, deps: Deps): void {
  const config = program.command('config')
    .description('read and change settings: base-url, org, format (per profile)')
    .addHelpText('after', `
Keys:
${Object.entries(CONFIG_KEYS).map(([key, spec]) => `  ${key.padEnd(10)}${spec.describe}`).join('\n')}

Examples:
  $ mkt config set base-url https://api.example.com
  $ mkt config set org org_demo --profile ci
  $ mkt config get base-url
  $ mkt config list
  $ mkt config path`);
  const keyArgument = () => new Argument('<key>', 'a setting').choices(Object.keys(CONFIG_KEYS));
  const profileOption = '--profile <name>';
  const profileHelp = 'the profile (env MKT_PROFILE; default "default")';

  config.command('get').addArgument(keyArgument()).description('print one setting (nothing when it is not set)').option(profileOption, profileHelp)
    .action((key: string, _options: ConfigOptions, self: Command) => {
      const spec = keySpec(key);
      const value = deps.config.profile(resolveProfile(deps, commandOptions<ConfigOptions>(self).profile).value)?.[spec.field];
      if (value !== undefined) deps.io.stdout.write(`${value}\n`);
    });
  config.command('set').addArgument(keyArgument()).argument('<value>').description('change one setting').option(profileOption, profileHelp)
    .action(async (key: string, value: string, _options: ConfigOptions, self: Command) => {
      const spec = keySpec(key);
      const normalized = spec.normalize(deps, value);
      const profile = resolveProfile(deps, commandOptions<ConfigOptions>(self).profile, { creates: true }).value;
      await deps.config.updateProfile(profile, (record) => ({ ...record, [spec.field]: normalized }));
      deps.io.stderr.write(`Set ${key} to ${normalized} (profile ${profile}).\n`);
    });
  config.command('unset').addArgument(keyArgument()).description('remove one setting').option(profileOption, profileHelp)
    .action(async (key: string, _options: ConfigOptions, self: Command) => {
      const spec = keySpec(key);
      const profile = resolveProfile(deps, commandOptions<ConfigOptions>(self).profile).value;
      await deps.config.updateProfile(profile, (record) => {
        const next: ProfileRecord = { ...record };
        delete next[spec.field];
        return next;
      });
      deps.io.stderr.write(`Unset ${key} (profile ${profile}).\n`);
    });
  config.command('list').description('print the settings of a profile, or of all with --all')
    .option(profileOption, profileHelp).option('--all', 'every profile')
    .action((_options: ConfigOptions, self: Command) => {
      const options = commandOptions<ConfigOptions & { all?: boolean }>(self);
      const names = options.all ? deps.config.profileNames() : [resolveProfile(deps, options.profile).value];
      const lines: string[] = [];
      for (const name of names) {
        const record = deps.config.profile(name) ?? {};
        for (const [key, spec] of Object.entries(CONFIG_KEYS)) {
          const value = record[spec.field];
          if (value !== undefined) lines.push(`${options.all ? `${name}.` : ''}${key}=${value}`);
        }
        if (record.token) lines.push(`${options.all ? `${name}.` : ''}token=(stored, via ${record.token.source})`);
      }
      deps.io.stdout.write(lines.map((line) => `${line}\n`).join(''));
    });
  config.command('path').description('print the config file path')
    .action(() => deps.io.stdout.write(`${deps.config.path}\n`));
}

function keySpec(key: string): KeySpec {
  // Own keys only: `constructor` is not a setting.
  const spec = Object.hasOwn(CONFIG_KEYS, key) ? CONFIG_KEYS[key] : undefined;
  if (!spec) throw new UsageError(`unknown config key "${key.slice(0, 40)}"`, `the keys are ${Object.keys(CONFIG_KEYS).join(', ')}`);
  return spec;
}
