// mkt token: the OAuth 2.0 client-credentials grant (POST /v1/auth/token); stores the token.
import { Command, Option } from 'commander';
import { AuthError, ForbiddenError, InvalidRequestError } from '../../api/index.js';
import { saveToken, settingsToKeep } from '../credentials/saved-token.js';
import { readSecret, rejectSecretFlag, secretHint, type SecretSource } from '../credentials/secret-input.js';
import type { Deps } from '../deps.js';
import { diagnosticsOf } from '../output/diagnostics.js';
import { commandOptions } from '../options/command-options.js';
import { UsageError } from '../errors/errors.js';
import { createSignInClient } from '../network/client.js';
import { describeToken, warnAboutScope } from '../credentials/describe-token.js';
import type { Explainer } from '../errors/explain.js';
import { baseUrlHint, profileFlag } from '../hints/service.js';
import { addNetworkOptions, type NetworkFlags } from '../options/network.js';
import { addTargetOptions } from '../options/target.js';
import type { RunState } from '../run-state.js';
import { checkOrganization, ORG_HINT, requireBaseUrl, resolveSettings, type TargetFlags } from '../options/settings.js';
import { runTerminal } from '../output/terminal.js';
import { writeJson, writeLines } from '../output/writer.js';

interface TokenOptions extends TargetFlags, NetworkFlags {
  clientId?: string;
  withClientSecret?: boolean;
  clientSecret?: string;
  print?: boolean;
  json?: boolean;
}

const CLIENT_SECRET: Omit<SecretSource, 'stdinFlagGiven'> = {
  stdinFlag: '--with-client-secret',
  envName: 'MKT_CLIENT_SECRET',
  label: 'client secret',
  example: 'mkt token --client-id ID --with-client-secret < secret.txt',
};

export function registerToken(program: Command, deps: Deps, state: RunState): void {
  const command = program.command('token')
    .description('get a token with the OAuth 2.0 client-credentials grant and store it')
    .option('--client-id <id>', 'the client id (env MKT_CLIENT_ID)')
    .option('--with-client-secret', 'read the client secret from standard input')
    .addOption(new Option('--client-secret <secret>').hideHelp())
    .option('--print', 'write only the access token to stdout')
    .option('--json', 'write the token response as JSON to stdout')
    .addHelpText('after', `
A real secret never goes on a command line, where shell history and ps keep it: type it at the
masked prompt (on a terminal mkt asks for the client id too), pipe it in with --with-client-secret,
or in CI put MKT_CLIENT_ID and MKT_CLIENT_SECRET in the environment from the CI's secret store. With
those two set, commands that need a token get or renew one by themselves, and use a stored token only
if that client minted it, for that base URL, with that secret (mkt keeps a keyed hash of the secret,
never the secret); tokens minted for other clients are kept beside the profile's, one per client.
--base-url and --org given here are kept in the profile for later commands.

Examples:
  $ mkt token --org org_demo                                       # asks for the id and the secret (interactive)
  $ mkt token --client-id ci --with-client-secret --org org_demo < secret.txt
  $ export TOKEN=$(mkt token --client-id ci --with-client-secret --print < secret.txt)
  $ mkt token --json | jq .expires_in          # MKT_CLIENT_ID and MKT_CLIENT_SECRET from a secret store`);
  addNetworkOptions(addTargetOptions(command)).action(async (_options: TokenOptions, self: Command) => {
    state.exitCode = await runToken(deps, commandOptions<TokenOptions>(self), state);
  });
}

async function runToken(deps: Deps, options: TokenOptions, state: RunState): Promise<number> {
  deps.config.willChange();
  rejectSecretFlag(options.clientSecret, '--client-secret', secretHint({ ...CLIENT_SECRET, stdinFlagGiven: false }));
  if (options.print && options.json) throw new UsageError('--print and --json cannot be used together');
  const settings = resolveSettings(deps, options, { creates: true });
  const baseUrl = requireBaseUrl(deps, settings.baseUrl);
  state.explain = tokenExplainer(options, baseUrl);
  const organizationId = settings.org.value === undefined ? undefined : checkOrganization(settings.org.value, settings.org.source);
  const clientId = await readClientId(deps, options);
  const { value: clientSecret } = await readSecret(deps, { ...CLIENT_SECRET, stdinFlagGiven: options.withClientSecret === true });
  const { client } = await createSignInClient(deps, options, state, settings, baseUrl);
  const token = await client.clientCredentials({ clientId, clientSecret });
  const profile = settings.profile.value;
  const { record, saved } = await saveToken(deps, {
    profile, token, source: 'client-credentials', baseUrl, organizationId, clientId, clientSecret,
    settings: settingsToKeep(settings, baseUrl, organizationId === undefined ? undefined : { value: organizationId, prompted: false }),
  });

  // The token asked for, on stdout, which is never scrubbed; diagnostics still are, of it too.
  const terminal = runTerminal(deps, state);
  if (options.print) {
    writeLines(terminal, [token.accessToken]);
  } else if (options.json) {
    writeJson(terminal, {
      access_token: token.accessToken,
      token_type: token.tokenType,
      expires_in: token.expiresIn ?? null,
      scope: token.scope ?? null,
      organization_id: organizationId ?? null,
    });
  } else if (!options.quiet) {
    diagnosticsOf(deps).info(`Got a token for client ${clientId} from ${baseUrl} (profile ${profile}${organizationId ? `, ${organizationId}` : ''})${describeToken(deps, record.expires_at, record.scope)}`);
    if (saved) diagnosticsOf(deps).info(saved);
  }
  warnAboutScope(deps, record.scope);
  if (organizationId === undefined) {
    diagnosticsOf(deps).warn({ code: 'no_organization', message: `no organization set for profile ${profile}: \`mkt quotes\` will need one`, hint: ORG_HINT });
  }
  return 0;
}

/** The service's refusals of POST /v1/auth/token: the client id and secret just given. */
function tokenExplainer(options: TokenOptions, baseUrl: string): Explainer {
  return (error) => {
    const wrongBase = baseUrlHint(error, baseUrl);
    if (wrongBase !== undefined) return wrongBase;
    if (!(error instanceof AuthError || error instanceof ForbiddenError || error instanceof InvalidRequestError)) return undefined;
    return { hint: `the service refused the client credentials: check the client id (--client-id or MKT_CLIENT_ID) and the secret (--with-client-secret, MKT_CLIENT_SECRET or the prompt), then run \`mkt token${profileFlag(options)}\` again` };
  };
}

/** --client-id, MKT_CLIENT_ID, or a prompt on a terminal (the secret is prompted for there too). */
async function readClientId(deps: Deps, options: TokenOptions): Promise<string> {
  const problem = (value: string) => /\s/.test(value) ? 'the client id must not contain spaces' : undefined;
  let clientId = options.clientId ?? deps.env.MKT_CLIENT_ID;
  if (!clientId && deps.io.stdinIsTTY && deps.io.stdoutIsTTY) {
    clientId = (await deps.io.prompt('Client id:', { mask: false, validate: (answer) => answer === '' ? 'enter the client id' : problem(answer) })).trim();
  }
  if (!clientId) throw new UsageError('no client id given', 'pass --client-id ID or set MKT_CLIENT_ID (or run mkt token on a terminal, which asks)');
  const bad = problem(clientId);
  if (bad) throw new UsageError(bad);
  return clientId;
}
