// auth_status: `mkt status --json` for an agent, without --check: which profile, service,
// organization and token the other tools would use, where each comes from, and whether they are
// usable, with what to do when not. Offline; the token itself is never in it, only a fingerprint.
import { buildStatus } from '../commands/status.js';
import { LOCAL_TOOL } from './schemas.js';
import { z, type McpServer } from './sdk.js';
import { answerCall, type McpSession } from './tool-call.js';

const SETTING = z.looseObject({
  value: z.string().nullable(),
  kind: z.string().describe('where it came from: flag, env, config, token (the stored token\'s), default, unset'),
  source: z.string().describe('the flag, variable or config file (and profile) it came from'),
});

const STATUS = z.looseObject({
  schema_version: z.literal(1),
  usable: z.boolean().describe('whether the other tools have credentials to call the service with'),
  problems: z.array(z.string()).describe('what makes them unusable, each with what to do (run `mkt login`, set MKT_TOKEN, ...)'),
  profile: SETTING,
  base_url: SETTING,
  organization: SETTING,
  token: z.looseObject({
    present: z.boolean(),
    kind: z.string(),
    source: z.string(),
    obtained_via: z.string().nullable().describe('cli-login, client-credentials, environment (MKT_TOKEN), or null'),
    type: z.string().nullable(),
    scope: z.string().nullable().describe('space-separated; the tools need market.read'),
    organization_id: z.string().nullable(),
    issued_by: z.string().nullable(),
    expires_at: z.string().nullable(),
    expires_in_seconds: z.number().int().nullable(),
    expired: z.boolean().nullable(),
    fingerprint: z.string().nullable().describe('a hash that identifies the token without revealing it'),
  }),
  config_file: z.looseObject({ path: z.string(), exists: z.boolean(), mode: z.string().nullable(), dir_mode: z.string().nullable(), safe: z.boolean() }),
  warnings: z.array(z.string()),
  client_credentials: z.looseObject({
    present: z.boolean().describe('MKT_CLIENT_ID and MKT_CLIENT_SECRET are set: tokens are got and renewed by themselves'),
    client_id: z.string().nullable(),
    renews_token: z.boolean(),
  }),
  check: z.null().describe('always null: this tool asks the service nothing (mkt status --check does)'),
});

export function registerAuthStatus(server: McpServer, session: McpSession): void {
  server.registerTool('auth_status', {
    title: 'Credentials status',
    description: 'Which profile, service (base URL), organization and token mkt uses for the other tools, where each comes from (a flag, an environment variable, the config file), and whether they are usable: usable, and problems saying what to do when not (the user runs `mkt login`, or sets MKT_TOKEN, or MKT_CLIENT_ID and MKT_CLIENT_SECRET, where the MCP client starts mkt mcp). As `mkt status --json` without --check: offline, it sends no request, and never returns the token, only a fingerprint (a hash). Read-only: it never logs in, logs out or changes mkt\'s settings.',
    inputSchema: z.strictObject({}),
    outputSchema: STATUS,
    annotations: { title: 'Credentials status', ...LOCAL_TOOL },
  }, (_input, extra) => answerCall(session, extra, async (call) => ({ ...await buildStatus(call.deps, session.flags) })));
}
