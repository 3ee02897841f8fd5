// mkt login: POST /auth/cli-login with an API key and an organization; stores the token.
import { Command, Option } from 'commander';
import { AuthError, ForbiddenError, InvalidRequestError } from '../../api/index.js';
import { saveToken, settingsToKeep } from '../credentials/saved-token.js';
import { readOrganization, readSecret, rejectSecretFlag, secretHint, type SecretSource } from '../credentials/secret-input.js';
import type { Deps } from '../deps.js';
import { diagnosticsOf } from '../output/diagnostics.js';
import { commandOptions } from '../options/command-options.js';
import { API_KEY_PATTERN } from '../../shared/patterns.js';
import { UsageError } from '../errors/errors.js';
import { createSignInClient } from '../network/client.js';
import { describeToken, warnAboutScope } from '../credentials/describe-token.js';
import type { Explainer } from '../errors/explain.js';
import { baseUrlHint, profileFlag } from '../hints/service.js';
import { addNetworkOptions, type NetworkFlags } from '../options/network.js';
import { addTargetOptions } from '../options/target.js';
import type { RunState } from '../run-state.js';
import { checkOrganization, requireBaseUrl, resolveSettings, type TargetFlags } from '../options/settings.js';

interface LoginOptions extends TargetFlags, NetworkFlags {
  withApiKey?: boolean;
  apiKey?: string;
}

const API_KEY: Omit<SecretSource, 'stdinFlagGiven'> = {
  stdinFlag: '--with-api-key',
  envName: 'MKT_API_KEY',
  label: 'API key',
  example: 'mkt login --with-api-key < key.txt',
  check: (value) => API_KEY_PATTERN.test(value) ? undefined : 'an API key is <client_id>.<client_secret>: copy the whole key, both parts joined by a dot',
};

export function registerLogin(program: Command, deps: Deps, state: RunState): void {
  const command = program.command('login')
    .description('log in with an API key (<client_id>.<client_secret>) and store the token')
    .option('--with-api-key', 'read the API key from standard input')
    .addOption(new Option('--api-key <key>').hideHelp())
    .addHelpText('after', `
A real key never goes on a command line, where shell history and ps keep it: type it at the
masked prompt, pipe it in with --with-api-key, or in CI put it in MKT_API_KEY from the CI's secret
store. A flag (--api-key) is refused. The organization comes from --org, MKT_ORG, the profile, or a
prompt. --base-url and --org given here (or an organization typed at the prompt) are kept in the
profile for later commands; logout removes the token only.

Examples:
  $ mkt login --org org_demo --base-url https://api.example.com   # asks for the key, masked (interactive)
  $ mkt login --with-api-key --org org_demo < key.txt             # from a file only you can read
  $ MKT_API_KEY=demo.demo-secret mkt login --org org_demo         # the sandbox's demo key only`);
  addNetworkOptions(addTargetOptions(command)).action(async (_options: LoginOptions, self: Command) => {
    state.exitCode = await runLogin(deps, commandOptions<LoginOptions>(self), state);
  });
}

async function runLogin(deps: Deps, options: LoginOptions, state: RunState): Promise<number> {
  deps.config.willChange();
  rejectSecretFlag(options.apiKey, '--api-key', secretHint({ ...API_KEY, stdinFlagGiven: false }));
  const settings = resolveSettings(deps, options, { creates: true });
  const baseUrl = requireBaseUrl(deps, settings.baseUrl);
  state.explain = loginExplainer(deps, options, baseUrl);
  const { value: apiKey } = await readSecret(deps, { ...API_KEY, stdinFlagGiven: options.withApiKey === true });
  if (!API_KEY_PATTERN.test(apiKey)) {
    throw new UsageError('the API key is not of the form <client_id>.<client_secret>', 'copy the whole key, both parts joined by a dot');
  }
  const organization = await readOrganization(deps, settings);
  const organizationId = checkOrganization(organization.value, organization.prompted ? 'the prompt' : settings.org.source);
  if (deps.env.MKT_TOKEN) {
    diagnosticsOf(deps).warn({ code: 'token_overridden', message: 'MKT_TOKEN is set; it overrides the token stored by this login until you unset it' });
  }
  const { client } = await createSignInClient(deps, options, state, settings, baseUrl);
  const token = await client.cliLogin({ apiKey, organizationId });
  const profile = settings.profile.value;
  const { record, saved } = await saveToken(deps, {
    // The organization asked for and checked above; the service's echo of it is not trusted.
    profile, token, source: 'cli-login', baseUrl, organizationId,
    clientId: apiKey.slice(0, apiKey.indexOf('.')),
    settings: settingsToKeep(settings, baseUrl, organization),
  });
  if (!options.quiet) {
    diagnosticsOf(deps).info(`Logged in to ${baseUrl} for ${record.organization_id} (profile ${profile})${describeToken(deps, record.expires_at, record.scope)}`);
    if (saved) diagnosticsOf(deps).info(saved);
  }
  warnAboutScope(deps, record.scope);
  return 0;
}

/** The service's refusals of POST /auth/cli-login: the API key and the organization just given. */
function loginExplainer(deps: Deps, options: LoginOptions, baseUrl: string): Explainer {
  const again = `then run \`mkt login${profileFlag(options)}\` again`;
  return (error) => {
    const wrongBase = baseUrlHint(error, baseUrl);
    if (wrongBase !== undefined) return wrongBase;
    if (error instanceof ForbiddenError && /scope/i.test(error.message)) {
      return { hint: 'the API key lacks the market.read scope that quotes need: use a key that has it' };
    }
    if (error instanceof ForbiddenError) {
      return { hint: `the API key may not act for that organization: check --org, or use a key of that organization, ${again}` };
    }
    if (error instanceof AuthError || error instanceof InvalidRequestError) {
      const from = deps.env.MKT_API_KEY ? 'MKT_API_KEY is set: check its value' : 'check the key';
      return { hint: `the service refused the API key or the organization: ${from} (the whole <client_id>.<client_secret>) and --org, ${again}` };
    }
    return undefined;
  };
}
