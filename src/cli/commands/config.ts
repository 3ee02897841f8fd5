// mkt config get|set|unset|list|path: per-profile settings (base-url, org, format, precision). What it prints
// comes from a file the user may not have written: every value is made safe for a terminal.
import { Argument, type Command } from 'commander';
import type { ProfileRecord, TokenRecord } from '../../config/store.js';
import { printable } from '../../shared/text.js';
import { clientTokens } from '../credentials/client-tokens.js';
import type { Deps } from '../deps.js';
import { choiceParser } from '../options/choice-parser.js';
import { commandOptions } from '../options/command-options.js';
import { UsageError } from '../errors/errors.js';
import type { RunState } from '../run-state.js';
import { checkBaseUrl, checkOrganization, resolveProfile } from '../options/settings.js';
import { FORMATS, isFormat } from '../options/format.js';
import { readPrecision } from '../options/precision.js';
import { runTerminal } from '../output/terminal.js';
import { writeLines } from '../output/writer.js';

type SettingKey = 'base_url' | 'org' | 'format' | 'precision';

interface KeySpec {
  field: SettingKey;
  describe: string;
  normalize(deps: Deps, value: string): string;
  /** The variable that overrides the setting for every command. */
  env: string;
  /** Unset, what commands take instead from the profile's stored token (as mkt status shows it), and how to say so. */
  fromToken?: { read(token: TokenRecord): string | undefined; what: string };
}

const CONFIG_KEYS: Record<string, KeySpec> = {
  'base-url': {
    field: 'base_url',
    describe: 'the service address, e.g. https://api.example.com',
    normalize: (deps, value) => checkBaseUrl(deps, value, 'mkt config set'),
    env: 'MKT_BASE_URL',
    fromToken: { read: (token) => token.base_url, what: 'the base URL its stored token was issued by' },
  },
  org: {
    field: 'org',
    describe: 'the organization, org_<id>',
    normalize: (_deps, value) => checkOrganization(value, 'mkt config set'),
    env: 'MKT_ORG',
    fromToken: { read: (token) => token.organization_id, what: 'the organization its stored token was issued for' },
  },
  format: {
    field: 'format',
    describe: `the default output format of mkt quotes and mkt value: ${FORMATS.join(', ')}`,
    normalize: (_deps, value) => {
      if (!isFormat(value)) throw new UsageError(`format must be one of ${FORMATS.join(', ')}, not ${printable(value, { max: 40, quote: true })}`);
      return value;
    },
    env: 'MKT_FORMAT',
  },
  precision: {
    field: 'precision',
    describe: 'how mkt value writes the figures it computes: minor, full, or a number of decimal places (0-34)',
    normalize: (_deps, value) => {
      const precision = readPrecision(value);
      if (precision === undefined) throw new UsageError(`precision must be minor, full or a number of decimal places from 0 to 34, not ${printable(value, { max: 40, quote: true })}`);
      return String(precision);
    },
    env: 'MKT_PRECISION',
  },
};

interface ConfigOptions {
  profile?: string;
}

export function registerConfig(program: Command, deps: Deps, state: RunState): void {
  const config = program.command('config')
    .description('read and change settings: base-url, org, format, precision (per profile)')
    .addHelpText('after', `
Keys:
${Object.entries(CONFIG_KEYS).map(([key, spec]) => `  ${key.padEnd(10)}${spec.describe}`).join('\n')}

Examples:
  $ mkt config set base-url https://api.example.com
  $ mkt config set org org_demo --profile ci
  $ mkt config get base-url
  $ mkt config list
  $ mkt config path`);
  const keyArgument = () => new Argument('<key>', 'a setting').choices(KEYS).argParser(keyNamed);
  const profileOption = '--profile <name>';
  const profileHelp = 'the profile (env MKT_PROFILE; default "default")';

  config.command('get').addArgument(keyArgument()).description('print one setting as the profile gives it to commands (nothing when it has none)').option(profileOption, profileHelp)
    .action((key: string, _options: ConfigOptions, self: Command) => {
      runGet(deps, state, key, commandOptions<ConfigOptions>(self));
    });
  config.command('set').addArgument(keyArgument()).argument('<value>').description('change one setting').option(profileOption, profileHelp)
    .action(async (key: string, value: string, _options: ConfigOptions, self: Command) => {
      deps.config.willChange();
      const spec = keySpec(key);
      const normalized = spec.normalize(deps, value);
      const profile = resolveProfile(deps, commandOptions<ConfigOptions>(self).profile, { creates: true }).value;
      await deps.config.updateProfile(profile, (record) => ({ ...record, [spec.field]: normalized }));
      deps.io.stderr.write(`Set ${key} to ${printable(normalized)} (profile ${profile}).\n`);
    });
  config.command('unset').addArgument(keyArgument()).description('remove one setting').option(profileOption, profileHelp)
    .action(async (key: string, _options: ConfigOptions, self: Command) => {
      deps.config.willChange();
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
        const kept = clientTokens(record);
        if (kept.length > 0) lines.push(`${options.all ? `${name}.` : ''}client-tokens=(stored for ${kept.map((token) => String(token.client_id)).join(', ')})`);
      }
      writeLines(runTerminal(deps, state), lines);
    });
  config.command('path').description('print the config file path')
    .action(() => writeLines(runTerminal(deps, state), [deps.config.path]));
}

/**
 * The setting as the profile gives it to commands: its own, or for base-url and org, unset, the one
 * its stored token came with, which mkt status shows too; said on stderr when it is that one, and
 * when a variable overrides it.
 */
function runGet(deps: Deps, state: RunState, key: string, options: ConfigOptions): void {
  const spec = keySpec(key);
  const profile = resolveProfile(deps, options.profile).value;
  const record = deps.config.profile(profile);
  const own = record?.[spec.field] || undefined;
  const token = record?.token === undefined ? undefined : spec.fromToken?.read(record.token) || undefined;
  const value = own ?? token;
  if (value !== undefined) writeLines(runTerminal(deps, state), [value]);
  if (own === undefined && token !== undefined) deps.io.stderr.write(`${key} is not set in profile ${profile}: this is ${spec.fromToken!.what}\n`);
  const override = deps.env[spec.env];
  if (override) deps.io.stderr.write(`note: ${spec.env}=${printable(override, { max: 80 })} overrides it for every command\n`);
}

const KEYS = Object.keys(CONFIG_KEYS);
// Own keys only: `constructor` is not a setting.
const keyNamed = choiceParser(KEYS, (given, valid) => new UsageError(`unknown config key ${given}`, `the keys are ${valid}`));

function keySpec(key: string): KeySpec {
  return CONFIG_KEYS[keyNamed(key)]!;
}
